package pack

import (
	"errors"
	"fmt"
	"sort"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Request limits (issue 15, docs/security.md "Limits"). A request is
// untrusted input: thousands of sources naming one large file, or a walk of
// a huge tree, must end in a clear error, not in gigabytes of memory.
const (
	// MaxSources is the largest number of explicit sources in one request
	// (a "find references" answer for a common symbol has a few thousand).
	MaxSources = 10000
	// MaxBytesRead is the most source text one request may gather: the
	// distinct files read (each counted once, however many sources name
	// it), the files walked, the files a search matches, and the content
	// sent inline.
	MaxBytesRead = 256 << 20
	// MaxCandidates is the largest number of chunk candidates one request
	// may rank, deduplicate and select from.
	MaxCandidates = 200000
)

// limits are the limits in force; tests lower them.
var limits = struct{ sources, bytes, candidates int64 }{MaxSources, MaxBytesRead, MaxCandidates}

// limitError is the error of an exceeded limit: ACODE-CTX-001 with the
// limit's name and value in data, so a client can react without parsing
// the message.
func limitError(name string, limit, got int64, what, fix string) *Error {
	return &Error{
		Code:    errcode.PackFailed,
		Message: fmt.Sprintf("request limit %s exceeded: %s (%d) is over the limit of %d; %s", name, what, got, limit, fix),
		Data:    map[string]any{"limit": name, "max": limit, "value": got},
	}
}

// walkLimit turns the collector's walk limit into the request's
// maxBytesRead error; nil for other errors.
func walkLimit(err error) *Error {
	var we *collector.WalkLimitError
	if !errors.As(err, &we) {
		return nil
	}
	return limitError("maxBytesRead", we.Max, we.Size, "the text of the files walked or matched by the search, in bytes,", "walk fewer paths, or exclude generated and vendored files with context.exclude")
}

// checkSourceCount refuses a request with more than MaxSources sources
// (-32602 naming the field).
func checkSourceCount(n int) error {
	if int64(n) <= limits.sources {
		return nil
	}
	return &ParamError{Field: "sources", Message: fmt.Sprintf("has %d entries, over the limit of %d per request (maxSources); send the most relevant ones, or one source per file with a wider range", n, limits.sources)}
}

// readKey identifies one read of a file within a request.
type readKey struct {
	t    collector.SourceType
	path string
}

// readResult is a cached collector read.
type readResult struct {
	src  collector.Source
	excl *collector.Exclusion
}

// readOnce reads path through the collector once per request and source
// type: later sources naming the same file share its text (and its
// exclusion) instead of reading, redacting and holding it again.
func (p *pipeline) readOnce(t collector.SourceType, path string) (collector.Source, *collector.Exclusion) {
	k := readKey{t, path}
	if r, ok := p.reads[k]; ok {
		return r.src, r.excl
	}
	s, excl := p.e.ws.Read(p.ctx, t, path)
	if p.reads == nil {
		p.reads = map[readKey]readResult{}
	}
	p.reads[k] = readResult{s, excl}
	return s, excl
}

// textKey identifies a string by its backing array: sources that share a
// text (same file read once) share its line index and bytes.
type textKey struct {
	data *byte
	n    int
}

func keyOf(s string) textKey { return textKey{unsafe.StringData(s), len(s)} }

// chargeBytes adds the text of the sources that are not yet counted to the
// request's total and fails once it passes MaxBytesRead.
func (p *pipeline) chargeBytes(srcs []source) error {
	if p.charged == nil {
		p.charged = map[textKey]bool{}
	}
	for _, s := range srcs {
		k := keyOf(s.Content)
		if p.charged[k] {
			continue
		}
		p.charged[k] = true
		p.bytesRead += int64(len(s.Content))
	}
	if p.bytesRead > limits.bytes {
		return limitError("maxBytesRead", limits.bytes, p.bytesRead, "the source text this request gathers, in bytes,", "name fewer or smaller files, narrow the paths walked, or exclude generated files with context.exclude")
	}
	return nil
}

// maxRangesPerText is how many ranged sources of one type may name one
// text before they are coalesced: past it, ranges that overlap or touch
// become their union (highest relevance, latest time), so a request with
// thousands of references into one file costs what their union costs
// instead of thousands of overlapping chunks to merge one by one.
const maxRangesPerText = 32

// coalesceRanges merges the overlapping or adjacent ranged sources of one
// type and text when there are more than maxRangesPerText of them. Other
// sources, and texts with few ranges, are returned as they are (the dedup
// of rule 6 handles them); order is kept (a merged group takes the place of
// its first member).
func coalesceRanges(srcs []source) []source {
	type groupKey struct {
		t collector.SourceType
		k textKey
	}
	groups := map[groupKey][]int{}
	for i, s := range srcs {
		if s.ranged {
			g := groupKey{s.Type, keyOf(s.Content)}
			groups[g] = append(groups[g], i)
		}
	}
	drop := map[int]bool{}
	replace := map[int]source{}
	for _, idx := range groups {
		if len(idx) > maxRangesPerText {
			coalesceGroup(srcs, idx, drop, replace)
		}
	}
	if len(drop) == 0 {
		return srcs
	}
	out := srcs[:0:0]
	for i, s := range srcs {
		if r, ok := replace[i]; ok {
			out = append(out, r)
			continue
		}
		if drop[i] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// coalesceGroup merges the ranged sources srcs[i], i in idx (one type and
// text), in line order: each is marked in drop, and each union is put in
// replace at the index of its first member.
func coalesceGroup(srcs []source, idx []int, drop map[int]bool, replace map[int]source) {
	sorted := append([]int(nil), idx...)
	sort.Slice(sorted, func(a, b int) bool {
		sa, sb := srcs[sorted[a]], srcs[sorted[b]]
		if sa.StartLine != sb.StartLine {
			return sa.StartLine < sb.StartLine
		}
		return sorted[a] < sorted[b]
	})
	cur, first := srcs[sorted[0]], sorted[0]
	drop[first] = true
	for _, i := range sorted[1:] {
		s := srcs[i]
		drop[i] = true
		if cur.EndLine > 0 && s.StartLine <= cur.EndLine+1 {
			widenRange(&cur, s)
			first = min(first, i)
			continue
		}
		replace[first] = cur
		cur, first = s, i
	}
	replace[first] = cur
}

// widenRange extends cur, which s overlaps or touches, to their union:
// the later end (0 is to the end of the text), the higher relevance and
// the later time.
func widenRange(cur *source, s source) {
	if s.EndLine == 0 || s.EndLine > cur.EndLine {
		cur.EndLine = s.EndLine
	}
	if s.Relevance != nil && (cur.Relevance == nil || *s.Relevance > *cur.Relevance) {
		cur.Relevance = s.Relevance
	}
	if s.Timestamp.After(cur.Timestamp) {
		cur.Timestamp = s.Timestamp
	}
}
