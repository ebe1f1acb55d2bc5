package pack

import (
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// spanCounter lets the chunker count a file once and take the counts of
// its chunks from that pass where their borders are safe points
// ([tokenizer.CountSpans]); the counts, and so the chunks, are exactly
// those of counting each chunk.
type spanCounter struct{ tok tokenizer.Tokenizer }

// CountSpans implements [chunker.SpanCounter].
func (s spanCounter) CountSpans(src string) chunker.Spans {
	if sp := tokenizer.CountSpans(s.tok, src); sp != nil {
		return sp
	}
	return nil
}
