package pack

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
)

// A custom template (Request.Template, CLI --template) is user-supplied
// code, so its cost is bounded (docs/design.md#rule-10; issue 21: five
// nested {{range $.Files}} over 30 open files ran the language server out
// of memory). Before a template runs on a selection, its range steps are
// bounded from the template's tree and the selection's sizes; while it
// runs, its output is capped and the request's context and a time budget
// are checked at every write. Each limit fails the render with a
// *ParamError naming "template" that says which limit and how to stay
// within it.
const (
	// maxTemplateSteps bounds the range iterations a template may run
	// over one selection (an upper bound computed before it runs).
	maxTemplateSteps = 1_000_000
	// maxTemplateOutput bounds the bytes one render may write.
	maxTemplateOutput = 32 << 20
	// maxRangeLiteral is the largest integer a template may range over.
	maxRangeLiteral = 10_000
)

// templateTimeBudget bounds the wall time of all renders of one pack
// (a variable so that a test can shorten it).
var templateTimeBudget = 10 * time.Second

// parseTemplate parses a custom template and checks what can be checked
// without data: no template calls itself (directly or through others), and
// every range is over .Files, a file's .Segments, or an integer literal of
// at most maxRangeLiteral.
func parseTemplate(text string) (*template.Template, error) {
	t, err := template.New("pack").Parse(text)
	if err != nil {
		return nil, err
	}
	c := &templateCost{t: t, state: map[string]int{}}
	for _, tt := range t.Templates() {
		if tt.Tree == nil {
			continue
		}
		if _, err := c.template(tt.Name()); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// templateSizes are the sizes a template's ranges run over in one
// selection.
type templateSizes struct {
	files    int // len(.Files)
	segments int // the most segments of one file
}

// templateSteps returns an upper bound of the range iterations t runs over
// a selection of the given sizes (the main template: "pack").
func templateSteps(t *template.Template, sz templateSizes) (int64, error) {
	c := &templateCost{t: t, sz: sz, state: map[string]int{}, memo: map[string]int64{}}
	return c.template(t.Name())
}

// templateCost walks template trees. Without sizes (parseTemplate) it only
// checks; with sizes it also bounds the steps, saturating at
// maxTemplateSteps+1.
type templateCost struct {
	t     *template.Template
	sz    templateSizes
	state map[string]int // 1: being walked, 2: done
	memo  map[string]int64
}

const stepsOver = maxTemplateSteps + 1

func satAdd(a, b int64) int64 { return min(a+b, stepsOver) }
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > stepsOver/b {
		return stepsOver
	}
	return min(a*b, stepsOver)
}

func (c *templateCost) template(name string) (int64, error) {
	switch c.state[name] {
	case 1:
		return 0, fmt.Errorf("template %q calls itself (directly or through other templates); recursion is not allowed", name)
	case 2:
		return c.memo[name], nil
	}
	tt := c.t.Lookup(name)
	if tt == nil || tt.Tree == nil {
		return 0, nil // executing it fails with text/template's own error
	}
	c.state[name] = 1
	n, err := c.list(tt.Tree.Root)
	if err != nil {
		return 0, err
	}
	c.state[name] = 2
	if c.memo != nil {
		c.memo[name] = n
	}
	return n, nil
}

func (c *templateCost) list(l *parse.ListNode) (int64, error) {
	if l == nil {
		return 0, nil
	}
	var sum int64
	for _, n := range l.Nodes {
		k, err := c.node(n)
		if err != nil {
			return 0, err
		}
		sum = satAdd(sum, k)
	}
	return sum, nil
}

func (c *templateCost) node(n parse.Node) (int64, error) {
	switch n := n.(type) {
	case *parse.ListNode:
		return c.list(n)
	case *parse.IfNode:
		return c.branches(n.List, n.ElseList)
	case *parse.WithNode:
		return c.branches(n.List, n.ElseList)
	case *parse.TemplateNode:
		return c.template(n.Name)
	case *parse.RangeNode:
		size, err := c.rangeSize(n)
		if err != nil {
			return 0, err
		}
		body, err := c.list(n.List)
		if err != nil {
			return 0, err
		}
		els, err := c.list(n.ElseList)
		if err != nil {
			return 0, err
		}
		return satAdd(satMul(size, satAdd(1, body)), els), nil
	}
	return 0, nil
}

func (c *templateCost) branches(a, b *parse.ListNode) (int64, error) {
	x, err := c.list(a)
	if err != nil {
		return 0, err
	}
	y, err := c.list(b)
	if err != nil {
		return 0, err
	}
	return satAdd(x, y), nil
}

// rangeSize is the most iterations of one run of a range: len(.Files), the
// most segments of a file, or an integer literal.
func (c *templateCost) rangeSize(n *parse.RangeNode) (int64, error) {
	pipe := n.Pipe.String()
	if len(pipe) > 40 {
		pipe = strings.ToValidUTF8(pipe[:40], "") + "…" // quote a short prefix only
	}
	bad := fmt.Errorf("{{range %s}}: a template may range only over .Files, a file's .Segments, or an integer up to %d", pipe, maxRangeLiteral)
	if len(n.Pipe.Cmds) != 1 || len(n.Pipe.Cmds[0].Args) != 1 {
		return 0, bad
	}
	var idents []string
	switch a := n.Pipe.Cmds[0].Args[0].(type) {
	case *parse.FieldNode:
		idents = a.Ident
	case *parse.VariableNode:
		idents = a.Ident[1:]
	case *parse.NumberNode:
		if !a.IsInt || a.Int64 < 0 || a.Int64 > maxRangeLiteral {
			return 0, bad
		}
		return a.Int64, nil
	default:
		return 0, bad
	}
	if len(idents) == 0 {
		return 0, bad
	}
	switch idents[len(idents)-1] {
	case "Files":
		return int64(c.sz.files), nil
	case "Segments":
		return int64(c.sz.segments), nil
	}
	return 0, bad
}

// templateWriter is the output of one render: capped, and checking the
// request's context and the time budget at every write.
type templateWriter struct {
	ctx      context.Context
	deadline time.Time
	b        strings.Builder
	err      error // the limit that stopped the render
}

var errTemplateLimit = errors.New("pack: template limit")

func (w *templateWriter) Write(p []byte) (int, error) {
	switch {
	case w.ctx.Err() != nil:
		w.err = w.ctx.Err()
	case w.b.Len()+len(p) > maxTemplateOutput:
		w.err = &ParamError{Field: "template", Message: fmt.Sprintf("the template writes more than %d MiB; write each file's text once (a range over .Files inside another range over .Files repeats the whole context)", maxTemplateOutput>>20)}
	case time.Now().After(w.deadline):
		w.err = errTemplateTime()
	}
	if w.err != nil {
		return 0, errTemplateLimit
	}
	return w.b.WriteString(string(p))
}

// errTemplateTime is the error of a pack whose renders ran past the time
// budget.
func errTemplateTime() error {
	return &ParamError{Field: "template", Message: fmt.Sprintf("rendering the template ran longer than %s (all renders of one pack); write less text or fewer ranges", templateTimeBudget)}
}

// template renders items with a custom text/template; its data is
// {Files []File}. The template's range steps over this selection are
// bounded before it runs, and its output while it runs; deadline is the
// pack's time budget for all its renders.
func (f *formatter) template(ctx context.Context, t *template.Template, items []*budget.Item, deadline time.Time) (string, error) {
	fs := files(items)
	sz := templateSizes{files: len(fs)}
	for _, fl := range fs {
		sz.segments = max(sz.segments, len(fl.Segments))
	}
	steps, err := templateSteps(t, sz)
	if err != nil {
		return "", &ParamError{Field: "template", Message: err.Error()}
	}
	if steps > maxTemplateSteps {
		return "", &ParamError{Field: "template", Message: fmt.Sprintf("the template would run more than %d range steps over %d files (nested ranges multiply: each {{range .Files}} inside another runs %d times more); range over .Files once", maxTemplateSteps, sz.files, sz.files)}
	}
	if time.Now().After(deadline) {
		return "", errTemplateTime()
	}
	w := &templateWriter{ctx: ctx, deadline: deadline}
	if err := t.Execute(w, struct{ Files []File }{fs}); err != nil {
		if w.err != nil {
			return "", w.err
		}
		return "", err
	}
	return w.b.String(), nil
}
