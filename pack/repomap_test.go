package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/config"
)

// writeMapTree writes a small Go tree where store/store.go defines what
// every other file uses; the other files sort before it by path.
func writeMapTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/maptree\n\ngo 1.22\n")
	var st strings.Builder
	st.WriteString("// Package store keeps the records every handler reads and writes.\npackage store\n\n")
	st.WriteString("// Records keeps values by key.\ntype Records struct {\n\tdata map[string]string\n\tlog  []string\n}\n\n")
	for _, fn := range []string{"Lookup", "Insert", "Remove", "Snapshot"} {
		fmt.Fprintf(&st, "// %s runs the %s step on the records.\nfunc (r *Records) %s(key string) string {\n", fn, strings.ToLower(fn), fn)
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&st, "\tr.log = append(r.log, \"%s step %d for \"+key)\n", strings.ToLower(fn), i)
		}
		st.WriteString("\treturn r.data[key]\n}\n\n")
	}
	write("store/store.go", st.String())
	for _, name := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\nimport \"example.com/maptree/store\"\n\n", name)
		fmt.Fprintf(&b, "// Serve%s answers %s requests from the records.\nfunc Serve%s(r *store.Records, key string) string {\n", name, name, name)
		b.WriteString("\tr.Insert(key)\n\tr.Remove(key)\n\tr.Snapshot(key)\n\treturn r.Lookup(key)\n}\n")
		write("a_"+name+"/"+name+".go", b.String())
	}
	return root
}

// TestPackWithoutQueryIsAMap packs a tree with no query: the file every
// other file uses ranks first, and with a small budget it comes as an
// outline (signatures and doc comments) before any whole chunk; the pack
// says it is a map, and every rule holds (exact count, hard limit, no
// line twice). With the map ablated, files come in path order.
func TestPackWithoutQueryIsAMap(t *testing.T) {
	root := writeMapTree(t)
	zero := 0
	for _, tc := range []struct {
		name    string
		format  string
		total   int
		outline bool // the first item is store.go's outline
	}{
		{"small budget", FormatMarkdown, 250, true},
		{"large budget", FormatMarkdown, 4000, true},
		{"small budget xml", FormatXML, 250, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			total := tc.total
			req := Request{Format: tc.format, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
			res := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
			checkInvariants(t, res)
			if len(res.Included) == 0 {
				t.Fatalf("nothing included: %+v", res.Excluded)
			}
			first := res.Included[0]
			if first.Path != "store/store.go" {
				t.Errorf("first included %s, want store/store.go (every file uses it): %+v", first.Path, res.Included)
			}
			if tc.outline && first.Detail != "outline" {
				t.Errorf("store/store.go included as %q first, want its outline", first.Detail)
			}
			if opening := strings.SplitN(strings.TrimPrefix(res.Content, "<context>\n"), "\n", 2)[0]; !strings.Contains(opening, "store/store.go") {
				t.Errorf("the pack does not open with store/store.go:\n%s", res.Content)
			}
			found := false
			for _, w := range res.Warnings {
				found = found || w == mapWarning
			}
			if !found {
				t.Errorf("warnings %q lack the map's note", res.Warnings)
			}
			// Outlines of the map rank above every whole chunk.
			seenFull := false
			for _, it := range res.Included {
				switch {
				case it.Detail == "full":
					seenFull = true
				case seenFull:
					t.Errorf("outline of %s after a whole chunk: %+v", it.Path, res.Included)
				}
			}
		})
	}
	t.Run("ablated", func(t *testing.T) {
		total := 4000
		req := Request{Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
		res := packDirAblated(t, root, caseArgs{Request: req, Paths: []string{"."}}, []string{featMap})
		checkInvariants(t, res)
		if res.Included[0].Path != "a_alpha/alpha.go" {
			t.Errorf("ablated: first %s, want a_alpha/alpha.go (path order)", res.Included[0].Path)
		}
		for _, w := range res.Warnings {
			if w == mapWarning {
				t.Errorf("ablated pack still says it is a map")
			}
		}
	})
	t.Run("query", func(t *testing.T) {
		total := 4000
		req := Request{Query: "epsilon requests", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
		res := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
		for _, w := range res.Warnings {
			if w == mapWarning {
				t.Errorf("a pack with a query says it is a map")
			}
		}
	})
}

// TestMapShowsManyFiles packs, with no query, a tree whose most central
// file has a long outline (80 methods): its outline is cut to its cap
// (twice 1/mapOutlineFiles of the map's share) and the outlines of the
// files that use it follow, so the map shows the tree's shape rather than
// one file's every signature.
func TestMapShowsManyFiles(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/bigmap\n\ngo 1.22\n")
	var st strings.Builder
	st.WriteString("package store\n\n// Records keeps values by key.\ntype Records struct{ data map[string]string }\n\n")
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&st, "// Step%d runs step %d on the records.\nfunc (r *Records) Step%d(key string) string {\n\tdelete(r.data, key)\n\treturn r.data[key]\n}\n\n", i, i, i)
	}
	write("store/store.go", st.String())
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}
	for k, name := range names {
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\nimport \"example.com/bigmap/store\"\n\n", name)
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&b, "// Serve%d answers %s requests.\nfunc Serve%d(r *store.Records, key string) string {\n\treturn r.Step%d(key) + r.Step%d(key)\n}\n\n", j, name, j, k*6+j, 79-k)
		}
		write("svc/"+name+"/"+name+".go", b.String())
	}
	zero, total := 0, 2000
	req := Request{Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	res := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
	checkInvariants(t, res)
	outlined := map[string]int{}
	for _, it := range res.Included {
		if it.Detail == "outline" {
			outlined[it.Path] += it.Tokens
		}
	}
	if len(outlined) < 4 {
		t.Errorf("outlines of %d files (%v), want at least 4: a map shows many files", len(outlined), outlined)
	}
	share := int64(total) / mapOutlineShare
	if got, most := outlined["store/store.go"], outlineCap(true, share); got == 0 || int64(got) > most {
		t.Errorf("store/store.go's outline is %d tokens, want 1..%d (its cap)", got, most)
	}
}
