package pack

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"golang.org/x/tools/txtar"
)

// TestDedupRemovalsLogged (seed 001 FR-016-103: deduplication logs its
// removals; 000 AC-028, AC-037: exact and merge savings reported apart).
// The dedup golden case packs an exact copy of a file and references that
// overlap its chunks: every chunk removed as a duplicate or merged is a
// debug log line with its path, lines and reason (never its content), and
// the savings split into exact and overlap adds up to the total.
func TestDedupRemovalsLogged(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "dedup.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var args caseArgs
	var texts []string
	for _, f := range ar.Files {
		switch {
		case f.Name == "args.json":
			if err := json.Unmarshal(f.Data, &args); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(f.Name, "ws/"):
			writeFile(t, filepath.Join(root, f.Name[3:]), f.Data)
			texts = append(texts, string(f.Data))
		}
	}
	core, logs := observer.New(zapcore.DebugLevel)
	res := packDirCtx(WithLogger(context.Background(), zap.New(core)), t, root, args, nil)

	logged := map[string]int{}
	for _, e := range logs.All() {
		if e.Message != "input excluded" && e.Message != "chunk excluded" {
			continue // a chunk wholly covered by a better one is a "chunk excluded" line
		}
		f := e.ContextMap()
		logged[fmt.Sprintf("%v %v %v-%v", f["reason"], f["path"], f["startLine"], f["endLine"])]++
		for k, v := range f {
			s, ok := v.(string)
			if !ok || len(s) < 20 {
				continue
			}
			for _, text := range texts {
				if strings.Contains(text, s) {
					t.Errorf("log field %s holds file content: %q", k, s)
				}
			}
		}
	}
	removals := map[string]int{}
	for _, x := range res.Excluded {
		if x.Reason == "duplicate" || x.Reason == "merged" {
			removals[x.Reason]++
			key := fmt.Sprintf("%s %s %d-%d", x.Reason, x.Path, x.StartLine, x.EndLine)
			if logged[key] == 0 {
				t.Errorf("removal not logged: %s (logged: %v)", key, logged)
			}
		}
	}
	if removals["duplicate"] == 0 || removals["merged"] == 0 {
		t.Fatalf("the case must remove duplicates and merge overlaps: %v", removals)
	}
	d := res.Dedup
	if d.ExactTokensSaved <= 0 || d.OverlapTokensSaved <= 0 || d.ExactTokensSaved+d.OverlapTokensSaved != d.TokensSaved {
		t.Errorf("savings exact %d + overlap %d, total %d: want both > 0 adding up", d.ExactTokensSaved, d.OverlapTokensSaved, d.TokensSaved)
	}
	rep := Report(res)
	for _, want := range []string{
		fmt.Sprintf("Exact Duplicates Removed:  %s, %s tokens saved", chunkCount(d.ExactRemoved), num(d.ExactTokensSaved)),
		fmt.Sprintf("Overlapping Lines Merged:  %s merged, %s tokens saved", chunkCount(d.OverlapsMerged), num(d.OverlapTokensSaved)),
		fmt.Sprintf("Total Savings: %s tokens", num(d.TokensSaved)),
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
	}
}
