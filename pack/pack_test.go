package pack

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/golden"
	"github.com/acode-lsp/acode-lsp/internal/invariant"
)

// fixedTime is the mtime of every test file, so recency is reproducible.
var fixedTime = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// caseArgs is the args.json section of a golden case. Its request is a
// pack.Request in JSON (field names match without regard to case: "query",
// "sources", "startLine"); a source's relative path is under the
// workspace root.
type caseArgs struct {
	Request Request  `json:"request"`
	Paths   []string `json:"paths"`
	// Open names workspace files that are open in the editor; their
	// Modified time is fixedTime plus the index in minutes.
	Open []string `json:"open"`
}

// TestGolden packs the workspace of each testdata/*.txtar (files under
// ws/) with args.json and compares the context (want.md) and a summary of
// the result (want.summary). Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/*.txtar", func(t *testing.T, c *golden.Case) {
		ar := c.Archive
		root := t.TempDir()
		var args caseArgs
		for _, f := range ar.Files {
			switch {
			case f.Name == "args.json":
				if err := json.Unmarshal(f.Data, &args); err != nil {
					t.Fatalf("args.json: %v", err)
				}
			case strings.HasPrefix(f.Name, "ws/"):
				writeFile(t, filepath.Join(root, f.Name[3:]), f.Data)
			}
		}
		res := packDir(t, root, args)
		got := map[string]string{"want.md": res.Content, "want.summary": summary(res)}
		checkInvariantsIn(t, res, root)
		c.Check(t, c.Path, got)
	})
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fixedTime, fixedTime); err != nil {
		t.Fatal(err)
	}
}

// packDir packs root as the CLI would: the config of root, the paths
// walked as open_file sources.
func packDir(t *testing.T, root string, args caseArgs) *Result {
	t.Helper()
	return packDirAblated(t, root, args, nil)
}

// packDirAblated is packDir with the relevance features of ablate off
// (Engine.Ablate).
func packDirAblated(t *testing.T, root string, args caseArgs, ablate []string) *Result {
	t.Helper()
	return packDirCtx(context.Background(), t, root, args, ablate)
}

// packDirCtx is packDirAblated with ctx (a logger, a deadline).
func packDirCtx(ctx context.Context, t *testing.T, root string, args caseArgs, ablate []string) *Result {
	t.Helper()
	cfg, err := config.Load(config.FilePath(root))
	if err != nil {
		t.Fatal(err)
	}
	req := args.Request
	for _, p := range args.Paths {
		req.Paths = append(req.Paths, filepath.Join(root, p))
	}
	for i := range req.Sources {
		if p := req.Sources[i].Path; p != "" && !filepath.IsAbs(p) {
			req.Sources[i].Path = filepath.Join(root, p)
		}
	}
	var open []OpenDoc
	docs := overlay{}
	for i, p := range args.Open {
		abs := filepath.Join(root, p)
		data, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		d := OpenDoc{AbsPath: abs, Modified: fixedTime.Add(time.Duration(i) * time.Minute)}
		open = append(open, d)
		docs[abs] = overlayDoc{text: string(data), modified: d.Modified}
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}, Exclude: cfg.Context.Exclude, Overlay: docs})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(cfg, ws)
	e.Ablate = ablate
	res, err := e.Pack(ctx, req, open, nil)
	if err != nil {
		t.Fatalf("Pack: %v", err)
	}
	return res
}

// overlay is the editor's open documents as the collector sees them, by
// absolute path.
type overlay map[string]overlayDoc

type overlayDoc struct {
	text     string
	modified time.Time
}

func (o overlay) Open(abs string) (string, time.Time, bool) {
	d, ok := o[abs]
	return d.text, d.modified, ok
}

// summary is a stable text form of a result without the content.
func summary(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tokenCount %d of available %d (%s, exact=%v)\n", r.TokenCount, r.Budget.Available, r.Encoding, r.Exact)
	for _, c := range []string{"tool_results", "open_files", "search_results", "references"} {
		cr := r.Budget.Categories[c]
		fmt.Fprintf(&b, "category %s allocated %d used %d\n", c, cr.Allocated, cr.Used)
	}
	fmt.Fprintf(&b, "dedup exact %d merged %d saved %d (exact %d, overlap %d)\n", r.Dedup.ExactRemoved, r.Dedup.OverlapsMerged, r.Dedup.TokensSaved, r.Dedup.ExactTokensSaved, r.Dedup.OverlapTokensSaved)
	for _, it := range r.Included {
		fmt.Fprintf(&b, "included %s/%s %s%s %d-%d tokens %d score %.4f\n", it.Type, it.Origin, it.Path, it.Label, it.StartLine, it.EndLine, it.Tokens, it.Score)
	}
	for _, it := range r.Excluded {
		fmt.Fprintf(&b, "excluded %s %s/%s %s %d-%d %s\n", it.Reason, it.Type, it.Origin, it.Path, it.StartLine, it.EndLine, it.Detail)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	return b.String()
}

// checkInvariants checks the rules every pack keeps (internal/invariant:
// rules 3, 6 and 8, in both formats).
func checkInvariants(t *testing.T, r *Result) {
	t.Helper()
	invariant.CheckJSON(t, resultJSON(t, r), invariant.Options{})
}

// checkInvariantsIn is checkInvariants that also compares the lines each
// file section shows with the files under root.
func checkInvariantsIn(t *testing.T, r *Result, root string) {
	t.Helper()
	files, err := invariant.ReadFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	invariant.CheckJSON(t, resultJSON(t, r), invariant.Options{Files: files})
}

// resultJSON is a result as the front ends send it.
func resultJSON(t *testing.T, r *Result) []byte {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
