package pack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// templateEngine is an engine on a workspace of n small Go files.
func templateEngine(t *testing.T, n int) (*Engine, string) {
	t.Helper()
	root := t.TempDir()
	for i := 0; i < n; i++ {
		writeFile(t, filepath.Join(root, fmt.Sprintf("f%02d.go", i)), []byte(fmt.Sprintf("package f\n\n// F%d checks out a cart.\nfunc F%d() int { return %d }\n", i, i, i)))
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(config.Default(), ws), root
}

// TestTemplateBudget is issue 21's attack and its neighbours: a custom
// template that would explode (nested ranges over .Files, output that
// multiplies, recursion, a huge integer range) fails fast with a
// parameter error naming "template" that says why, under a deadline,
// instead of running the process out of memory; ordinary templates work.
func TestTemplateBudget(t *testing.T) {
	e, root := templateEngine(t, 30)
	nested := func(depth int) string {
		return strings.Repeat("{{range $.Files}}", depth) + "{{.Body}}" + strings.Repeat("{{end}}", depth)
	}
	tests := []struct {
		name, tmpl string
		want       string // in the error; "" means the pack succeeds
	}{
		{name: "issue 21: five nested ranges over 30 files", tmpl: nested(5) + strings.Repeat(" ", 2000), want: "range steps"},
		{name: "seven nested", tmpl: nested(7), want: "range steps"},
		{name: "output that multiplies", tmpl: "{{range .Files}}{{range 10000}}{{$.Files}}{{$.Files}}{{end}}{{end}}", want: "MiB"},
		{name: "recursion", tmpl: `{{define "a"}}{{template "a" .}}{{template "a" .}}{{end}}{{template "a" .}}`, want: "calls itself"},
		{name: "mutual recursion", tmpl: `{{define "a"}}{{template "b" .}}{{end}}{{define "b"}}{{template "a" .}}{{end}}{{template "a" .}}`, want: "calls itself"},
		{name: "a huge integer range", tmpl: "{{range 100000000000}}{{end}}", want: "range only over"},
		{name: "a range over a variable of unknown size", tmpl: "{{$n := 1000000}}{{range $n}}{{range $n}}{{end}}{{end}}", want: "range only over"},
		{name: "a range over dot", tmpl: "{{with .Files}}{{range .}}{{.Path}}{{end}}{{end}}", want: "range only over"},
		{name: "a range over a function's result", tmpl: "{{range slice .Files 1}}{{.Path}}{{end}}", want: "range only over"},
		{name: "nested calls multiply", tmpl: `{{define "in"}}{{range $.Files}}{{range $.Files}}{{range $.Files}}{{.Path}}{{end}}{{end}}{{end}}{{end}}{{range .Files}}{{range $.Files}}{{template "in" $}}{{end}}{{end}}`, want: "range steps"},
		{name: "files and segments", tmpl: "{{range $i, $f := .Files}}{{$f.Header}}{{range $f.Segments}}{{.StartLine}}-{{.EndLine}}\n{{.Content}}{{end}}{{end}}"},
		{name: "two ranges over files, not nested", tmpl: "{{range .Files}}{{.Path}}\n{{end}}{{range .Files}}{{.Body}}{{end}}"},
		{name: "a small integer range", tmpl: "{{range 3}}-{{end}}{{range .Files}}{{.Body}}{{end}}"},
		{name: "a pair of nested ranges over 30 files", tmpl: "{{range .Files}}{{range $.Files}}{{end}}{{.Body}}{{end}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			total := 100000
			req := Request{Template: tt.tmpl, Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total}}
			start := time.Now()
			res, err := e.Pack(ctx, req, nil, nil)
			if ctx.Err() != nil {
				t.Fatalf("the render ran past its deadline (%s)", time.Since(start))
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Pack: %v", err)
				}
				if res.Content == "" || len(res.Included) != 30 {
					t.Errorf("%d included, content %q", len(res.Included), res.Content)
				}
				return
			}
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != "template" || !strings.Contains(pe.Message, tt.want) {
				t.Fatalf("Pack: %v, want a ParamError for template saying %q", err, tt.want)
			}
			if len(pe.Message) > 400 {
				t.Errorf("the message quotes too much (%d bytes): %.200s…", len(pe.Message), pe.Message)
			}
		})
	}
}

// TestTemplateWriterLimits checks the limits checked while a template
// runs: a cancelled request and the time budget stop it at its next write.
func TestTemplateWriterLimits(t *testing.T) {
	src := budget.NewText("package a\n")
	items := []*budget.Item{{Path: "a.go", Type: "open_file", Source: src, StartLine: 1, EndLine: 1, Content: src.String()}}
	tmpl, err := parseTemplate("{{range .Files}}{{range 10000}}{{$.Files}}{{end}}{{end}}")
	if err != nil {
		t.Fatal(err)
	}
	f := newFormatter(func(s string) int { return len(s) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.template(ctx, tmpl, items, time.Now().Add(time.Minute)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	_, err = f.template(context.Background(), tmpl, items, time.Now().Add(-time.Second))
	var pe *ParamError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "ran longer than") {
		t.Errorf("over the time budget: %v, want a ParamError saying it ran too long", err)
	}
}

// TestTemplateTimeBudgetPerPack checks that the time budget holds for a
// whole pack: a template within the step and output limits whose text is
// far over the budget (so rule 3's drop renders it again and again) ends
// with the time budget's error, not after one render per item.
func TestTemplateTimeBudgetPerPack(t *testing.T) {
	defer func(d time.Duration) { templateTimeBudget = d }(templateTimeBudget)
	templateTimeBudget = 300 * time.Millisecond
	e, root := templateEngine(t, 30)
	total := 2000
	tmpl := `{{range .Files}}{{range $.Files}}{{range $.Files}}{{range 30}}{{$.Files}}{{end}}{{end}}{{end}}{{end}}`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := e.Pack(ctx, Request{Template: tmpl, Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: new(int), ResponseReserve: new(int)}}, nil, nil)
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Field != "template" {
		t.Fatalf("Pack: %v, want a ParamError for template", err)
	}
	if !strings.Contains(pe.Message, "ran longer than") && !strings.Contains(pe.Message, "MiB") {
		t.Errorf("message %q: want the time budget or the output cap", pe.Message)
	}
	if ctx.Err() != nil {
		t.Fatalf("the pack ran past its deadline (%s)", time.Since(start))
	}
}
