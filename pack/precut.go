package pack

import "github.com/acode-lsp/acode-lsp/chunker"

// ChunkOptions returns the options a pack with query cuts a walked or open
// file with (without the span counter, which changes how chunks are
// counted, not what they are): a front end that keeps a file's chunks
// incrementally (chunker.Document) cuts them with these and hands them to
// [Engine.PutChunks].
func (e *Engine) ChunkOptions(query string) chunker.Options {
	ch := e.cfg.Context.Chunking
	return chunker.Options{MaxTokens: rankedChunkTokens(ch.MaxChunkTokens, query, e.Ablate), MinTokens: ch.MinChunkTokens,
		PreferStructural: ch.PreferStructural, NoMerge: ch.MinChunkTokens == 0}
}

// PutChunks gives the engine the chunks of content (the text of the file
// shown as path, as a pack reads it) cut with opts ([Engine.ChunkOptions])
// and counted under encoding, as chunker.Split would cut them: a pack that
// reads the same text takes them instead of splitting it again (the
// language server's what-if lenses, whose open documents change by a
// keystroke). A text that differs in anything (redaction, a byte order
// mark) misses and is split as usual. Counts that are not exact are not
// kept, as the pack keeps none.
func (e *Engine) PutChunks(path, content string, opts chunker.Options, encoding string, exact bool, chunks []chunker.Chunk) {
	if !exact {
		return
	}
	slim := make([]chunker.Chunk, len(chunks))
	for i, ch := range chunks {
		ch.Content = "" // re-cut from the text on a hit
		slim[i] = ch
	}
	e.chunks.Add(chunkKey(path, content, opts, encoding), slim)
}
