package chunker

// SpanCounter is an optional, faster way to count for [Split] (set in
// [Options.Spans]): it counts a whole source once and then gives the count
// of a run of its lines without counting that run again. It must agree with
// the [Counter] exactly on every span it answers; the chunks are then the
// same as with the Counter alone. budget/tokenizer's CountSpans is one.
type SpanCounter interface {
	// CountSpans counts src once; it returns nil when it cannot help (every
	// span then goes to the Counter).
	CountSpans(src string) Spans
}

// Spans gives the token counts of runs of one source.
//
// The offsets p at which Count(p, p) answers (besides 0 and len(src)) are
// its cut points, and each must be one for the Counter in every run that
// holds it: a line start such that, for any run [a, b) of src with a < p
// and the first character of p's line other than a space or tab before b,
// the count of [a, b) is the count of [a, p) plus the count of [p, b).
// (budget/tokenizer's points are such: its rule looks at the newlines
// before p and that line's first character, both inside such a run.) A
// run whose ends are not cut points is then counted as the runs before
// its first cut point and after its last one, plus the spans between.
type Spans interface {
	// Count returns the tokens of src[start:end] and true, or false when
	// this span must be counted directly.
	Count(start, end int) (int, bool)
}

// spanCount returns the count of the bytes [start, end) of the layout's
// source (the lines from the one starting at start to the one ending at
// end) from its spans, if it has them and they can answer: whole when
// both ends are cut points, else the spans between the run's outermost
// cut points and the Counter on the bytes outside them.
func (l *layout) spanCount(start, end int) (int, bool) {
	if l.spans == nil {
		return 0, false
	}
	if n, ok := l.spans.Count(start, end); ok {
		return n, true
	}
	lo, hi := start, end
	if _, ok := l.spans.Count(start, start); !ok {
		if lo = l.innerCut(start, end, 1); lo < 0 {
			return 0, false
		}
	}
	if _, ok := l.spans.Count(end, end); !ok {
		if hi = l.innerCut(start, end, -1); hi < 0 {
			return 0, false
		}
	}
	mid, ok := l.spans.Count(lo, hi)
	if !ok {
		return 0, false
	}
	return l.countBytes(start, lo) + mid + l.countBytes(hi, end), true
}

// innerCut returns the first (dir 1) or last (dir -1) cut point p of the
// spans with start < p < end whose line's first character other than a
// space or tab lies before end, or -1 when there is none.
func (l *layout) innerCut(start, end, dir int) int {
	first, last := l.li.span(start, end)
	i, stop := first+1, last+1
	if dir < 0 {
		i, stop = last, first
	}
	for ; i != stop; i += dir {
		p := l.li.start(i)
		if p <= start || p >= end {
			continue
		}
		if _, ok := l.spans.Count(p, p); ok && l.lineBody(p) < end {
			return p
		}
	}
	return -1
}

// lineBody returns the offset of the first character other than a space
// or tab of the line starting at p (len(src) when there is none).
func (l *layout) lineBody(p int) int {
	src := l.li.src
	for p < len(src) && (src[p] == ' ' || src[p] == '\t') {
		p++
	}
	return p
}

// countBytes counts the bytes [start, end) of the layout's source with
// the Counter (0 for an empty run).
func (l *layout) countBytes(start, end int) int {
	if start >= end {
		return 0
	}
	if l.text != "" {
		return l.count(l.text[start:end])
	}
	return l.count(string(l.li.src[start:end]))
}
