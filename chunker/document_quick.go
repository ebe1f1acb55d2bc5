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
// count and opts must be those of the update. It is [Document.PrepareSettle],
// [Settling.Run] and [Document.FinishSettle] in one.
func (d *Document) Settle(ctx context.Context, count Counter, opts Options) ([]Chunk, bool, error) {
	st := d.PrepareSettle()
	if st == nil {
		return nil, false, nil
	}
	chunks, err := st.Run(ctx, count, opts)
	if err != nil {
		return nil, false, err
	}
	return chunks, d.FinishSettle(st), nil
}

// Settling is the whole parse that settles a provisional document, run
// apart from it: [Document.PrepareSettle] takes what it needs (the text,
// a copy of the kept tree, the chunk counts), [Settling.Run] parses
// without the document — so a caller need not hold the document's lock
// while it runs, and a newer update is never kept waiting — and
// [Document.FinishSettle] installs the result if the document's text is
// still the one settled.
type Settling struct {
	text string
	tmp  *Document // the document the whole parse runs on
}

// PrepareSettle returns the settling of the document's provisional
// chunks; nil when they are exact.
func (d *Document) PrepareSettle() *Settling {
	if !d.provisional || d.so == nil || d.g == nil {
		return nil
	}
	tmp := &Document{path: d.path, lang: d.lang, g: d.g, so: d.so, text: d.text, provisional: true,
		counts: append([]countedSpan(nil), d.counts...)}
	if d.tree != nil {
		tmp.tree = d.tree.Copy()
	}
	return &Settling{text: d.text, tmp: tmp}
}

// Run parses the settled text whole and returns its chunks (those of
// [Split]); count and opts must be those of the document's updates.
func (st *Settling) Run(ctx context.Context, count Counter, opts Options) ([]Chunk, error) {
	if count == nil {
		return nil, fmt.Errorf("chunker: settle %s: nil counter", st.tmp.path)
	}
	l := newLayout(ctx, bytesOf(st.text), count, opts)
	l.text = st.text
	l.known = st.tmp.knownCounts(st.text)
	chunks, err := st.tmp.whole(ctx, l, st.text)
	if err != nil {
		st.tmp.Close()
		return nil, err
	}
	st.tmp.keep(st.text, chunks)
	return chunks, nil
}

// FinishSettle installs a run settling when the document is still at the
// text settled and still provisional, and reports whether it did; a
// settling not installed is freed.
func (d *Document) FinishSettle(st *Settling) bool {
	if st.tmp.items == nil || !d.provisional || d.text != st.text {
		st.tmp.Close()
		return false
	}
	d.closeTree()
	d.tree, d.items, d.counts, d.provisional = st.tmp.tree, st.tmp.items, st.tmp.counts, false
	st.tmp.tree = nil
	return true
}

// Provisional reports whether the chunks of the last update may differ
// from a whole parse's ([Document.UpdateQuick]).
func (d *Document) Provisional() bool { return d.provisional }

// Discard frees a settling that will not be installed.
func (st *Settling) Discard() { st.tmp.Close() }
