// Package chunker splits source files into ordered chunks of whole lines
// that each fit a token limit, for packing into LLM prompts.
//
// Start with [Split]: it parses a file with tree-sitter where a grammar exists
// (see [Language]) and yields one chunk per top-level declaration (functions,
// methods, classes, types, import blocks, markdown sections), each with its
// leading doc comment. Containers over half of [Options.MaxTokens] are split
// into their members (methods of a class, subsections of a section, the
// tests of a describe block); other declarations over MaxTokens, and files
// without a grammar, are cut into line pieces of about a quarter of
// MaxTokens at statement and paragraph boundaries. Small neighbours are then
// merged toward [Options.MinTokens]. [SplitLines] cuts an arbitrary line
// range into greedy MaxTokens windows.
//
// The chunks of a file always partition it: every line is in exactly one
// chunk, chunks are in file order, and no chunk starts or ends mid-line.
// [Document] keeps a parsed tree between edits for the language server.
//
// The choices behind the rules (where blank lines go, how parts and merged
// chunks are named) are written down in docs/chunking.md.
package chunker

import (
	"context"
	"fmt"
)

// Counter counts the tokens of a text. The chunker takes it as a function so
// that it does not depend on a tokenizer package.
type Counter func(text string) int

// Default limits used when an [Options] field is zero (or negative).
const (
	DefaultMaxTokens = 2000
	DefaultMinTokens = 100
)

// Options control how a file is chunked. The zero value means: line windows
// only, 2000 tokens at most, merge neighbours under 100 tokens.
type Options struct {
	MaxTokens        int  // default 2000 when 0
	MinTokens        int  // default 100 when 0
	PreferStructural bool // false → line windows only
	// NoMerge turns off merging of small neighbouring chunks. The code lens
	// path sets it (together with a huge MaxTokens) to get exactly one chunk
	// per top-level declaration.
	NoMerge bool
	// Spans, when set, counts a file once for [Split] and answers the
	// counts of its line ranges from that pass where it can (exactly what
	// the Counter would say); the Counter counts the rest. [SplitLines]
	// does not use it (a range of a file is not worth a pass over all of it).
	Spans SpanCounter
}

// withDefaults returns o with zero limits replaced by their defaults and
// MinTokens clamped to MaxTokens.
func (o Options) withDefaults() Options {
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.MinTokens <= 0 {
		o.MinTokens = DefaultMinTokens
	}
	if o.MinTokens > o.MaxTokens {
		o.MinTokens = o.MaxTokens
	}
	return o
}

// Chunk is a run of whole lines of a file.
type Chunk struct {
	StartLine, EndLine int    // 1-based, inclusive, whole lines
	StartByte, EndByte int    // byte offsets in src; EndByte is exclusive and includes the final newline of EndLine if any
	Kind               string // "function", "method", "class", "type", "interface", "struct", "enum", "imports", "package", "section", "module", "lines", ...
	Name               string // symbol name when structural ("(*Service).Checkout", "Service.checkout", heading text), else ""
	TopLevel           bool   // starts or holds a top-level declaration (one code lens per such chunk when merging is off)
	Tokens             int    // Counter(Content)
	Content            string // exactly src[StartByte:EndByte]
	// Oversize is set on a chunk of a single line whose tokens exceed
	// MaxTokens: chunks never end mid-line, so such a line stays whole.
	Oversize bool
}

// Split chunks src (the content of path) into ordered chunks covering every
// line exactly once. The language comes from path (see [Language]); with
// opts.PreferStructural unset, or without a grammar, the file is cut into
// line windows. An empty src yields no chunks. The only errors are a
// cancelled ctx and a nil count.
func Split(ctx context.Context, path string, src []byte, count Counter, opts Options) ([]Chunk, error) {
	chunks, _, _, err := split(ctx, path, src, count, opts, false)
	return chunks, err
}

// SplitOutline is [Split] that also returns src's outline, the ranges
// [Outline] returns, from the same parse: a caller that needs both parses
// the file once. parsed is false when Split did not parse src (no
// grammar, opts.PreferStructural unset, an empty src): the outline is
// then not known (nil) and is [Outline]'s to find.
func SplitOutline(ctx context.Context, path string, src []byte, count Counter, opts Options) (chunks []Chunk, outline []LineRange, parsed bool, err error) {
	return split(ctx, path, src, count, opts, true)
}

// split is [Split], also outlining src when withOutline is set and it
// parses it.
func split(ctx context.Context, path string, src []byte, count Counter, opts Options, withOutline bool) ([]Chunk, []LineRange, bool, error) {
	if count == nil {
		return nil, nil, false, fmt.Errorf("chunker: split %s: nil counter", path)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, false, fmt.Errorf("chunker: split %s: %w", path, err)
	}
	l := newLayout(ctx, src, count, opts)
	if opts.Spans != nil && len(src) > 0 {
		if sp := opts.Spans.CountSpans(string(src)); sp != nil {
			l.spans = sp
		}
	}
	lang := Language(path)
	if !l.opts.PreferStructural || lang == "" || l.li.count() == 0 {
		chunks, err := l.pieceChunks(0, l.li.count()-1)
		return chunks, nil, false, err
	}
	g := grammarFor(lang)
	tree, err := g.parse(ctx, nil, src)
	if err != nil {
		return nil, nil, false, fmt.Errorf("chunker: parse %s: %w", path, err)
	}
	defer tree.Close()
	if !withOutline {
		chunks, err := l.structuralChunks(g, tree.RootNode())
		return chunks, nil, false, err
	}
	o := &outline{li: l.li, src: l.li.src, ctx: ctx, sigs: true, bodies: g.bodyFlags()}
	ds := g.outline(o, tree.RootNode())
	rs := outlineRanges(ctx, ds) // before the layout, which may change ds
	if err := ctx.Err(); err != nil {
		return nil, nil, false, fmt.Errorf("chunker: %w", err)
	}
	chunks, err := l.layoutDecls(ds)
	if err != nil {
		return nil, nil, false, err
	}
	return chunks, rs, true, nil
}

// SplitLines chunks lines startLine..endLine (1-based, inclusive, clamped to
// the file) of src into line windows of at most opts.MaxTokens. It is meant
// for ranges and tool output; it neither parses nor merges.
func SplitLines(src []byte, startLine, endLine int, count Counter, opts Options) []Chunk {
	chunks, _ := SplitLinesContext(context.Background(), src, startLine, endLine, count, opts) // the background context never ends
	return chunks
}

// SplitLinesContext is [SplitLines] for a request: it returns ctx's error
// when ctx ends (checked before each window), so a cancelled request does
// not wait for the token counts of every line of a long range.
func SplitLinesContext(ctx context.Context, src []byte, startLine, endLine int, count Counter, opts Options) ([]Chunk, error) {
	l := newLayout(ctx, src, count, opts)
	first, last := max(startLine, 1)-1, min(endLine, l.li.count())-1
	return l.windowChunks(first, last)
}
