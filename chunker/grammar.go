package chunker

import (
	"context"
	"fmt"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	markdown "github.com/smacker/go-tree-sitter/markdown/tree-sitter-markdown"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// grammar is a tree-sitter language with the rules that outline its files.
type grammar struct {
	lang    *sitter.Language
	outline func(o *outline, root *sitter.Node) []decl
	parsers sync.Pool // *sitter.Parser; parsers are not goroutine safe
	flags   struct {
		once sync.Once
		v    []uint8
	}
}

// bodyFlags returns the flags of the grammar's symbols that findBodyC
// reads (made once).
func (g *grammar) bodyFlags() []uint8 {
	g.flags.once.Do(func() { g.flags.v = bodyFlags(g.lang) })
	return g.flags.v
}

// grammars maps a language id (see [Language]) to its grammar.
var grammars = map[string]*grammar{
	"go":         {lang: golang.GetLanguage(), outline: outlineWith(classifyGo, ".")},
	"python":     {lang: python.GetLanguage(), outline: outlineWith(classifyPython, ".")},
	"javascript": {lang: javascript.GetLanguage(), outline: outlineWith(classifyJS, ".")},
	"typescript": {lang: typescript.GetLanguage(), outline: outlineWith(classifyJS, ".")},
	"tsx":        {lang: tsx.GetLanguage(), outline: outlineWith(classifyJS, ".")},
	"java":       {lang: java.GetLanguage(), outline: outlineWith(classifyJava, ".")},
	"csharp":     {lang: csharp.GetLanguage(), outline: outlineWith(classifyCSharp, ".")},
	"rust":       {lang: rust.GetLanguage(), outline: outlineWith(classifyRust, "::")},
	"c":          {lang: c.GetLanguage(), outline: outlineWith(classifyC, "::")},
	"cpp":        {lang: cpp.GetLanguage(), outline: outlineWith(classifyC, "::")},
	"markdown":   {lang: markdown.GetLanguage(), outline: outlineMarkdown},
}

// grammarFor returns the grammar of a language id, or nil.
func grammarFor(lang string) *grammar { return grammars[lang] }

// parse parses src, reusing old (already edited to match src) when not nil.
// The caller closes the returned tree.
func (g *grammar) parse(ctx context.Context, old *sitter.Tree, src []byte) (*sitter.Tree, error) {
	p, _ := g.parsers.Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		p.SetLanguage(g.lang)
	}
	pctx, finish := guardCancel(ctx)
	tree, err := p.ParseCtx(pctx, old, src)
	if finish() || err != nil {
		// A parser halted by cancellation resumes its old parse on the
		// next call, and its cancel flag may still be raised: drop it.
		p.Close()
	} else {
		g.parsers.Put(p)
	}
	if err != nil {
		return nil, err
	}
	return tree, nil
}

// guardCancel returns a context for Parser.ParseCtx that is cancelled with
// ctx only while the parse runs; finish ends the parse's window and reports
// whether the cancellation was passed on.
//
// Library defect (smacker/go-tree-sitter v0.0.0-20240827094217): ParseCtx
// starts a goroutine that raises the parser's cancel flag when ctx is done,
// racing with the end of the parse. If ctx ends just after the parse, the
// flag stays raised and the parser's next parse fails at once with
// ErrOperationLimit. Here the context seen by ParseCtx is only cancelled
// during the parse, and a parser that saw a cancellation is not reused.
func guardCancel(ctx context.Context) (context.Context, func() bool) {
	if ctx.Done() == nil {
		return ctx, func() bool { return false }
	}
	var mu sync.Mutex
	parsing, passed := true, false
	done, stop := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			if parsing {
				passed = true
				close(done)
			}
			mu.Unlock()
		case <-stop:
		}
	}()
	return doneCtx{ctx, done}, func() bool {
		mu.Lock()
		defer mu.Unlock()
		parsing = false
		close(stop)
		return passed
	}
}

// doneCtx is a context whose Done channel is its own.
type doneCtx struct {
	context.Context
	done chan struct{}
}

func (c doneCtx) Done() <-chan struct{} { return c.done }

// structuralChunks outlines the tree of the layout's source and lays it out.
func (l *layout) structuralChunks(g *grammar, root *sitter.Node) ([]Chunk, error) {
	o := &outline{li: l.li, src: l.li.src, ctx: l.ctx}
	ds := g.outline(o, root)
	if err := l.ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: %w", err)
	}
	return l.layoutDecls(ds)
}
