package chunker

import (
	"context"
	"fmt"
)

// UpdateQuick is [Document.UpdateText] for a caller that can correct its
// answer later (code lenses): where UpdateText parses the whole file
// because the window around the edit has a syntax error, or lies next to
// one, UpdateQuick takes the window parsed alone when it gives back its
// boundary nodes, and reports exact false. Such chunks are the window's
// reading of the error; a whole parse may let the error's recovery reach
// further and cut other chunks there. [Document.Settle] makes them exact.
// Chunks reported exact equal those of [Split].
func (d *Document) UpdateQuick(ctx context.Context, text string, count Counter, opts Options) (chunks []Chunk, exact bool, err error) {
	d.quick = true
	defer func() { d.quick = false }()
	chunks, err = d.UpdateText(ctx, text, count, opts)
	return chunks, !d.provisional, err
}

// Settle re-chunks the text of the last update by a whole parse
// (incremental from the kept tree) when that update was provisional, and
// returns its chunks and true; nil and false when it was exact already.
// count and opts must be those of the update.
func (d *Document) Settle(ctx context.Context, count Counter, opts Options) ([]Chunk, bool, error) {
	if !d.provisional || d.so == nil || d.g == nil {
		return nil, false, nil
	}
	if count == nil {
		return nil, false, fmt.Errorf("chunker: settle %s: nil counter", d.path)
	}
	text := d.text
	l := newLayout(ctx, bytesOf(text), count, opts)
	l.text = text
	l.known = d.knownCounts(text)
	chunks, err := d.whole(ctx, l, text)
	if err != nil {
		d.Close()
		return nil, false, err
	}
	d.keep(text, chunks)
	return chunks, true, nil
}

// Provisional reports whether the chunks of the last update may differ
// from a whole parse's ([Document.UpdateQuick]).
func (d *Document) Provisional() bool { return d.provisional }
