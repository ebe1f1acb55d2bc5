package index

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func testCounts(t *testing.T) (func() *countStore, string) {
	t.Helper()
	dir := t.TempDir()
	x := openTest(t, t.TempDir(), dir)
	mu := &sync.Mutex{}
	return func() *countStore { return &countStore{x: x, mu: mu} }, filepath.Join(dir, countsName)
}

// TestTextCountsRoundTrip: a count comes back, in a later store (a later
// pack), under the key of its id and text only; past maxCounts the counts
// put longest ago go; the file holds no text; a file altered anywhere or
// cut short is ignored; clearing the cache removes the file.
func TestTextCountsRoundTrip(t *testing.T) {
	if !IsFileName(countsName) {
		t.Fatalf("%s is not one of the index's file names: clear-cache would leave it", countsName)
	}
	store, p := testCounts(t)
	cs := store()
	k := cs.TextKey("prog\x00o200k_base", "the packed text")
	if _, ok := cs.Count(k); ok {
		t.Fatal("a count without a file")
	}
	cs.PutCounts(map[[32]byte]int{k: 1234})
	if n, ok := store().Count(k); !ok || n != 1234 {
		t.Fatalf("count = %d, %v; want 1234", n, ok)
	}
	for _, other := range [][2]string{{"prog\x00cl100k_base", "the packed text"}, {"prog\x00o200k_base", "the packed text."}, {"prog\x00o200k_base\x00the packed text", ""}} {
		if _, ok := store().Count(cs.TextKey(other[0], other[1])); ok {
			t.Errorf("a count for id %q, text %q", other[0], other[1])
		}
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("packed text")) {
		t.Error("the counts file holds the text")
	}
	for _, bad := range [][]byte{
		append(append([]byte{}, raw[:40]...), append([]byte{raw[40] ^ 1}, raw[41:]...)...),
		raw[:len(raw)-1],
	} {
		if err := os.WriteFile(p, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := store().Count(k); ok {
			t.Error("a count from an altered file")
		}
	}
	store().PutCounts(map[[32]byte]int{k: 1234})
	for i := 0; i < maxCounts; i++ {
		store().PutCounts(map[[32]byte]int{cs.TextKey("id", string(rune('a'+i%26))+string(rune('a'+i/26))): i})
	}
	if _, ok := store().Count(k); ok {
		t.Errorf("%d counts kept, want at most %d", maxCounts+1, maxCounts)
	}
	if n, ok := store().Count(cs.TextKey("id", string(rune('a'+(maxCounts-1)%26))+string(rune('a'+(maxCounts-1)/26)))); !ok || n != maxCounts-1 {
		t.Errorf("the last count = %d, %v", n, ok)
	}
}
