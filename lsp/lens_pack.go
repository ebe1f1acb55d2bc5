package lsp

import (
	"context"
	"fmt"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// packChunks returns the chunks a pack cuts doc's text into (opts: the
// engine's chunk options), kept incrementally like the lens chunks: a
// second chunker.Document per open file, so that the what-if computation
// of a new version re-parses a window around the edit instead of
// splitting the whole file again (issue 24). ok is false when the state
// is closed.
func (c *lensCache) packChunks(ctx context.Context, doc *document, tok tokenizer.Tokenizer, opts chunker.Options) (chunks []chunker.Chunk, ok bool, err error) {
	c.mu.Lock()
	st := c.m[doc.URI]
	c.mu.Unlock()
	if st == nil {
		return nil, false, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return nil, false, nil
	}
	enc := tok.Encoding()
	if st.pcd == nil {
		st.pcd = chunker.NewDocument(st.path)
	} else if st.penc != enc || st.popts != opts {
		st.pcd.Close() // its counts or cuts are of other options
	}
	st.penc, st.popts = enc, opts
	chunks, err = st.pcd.UpdateText(ctx, doc.Text, tok.Count, opts)
	if err != nil {
		return nil, false, fmt.Errorf("lsp: chunk %s: %w", doc.URI, err)
	}
	return chunks, true, nil
}
