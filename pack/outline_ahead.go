package pack

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// aheadOutlines keeps the outline ranges of the files a map's cut parsed
// (chunker.SplitOutline), so that the map's outlines (mapOutlines) take
// them from that parse instead of parsing their files again: on a cold
// map of net/http the second parse of the outlined files was a quarter
// of the CPU (issue 24). Each file's ranges are kept varint-coded with a
// hash of the text they were found in, a few bytes a declaration; an
// entry is used only for the same path and text.
type aheadOutlines struct {
	seed maphash.Seed
	mu   sync.Mutex
	m    map[string]aheadOutline // by path
}

// aheadOutline is one file's entry: the hash of its text and its ranges
// (encodeRanges).
type aheadOutline struct {
	hash   uint64
	ranges string
}

// newAheadOutlines returns an empty store.
func newAheadOutlines() *aheadOutlines {
	return &aheadOutlines{seed: maphash.MakeSeed(), m: map[string]aheadOutline{}}
}

// put keeps the outline ranges rs of path's text content; safe for
// concurrent use.
func (a *aheadOutlines) put(path, content string, rs []chunker.LineRange) {
	e := aheadOutline{hash: maphash.String(a.seed, content), ranges: encodeRanges(rs)}
	a.mu.Lock()
	a.m[path] = e
	a.mu.Unlock()
}

// get returns the outline ranges kept for path's text content; false
// when none are kept for this text.
func (a *aheadOutlines) get(path, content string) ([]chunker.LineRange, bool) {
	a.mu.Lock()
	e, ok := a.m[path]
	a.mu.Unlock()
	if !ok || e.hash != maphash.String(a.seed, content) {
		return nil, false
	}
	return decodeRanges(e.ranges)
}

// encodeRanges codes sorted, disjoint line ranges as varints: per range,
// its start less the previous end, and its length less one.
func encodeRanges(rs []chunker.LineRange) string {
	buf := make([]byte, 0, 3*len(rs))
	end := 0
	for _, r := range rs {
		buf = binary.AppendUvarint(buf, uint64(r.Start-end))
		buf = binary.AppendUvarint(buf, uint64(r.End-r.Start))
		end = r.End
	}
	return string(buf)
}

// decodeRanges reverses encodeRanges; false on a malformed coding (nil
// ranges decode from an empty one).
func decodeRanges(s string) ([]chunker.LineRange, bool) {
	var rs []chunker.LineRange
	b := []byte(s)
	end := 0
	for len(b) > 0 {
		gap, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, false
		}
		b = b[n:]
		span, m := binary.Uvarint(b)
		if m <= 0 {
			return nil, false
		}
		b = b[m:]
		start := end + int(gap)
		end = start + int(span)
		rs = append(rs, chunker.LineRange{Start: start, End: end})
	}
	return rs, true
}

// aheadStore is the store the map's cut keeps outlines in: the lean
// map's (kept across its rounds: the texts a round reads again are the
// files its outlines need) or this pipeline's; nil when this pack keeps
// none.
func (p *pipeline) aheadStore() *aheadOutlines {
	if p.lean != nil && p.lean.outlines != nil {
		return p.lean.outlines
	}
	return p.ahead
}

// outlineAhead reports whether a pack of srcs is a map that outlines its
// files (wantsMap, outlines not ablated): its cut keeps the outline of
// every file it parses.
func (p *pipeline) outlineAhead(srcs []source) bool {
	return !p.ablated(featOutline) && p.wantsMap(srcs)
}

// keepOutlines gives a pack of srcs without a lean map (which has its
// own) a store for its cut's outlines when it is a map that outlines.
func (p *pipeline) keepOutlines(srcs []source) {
	if p.lean == nil && p.ahead == nil && p.outlineAhead(srcs) {
		p.ahead = newAheadOutlines()
	}
}
