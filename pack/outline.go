package pack

import (
	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// maxOutlineFiles bounds the files whose outline one pack computes: each
// is a second tree-sitter parse on the selection's serial path (on a cold
// pack of a 190K-token repository, uncapped outlines were 17 % of the CPU
// and ~120 ms of wall time), and selection asks in rank order, so the
// files past this many are the ones least likely to matter.
const maxOutlineFiles = 16

// featOutline is the ablation (Engine.Ablate) that switches outlines off.
const featOutline = "outline"

// outliner returns the Outline step of selection (docs/design.md#rule-8): the
// outline of a candidate's file — its declarations' doc comments and
// signatures, from chunker.Outline — as items cut from the file's text,
// counted and marked Outline, with the candidate's score, category and
// source. A file without a grammar or declarations, or whose outline would
// hold more than half of its lines, has none. Outlines are computed once
// per file and pack (selection may run more than once; outlineOf), or once
// per file and [Previews] when p.outlines is set; either way a pack asks
// for at most maxOutlineFiles files.
func (p *pipeline) outliner() func(best *budget.Item) []*budget.Item {
	for _, a := range p.e.Ablate {
		if a == featOutline {
			return nil
		}
	}
	return func(best *budget.Item) []*budget.Item {
		if best.Outline || p.repoMap != nil {
			// A map (repomap.go) chose its outlines among its candidates;
			// the rest of its budget goes to whole chunks.
			return nil
		}
		rs := p.outlineOf(best)
		if len(rs) == 0 {
			return nil
		}
		out := make([]*budget.Item, 0, len(rs))
		for _, r := range rs {
			it := *best
			it.StartLine, it.EndLine = r.Start, r.End
			it.Content = best.Source.Slice(r.Start, r.End)
			it.Tokens = p.tok.Count(it.Content)
			it.Kind, it.Name, it.Outline = "outline", "", true
			out = append(out, &it)
		}
		return out
	}
}

// outlineOf returns the outline ranges of best's file, or nil when it has
// none, it would hold more than half of the file's lines, or the pack has
// parsed maxOutlineFiles files for outlines already (the map's outlines
// and selection's share the bound and the cache).
func (p *pipeline) outlineOf(best *budget.Item) []chunker.LineRange {
	if best.Path == "" || best.Source == nil || chunker.Language(best.Path) == "" || p.ctx.Err() != nil {
		return nil
	}
	rs, ok := p.parsed[best.Source]
	if !ok && len(p.parsed) >= maxOutlineFiles {
		return nil // asked in rank order: the best files had their chance
	}
	if !ok {
		rs, ok = p.outlines[best.Source] // kept across the packs of one Previews
		if !ok {
			var err error
			rs, err = p.parseOutline(best)
			if err == nil && p.outlines != nil {
				p.outlines[best.Source] = rs
			}
		}
		if p.parsed == nil {
			p.parsed = map[*budget.Text][]chunker.LineRange{}
		}
		p.parsed[best.Source] = rs
	}
	lines := 0
	for _, r := range rs {
		lines += r.End - r.Start + 1
	}
	if 2*lines > best.Source.Lines() {
		return nil
	}
	return rs
}

// parseOutline returns the outline ranges of best's file: from the index
// when it holds them for this text, else from chunker.Outline (then
// stored). An error (cancelled) means no outline.
func (p *pipeline) parseOutline(best *budget.Item) ([]chunker.LineRange, error) {
	si := p.setIndex()
	ref, hasRef := p.refs[best.Source]
	if si != nil && hasRef {
		if rs, ok := indexedOutline(si, ref, best.Source); ok {
			return rs, nil
		}
	}
	data := []byte(best.Source.String())
	rs, kept := p.keptOutline(best, data)
	var err error
	if !kept {
		rs, err = p.e.outline(p.ctx, best.Path, data) // an error (cancelled) means no outline
	}
	if err == nil && si != nil && hasRef {
		si.PutSet(ref, data, outlineKey, outlineSet(rs))
	}
	return rs, err
}

// keptOutline returns the outline ranges the cut kept for best's file
// (outline_ahead.go; data is its text), put in the engine's cache as
// Engine.outline would; false when none are kept for this text (nil
// ranges with true: the file has no outline).
func (p *pipeline) keptOutline(best *budget.Item, data []byte) ([]chunker.LineRange, bool) {
	ahead := p.aheadStore()
	if ahead == nil {
		return nil, false
	}
	rs, ok := ahead.get(best.Path, best.Source.String())
	if ok {
		p.e.addOutline(best.Path, data, rs)
	}
	return rs, ok
}
