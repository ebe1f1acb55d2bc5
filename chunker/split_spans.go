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
type Spans interface {
	// Count returns the tokens of src[start:end] and true, or false when
	// this span must be counted directly.
	Count(start, end int) (int, bool)
}

// spanCount returns the count of the bytes [start, end) of the layout's
// source from its spans, if it has them and they can answer.
func (l *layout) spanCount(start, end int) (int, bool) {
	if l.spans == nil {
		return 0, false
	}
	return l.spans.Count(start, end)
}
