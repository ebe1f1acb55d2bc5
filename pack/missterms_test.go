package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// refusingIndex stores nothing of terms (as package index does for a file
// redaction touched) and records what reaches it.
type refusingIndex struct {
	puts, forgets int
	stored        map[string]bool // paths whose terms it keeps
}

func (r *refusingIndex) Terms(f collector.FileRef, terms []string) (FileTerms, bool) {
	if r.stored[f.Abs] {
		return FileTerms{Counts: map[string]int{}}, true
	}
	return FileTerms{}, false
}
func (r *refusingIndex) PutTerms(collector.FileRef, []byte, map[string]int) { r.puts++ }
func (r *refusingIndex) Chunks(collector.FileRef, []byte, string) ([]chunker.Chunk, bool) {
	return nil, false
}
func (r *refusingIndex) PutChunks(collector.FileRef, []byte, string, []chunker.Chunk) {}
func (r *refusingIndex) Forget(string)                                                { r.forgets++ }

// setRefusingIndex keeps sets too.
type setRefusingIndex struct{ refusingIndex }

func (s *setRefusingIndex) PutSet(collector.FileRef, []byte, string, []chunker.Chunk) {}
func (s *setRefusingIndex) Set(collector.FileRef, []byte, string) ([]chunker.Chunk, bool) {
	return nil, false
}
func (s *setRefusingIndex) StatSets(collector.FileRef, []string) ([][]chunker.Chunk, bool) {
	return nil, false
}

// TestMissedTerms: the term table of a file the index refuses is answered
// from memory while its size and mtime hold; a file changed since, one
// changed too recently to trust its stat, one the index stored and a
// forgotten one are not; a SetIndex stays one.
func TestMissedTerms(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, age time.Duration) collector.FileRef {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Now().Add(-age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return collector.FileRef{Abs: p, Path: name, Info: fi}
	}
	inner := &refusingIndex{stored: map[string]bool{}}
	idx := MissedTerms(inner)
	text := "serverClose idle idle timeout"
	old := write("a.go", text, time.Hour)
	idx.PutTerms(old, []byte(text), termTable(text))
	if _, ok := idx.Terms(old, []string{"idle"}); ok {
		t.Error("Terms answered after one put: the index may have stored the file")
	}
	idx.PutTerms(old, []byte(text), termTable(text)) // the index refused it
	ft, ok := idx.Terms(old, []string{"idle", "timeout", "missing"})
	if !ok || ft.Counts["idle"] != 2 || ft.Counts["timeout"] != 1 || len(ft.Counts) != 2 {
		t.Errorf("Terms of a kept file = %v, %v; want idle 2, timeout 1", ft, ok)
	}
	if inner.puts != 2 {
		t.Errorf("the index saw %d puts, want 2 (it decides what it stores)", inner.puts)
	}

	changed := write("a.go", text+" more", time.Hour) // another size
	if _, ok := idx.Terms(changed, []string{"idle"}); ok {
		t.Error("Terms answered for a file whose size changed")
	}
	touched := write("a.go", text, time.Minute) // the same size, another mtime
	if _, ok := idx.Terms(touched, []string{"idle"}); ok {
		t.Error("Terms answered for a file whose mtime changed")
	}

	fresh := write("b.go", text, 0)
	idx.PutTerms(fresh, []byte(text), termTable(text))
	idx.PutTerms(fresh, []byte(text), termTable(text))
	if _, ok := idx.Terms(fresh, []string{"idle"}); ok {
		t.Error("a file changed within the racy window was kept")
	}

	stored := write("c.go", text, time.Hour)
	inner.stored[stored.Abs] = true
	idx.PutTerms(stored, []byte(text), termTable(text))
	if _, ok := idx.Terms(stored, nil); !ok {
		t.Error("Terms missed a file the index stored")
	}
	tables := 0
	for _, e := range idx.(*missedTerms).m {
		if e.hashes != nil {
			tables++
		}
	}
	if tables != 1 {
		t.Errorf("memo holds %d term tables, want 1 (not the one the index stored)", tables)
	}

	again := write("d.go", text, time.Hour)
	idx.PutTerms(again, []byte(text), termTable(text))
	idx.PutTerms(again, []byte(text), termTable(text))
	if _, ok := idx.Terms(again, []string{"idle"}); !ok {
		t.Error("Terms missed a refused file put twice")
	}
	idx.Forget(again.Abs)
	if _, ok := idx.Terms(again, []string{"idle"}); ok || inner.forgets != 1 {
		t.Errorf("after Forget: answered %v, the index forgot %d times; want a miss and 1", ok, inner.forgets)
	}

	// A file put before the index wrote it (a background flush): once
	// the index answers for it, the memo holds nothing of it, its table
	// or its first put.
	late, once := write("e.go", text, time.Hour), write("f.go", text, time.Hour)
	idx.PutTerms(late, []byte(text), termTable(text))
	idx.PutTerms(late, []byte(text), termTable(text))
	idx.PutTerms(once, []byte(text), termTable(text))
	mt := idx.(*missedTerms)
	before := mt.postings
	inner.stored[late.Abs], inner.stored[once.Abs] = true, true
	for _, f := range []collector.FileRef{late, once} {
		if _, ok := idx.Terms(f, []string{"idle"}); !ok {
			t.Errorf("%s: Terms missed a file the index stored", f.Path)
		}
		if _, held := mt.m[f.Abs]; held {
			t.Errorf("%s: the memo still holds a file the index answers for", f.Path)
		}
	}
	if mt.postings >= before {
		t.Errorf("postings %d after the index stored a kept table, %d before", mt.postings, before)
	}

	if _, ok := MissedTerms(&setRefusingIndex{}).(SetIndex); !ok {
		t.Error("MissedTerms of a SetIndex is not a SetIndex")
	}
	if _, ok := MissedTerms(inner).(SetIndex); ok {
		t.Error("MissedTerms of a plain index claims to keep sets")
	}
}

// TestRekeyOnNewWalk: a running server's KeptTerms over MissedTerms, asked
// with a new walk's path strings (equal, elsewhere in memory), answers as
// before and holds the new strings as keys, both memos, so that the old
// walk's strings can go.
func TestRekeyOnNewWalk(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	text := "serverClose idle idle timeout"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	idx := KeptTerms(MissedTerms(&setRefusingIndex{refusingIndex{stored: map[string]bool{}}})) // as the MCP server wraps its index
	walk := func() collector.FileRef { return collector.FileRef{Abs: strings.Clone(p), Path: "a.go", Info: fi} }
	first := walk()
	idx.PutTerms(first, []byte(text), termTable(text))
	idx.PutTerms(first, []byte(text), termTable(text)) // refused by the index: kept by MissedTerms
	terms, index := []string{"idle", "timeout"}, map[string]int{"idle": 0, "timeout": 1}
	keyAt := func(what string, want collector.FileRef) {
		t.Helper()
		kt := idx.(keptTermsSet).keptTerms
		mt := kt.FileIndex.(missedTermsSet).missedTerms
		for k := range kt.files {
			if unsafe.StringData(k) != unsafe.StringData(want.Abs) {
				t.Errorf("%s: KeptTerms holds another string than the last walk's", what)
			}
		}
		for k := range mt.m {
			if unsafe.StringData(k) != unsafe.StringData(want.Abs) {
				t.Errorf("%s: MissedTerms holds another string than the last walk's", what)
			}
		}
	}
	for round, f := range []collector.FileRef{first, first, walk(), walk()} {
		row := make([]uint16, 2)
		if !termRow(idx, f, terms, index, row) || row[0] != 2 || row[1] != 1 {
			t.Fatalf("walk %d: row %v, want [2 1]", round, row)
		}
		keyAt(fmt.Sprintf("walk %d", round), f)
	}
}
