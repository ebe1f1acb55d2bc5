package pack

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/golden"
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
		checkInvariants(t, res)
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
	res, err := NewEngine(cfg, ws).Pack(context.Background(), req, open, nil)
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
	fmt.Fprintf(&b, "dedup exact %d merged %d saved %d\n", r.Dedup.ExactRemoved, r.Dedup.OverlapsMerged, r.Dedup.TokensSaved)
	for _, it := range r.Included {
		fmt.Fprintf(&b, "included %s %s%s %d-%d tokens %d score %.4f\n", it.Type, it.Path, it.Label, it.StartLine, it.EndLine, it.Tokens, it.Score)
	}
	for _, it := range r.Excluded {
		fmt.Fprintf(&b, "excluded %s %s %s %d-%d %s\n", it.Reason, it.Type, it.Path, it.StartLine, it.EndLine, it.Detail)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	return b.String()
}

var headerRe = regexp.MustCompile("^## (File|Tool|Snippet): (.*?)(?: \\(lines ([0-9, -]+)\\))?$")

// checkInvariants verifies the rules every pack must keep: the exact count
// of the final text is tokenCount and fits available (rule 3), no source
// line appears twice and the shown lines are the file's (rules 6, 8).
func checkInvariants(t *testing.T, r *Result) {
	t.Helper()
	tok, err := tokenizer.ForEncoding(r.Encoding)
	if err != nil {
		t.Fatal(err)
	}
	if n := tok.Count(r.Content); n != r.TokenCount {
		t.Errorf("tokenCount %d but the content counts %d", r.TokenCount, n)
	}
	if r.TokenCount > r.Budget.Available {
		t.Errorf("tokenCount %d exceeds available %d", r.TokenCount, r.Budget.Available)
	}
	seen := map[string][][2]int{}
	for _, it := range r.Included {
		if it.Path == "" {
			continue
		}
		for _, s := range seen[it.Path] {
			if it.StartLine <= s[1] && s[0] <= it.EndLine {
				t.Errorf("%s lines %d-%d included twice (overlaps %d-%d)", it.Path, it.StartLine, it.EndLine, s[0], s[1])
			}
		}
		seen[it.Path] = append(seen[it.Path], [2]int{it.StartLine, it.EndLine})
	}
	if strings.HasPrefix(r.Content, "<") {
		checkXML(t, r.Content)
		return
	}
	// Parse the content: each header's ranges are disjoint and ascending,
	// and the fenced body has exactly their lines plus one gap marker
	// between ranges.
	lines := strings.Split(r.Content, "\n")
	headers := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		m := headerRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if headers[m[1]+m[2]] {
			t.Errorf("header for %s %s appears twice", m[1], m[2])
		}
		headers[m[1]+m[2]] = true
		if m[3] == "" {
			continue
		}
		want, last := 0, 0
		for j, rg := range strings.Split(m[3], ", ") {
			a, b, _ := strings.Cut(rg, "-")
			s, _ := strconv.Atoi(a)
			e, _ := strconv.Atoi(b)
			if s <= last || e < s {
				t.Errorf("%s: ranges %q not ascending and disjoint", m[2], m[3])
			}
			last = e
			want += e - s + 1
			if j > 0 {
				want++
			}
		}
		fence := lines[i+1][:strings.LastIndex(lines[i+1], "`")+1]
		body := 0
		for k := i + 2; k < len(lines) && lines[k] != fence; k++ {
			body++
		}
		if body != want {
			t.Errorf("%s: body has %d lines, want %d for ranges %s", m[2], body, want, m[3])
		}
	}
}

// checkXML parses content of the xml format wrapped in one root element
// (it must be well-formed XML 1.0) and checks each element: a known name,
// ranges ascending and disjoint, and a body of exactly their lines plus one
// gap marker between ranges, every line of the body on its own line.
func checkXML(t *testing.T, content string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader("<context>\n" + content + "</context>"))
	depth := 0
	var open xml.StartElement
	var body strings.Builder
	seen := map[string]bool{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the xml format is not well-formed: %v\n%s", err, content)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 2 {
				open = el
				body.Reset()
				if n := el.Name.Local; n != "file" && n != "tool" && n != "snippet" {
					t.Errorf("unknown element <%s>", n)
				}
			}
			if depth > 2 {
				t.Errorf("content opened an element <%s> inside <%s>", el.Name.Local, open.Name.Local)
			}
		case xml.CharData:
			if depth == 2 {
				body.Write(el)
			}
		case xml.EndElement:
			depth--
			if depth != 1 {
				continue
			}
			attrs := map[string]string{}
			for _, a := range open.Attr {
				attrs[a.Name.Local] = a.Value
			}
			key := open.Name.Local + attrs["path"] + attrs["label"]
			if seen[key] {
				t.Errorf("<%s> for %q appears twice", open.Name.Local, attrs["path"]+attrs["label"])
			}
			seen[key] = true
			ranges, ok := attrs["lines"]
			if !ok {
				continue
			}
			want, last := 0, 0
			for j, rg := range strings.Split(ranges, ", ") {
				a, b, _ := strings.Cut(rg, "-")
				s, _ := strconv.Atoi(a)
				e, _ := strconv.Atoi(b)
				if s <= last || e < s {
					t.Errorf("%s: ranges %q not ascending and disjoint", attrs["path"], ranges)
				}
				last = e
				want += e - s + 1
				if j > 0 {
					want++
				}
			}
			text := strings.TrimPrefix(body.String(), "\n")
			if got := strings.Count(text, "\n"); got != want {
				t.Errorf("<%s %s>: body has %d lines, want %d for ranges %s", open.Name.Local, attrs["path"], got, want, ranges)
			}
		}
	}
}
