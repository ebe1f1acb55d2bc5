package index

import (
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// TestIndexAsThroughMemos: a running MCP server puts its memos in front of
// the Set (pack.KeptTerms over pack.MissedTerms); what the Set does besides
// pack.FileIndex (a search's filter, refused files, clean texts) is still
// found through them, so the server's search and reads use the index as
// the CLI's do.
func TestIndexAsThroughMemos(t *testing.T) {
	root := t.TempDir()
	set := openSet(t, root, t.TempDir())
	defer set.Close()
	memo := pack.KeptTerms(pack.MissedTerms(set))
	if _, ok := memo.(collector.SearchIndex); ok {
		t.Fatal("the memo itself answers searches: this test no longer tests unwrapping")
	}
	if si, ok := pack.IndexAs[collector.SearchIndex](memo); !ok || si != collector.SearchIndex(set) {
		t.Errorf("IndexAs[SearchIndex] = %v, %v; want the set", si, ok)
	}
	if r, ok := pack.IndexAs[collector.RefusedFiles](memo); !ok || r != collector.RefusedFiles(set) {
		t.Errorf("IndexAs[RefusedFiles] = %v, %v; want the set", r, ok)
	}
	if c, ok := pack.IndexAs[collector.CleanTexts](memo); !ok || c != collector.CleanTexts(set) {
		t.Errorf("IndexAs[CleanTexts] = %v, %v; want the set", c, ok)
	}
	if _, ok := pack.IndexAs[collector.SearchIndex](nil); ok {
		t.Error("IndexAs of no index found one")
	}
}
