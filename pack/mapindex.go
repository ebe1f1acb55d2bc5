package pack

import (
	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// SetIndex is what a [FileIndex] may also keep (package index implements
// it): lists of a file's facts stored as chunks under a key, beside its
// chunkings — its outline ranges (outline.go) and what a map needs of it
// without its text (repomap.go).
type SetIndex interface {
	// PutSet stores set, computed from content (the text of f), for key.
	PutSet(f collector.FileRef, content []byte, key string, set []chunker.Chunk)
	// Set returns the set stored for key and this content; false on a
	// miss. The caller checks it against the text.
	Set(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool)
	// StatSets returns the sets of keys stored for the text f's stat
	// vouches for, without that text; false unless every key has one.
	StatSets(f collector.FileRef, keys []string) ([][]chunker.Chunk, bool)
}

// outlineKey names the outline ranges of a file in the index (the
// index's version covers what chunker.Outline makes of its probe).
const outlineKey = "outline\x00v1"

// setIndex returns the engine's index as a SetIndex, nil when it has none
// or the index keeps no sets.
func (p *pipeline) setIndex() SetIndex {
	if p.e.Index == nil {
		return nil
	}
	si, _ := p.e.Index.(SetIndex)
	return si
}

// indexedOutline returns the outline ranges of text (the file f) stored in
// the index, checked against the text: in line order, apart, within its
// lines. false on a miss or a set that fails the check.
func indexedOutline(si SetIndex, f collector.FileRef, text *budget.Text) ([]chunker.LineRange, bool) {
	set, ok := si.Set(f, []byte(text.String()), outlineKey)
	if !ok {
		return nil, false
	}
	return outlineRanges(set, text.Lines())
}

// outlineRanges turns a stored set back into outline ranges, checked
// against a text of n lines.
func outlineRanges(set []chunker.Chunk, n int) ([]chunker.LineRange, bool) {
	if len(set) == 0 {
		return nil, true // a file without an outline
	}
	rs := make([]chunker.LineRange, len(set))
	prev := 0
	for i, c := range set {
		if c.StartLine <= prev || c.EndLine < c.StartLine || c.EndLine > n {
			return nil, false
		}
		rs[i] = chunker.LineRange{Start: c.StartLine, End: c.EndLine}
		prev = c.EndLine
	}
	return rs, true
}

// outlineSet is rs as a set to store.
func outlineSet(rs []chunker.LineRange) []chunker.Chunk {
	set := make([]chunker.Chunk, len(rs))
	for i, r := range rs {
		set[i] = chunker.Chunk{StartLine: r.Start, EndLine: r.End}
	}
	return set
}
