package chunker

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/acode-lsp/acode-lsp/internal/golden"
)

// quarter is the test counter: a token per four bytes, rounded up.
func quarter(s string) int { return (len(s) + 3) / 4 }

// span is the comparable part of a chunk.
type span struct {
	Start, End int
	Kind, Name string
	Top        bool
}

func spans(cs []Chunk) []span {
	out := []span{}
	for _, c := range cs {
		out = append(out, span{c.StartLine, c.EndLine, c.Kind, c.Name, c.TopLevel})
	}
	return out
}

// checkChunks reports every broken invariant of chunks of src.
func checkChunks(t *testing.T, src []byte, cs []Chunk, count Counter, opts Options) {
	t.Helper()
	opts = opts.withDefaults()
	li := newLineIndex(src)
	if cs == nil {
		t.Fatalf("chunks are nil, want a (possibly empty) slice")
	}
	if li.count() == 0 {
		if len(cs) != 0 {
			t.Fatalf("empty source gave %d chunks", len(cs))
		}
		return
	}
	if len(cs) == 0 {
		t.Fatalf("no chunks for %d lines", li.count())
	}
	next := 1
	for i, c := range cs {
		if c.StartLine != next || c.EndLine < c.StartLine || c.EndLine > li.count() {
			t.Fatalf("chunk %d covers lines %d-%d, want it to start at %d and end by %d", i, c.StartLine, c.EndLine, next, li.count())
		}
		next = c.EndLine + 1
		if c.StartByte != li.start(c.StartLine-1) || c.EndByte != li.end(c.EndLine-1) {
			t.Errorf("chunk %d bytes %d-%d, want whole lines %d-%d", i, c.StartByte, c.EndByte, li.start(c.StartLine-1), li.end(c.EndLine-1))
		}
		if c.Content != string(src[c.StartByte:c.EndByte]) {
			t.Errorf("chunk %d content is not src[%d:%d]", i, c.StartByte, c.EndByte)
		}
		if n := count(c.Content); c.Tokens != n {
			t.Errorf("chunk %d tokens %d, want %d", i, c.Tokens, n)
		}
		if c.Kind == "" {
			t.Errorf("chunk %d has no kind", i)
		}
		single := c.StartLine == c.EndLine
		if c.Tokens > opts.MaxTokens && !(c.Oversize && single) {
			t.Errorf("chunk %d (lines %d-%d) has %d tokens > max %d and is not a single oversize line", i, c.StartLine, c.EndLine, c.Tokens, opts.MaxTokens)
		}
		if c.Oversize && (!single || c.Tokens <= opts.MaxTokens) {
			t.Errorf("chunk %d flagged oversize with %d lines and %d tokens", i, c.EndLine-c.StartLine+1, c.Tokens)
		}
		if i > 0 && !opts.NoMerge {
			p := cs[i-1]
			if p.Tokens < opts.MinTokens && c.Tokens < opts.MinTokens && count(p.Content+c.Content) <= opts.MaxTokens {
				t.Errorf("chunks %d and %d are both under min %d and fit max together: not merged", i-1, i, opts.MinTokens)
			}
		}
	}
	if next != li.count()+1 {
		t.Fatalf("chunks end at line %d of %d", next-1, li.count())
	}
}

// goldenOptions reads "key: value" lines of a txtar comment.
func goldenOptions(t *testing.T, comment []byte) Options {
	t.Helper()
	opts := Options{PreferStructural: true}
	for _, line := range strings.Split(strings.TrimSpace(string(comment)), "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		var err error
		switch k {
		case "max":
			opts.MaxTokens, err = strconv.Atoi(v)
		case "min":
			opts.MinTokens, err = strconv.Atoi(v)
		case "structural":
			opts.PreferStructural, err = strconv.ParseBool(v)
		case "merge":
			var merge bool
			merge, err = strconv.ParseBool(v)
			opts.NoMerge = !merge
		default:
			err = fmt.Errorf("unknown option %q", k)
		}
		if err != nil {
			t.Fatalf("options: %v", err)
		}
	}
	return opts
}

// formatChunks renders chunks one per line for golden files.
func formatChunks(cs []Chunk) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d-%d %s %q tokens=%d", c.StartLine, c.EndLine, c.Kind, c.Name, c.Tokens)
		if c.TopLevel {
			b.WriteString(" top")
		}
		if c.Oversize {
			b.WriteString(" oversize")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestGolden chunks each testdata/golden/*.txtar input (the first file; its
// name gives the language) with the options of the archive comment, with and
// without merging, and compares with the want and want-nomerge sections.
// Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/golden/*.txtar", func(t *testing.T, c *golden.Case) {
		ar := c.Archive
		in := ar.Files[0]
		opts := goldenOptions(t, ar.Comment)
		noMerge := opts
		noMerge.NoMerge = true
		got := map[string]string{}
		for name, o := range map[string]Options{"want": opts, "want-nomerge": noMerge} {
			cs, err := Split(context.Background(), in.Name, in.Data, quarter, o)
			if err != nil {
				t.Fatal(err)
			}
			checkChunks(t, in.Data, cs, quarter, o)
			got[name] = formatChunks(cs)
		}
		c.Check(t, in.Name, got)
		if !golden.Update() && len(ar.Files) != 3 {
			t.Errorf("archive has %d files, want input, want and want-nomerge (run with -update)", len(ar.Files))
		}
	})
}

// TestSplitDeterministic chunks every golden input twice.
func TestSplitDeterministic(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		in := ar.Files[0]
		t.Run(in.Name, func(t *testing.T) {
			opts := goldenOptions(t, ar.Comment)
			a, err1 := Split(context.Background(), in.Name, in.Data, quarter, opts)
			b, err2 := Split(context.Background(), in.Name, bytes.Clone(in.Data), quarter, opts)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("second run differs (-first +second):\n%s", diff)
			}
		})
	}
}

func TestSplitErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := []byte("package p\n\nfunc F() {}\n")
	tests := []struct {
		name  string
		ctx   context.Context
		path  string
		count Counter
		opts  Options
	}{
		{"cancelled structural", ctx, "p.go", quarter, Options{PreferStructural: true}},
		{"cancelled lines", ctx, "p.txt", quarter, Options{}},
		{"nil counter", context.Background(), "p.go", nil, Options{PreferStructural: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := Split(tt.ctx, tt.path, src, tt.count, tt.opts)
			if err == nil || cs != nil {
				t.Fatalf("Split = %d chunks, %v; want nil and an error", len(cs), err)
			}
			if !strings.HasPrefix(err.Error(), "chunker: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestOptionsDefaults(t *testing.T) {
	tests := []struct {
		in, want Options
	}{
		{Options{}, Options{MaxTokens: 2000, MinTokens: 100}},
		{Options{MaxTokens: -1, MinTokens: -5, NoMerge: true}, Options{MaxTokens: 2000, MinTokens: 100, NoMerge: true}},
		{Options{MaxTokens: 50}, Options{MaxTokens: 50, MinTokens: 50}},
		{Options{MaxTokens: 500, MinTokens: 20, PreferStructural: true}, Options{MaxTokens: 500, MinTokens: 20, PreferStructural: true}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.in), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.in.withDefaults()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
