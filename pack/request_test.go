package pack

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

func strp(s string) *string { return &s }
func intp(i int) *int       { return &i }

func TestRequestErrors(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.go"), []byte("package a\n"))
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	no := false
	tests := []struct {
		name  string
		req   Request
		field string       // ParamError field, or
		code  errcode.Code // Error code
	}{
		{"bad type", Request{Sources: []Source{{Type: "file", Content: strp("x")}}}, "sources[0].type", ""},
		{"tool result without content", Request{Sources: []Source{{Type: "tool_result", Label: "t"}}}, "sources[0].content", ""},
		{"reference without uri or content", Request{Sources: []Source{{Type: "reference"}}}, "sources[0].uri", ""},
		{"relevance out of range", Request{Sources: []Source{{Type: "reference", Content: strp("x"), Relevance: func() *float64 { f := 1.5; return &f }()}}}, "sources[0].relevance", ""},
		{"backwards range", Request{Sources: []Source{{Type: "reference", Path: filepath.Join(root, "a.go"), StartLine: 6, EndLine: 3}}}, "sources[0].range", ""},
		{"unknown encoding", Request{Encoding: "gpt2000", Sources: []Source{{Type: "tool_result", Content: strp("x")}}}, "encoding", ""},
		{"negative reserve", Request{Budget: &config.BudgetOverrides{SystemReserve: intp(-1)}, Sources: []Source{{Type: "tool_result", Content: strp("x")}}}, "budget.systemReserve", ""},
		{"categories sum", Request{Budget: &config.BudgetOverrides{Categories: map[string]int{"open_files": 50}}, Sources: []Source{{Type: "tool_result", Content: strp("x")}}}, "budget.categories", ""},
		{"empty search pattern", Request{Search: &Search{Pattern: " ", MaxResults: 3}}, "search.pattern", ""},
		{"no budget available", Request{Budget: &config.BudgetOverrides{TotalTokens: intp(1000), SystemReserve: intp(500), ResponseReserve: intp(500)}}, "", errcode.Budget},
		{"nothing to pack", Request{IncludeOpenFiles: &no}, "", errcode.NoContent},
		{"everything excluded", Request{Sources: []Source{{Type: "reference", Path: "/etc/passwd"}}}, "", errcode.NoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewEngine(config.Default(), ws).Pack(context.Background(), tt.req, nil, nil)
			var pe *ParamError
			var de *Error
			switch {
			case tt.field != "":
				if !errors.As(err, &pe) || pe.Field != tt.field {
					t.Errorf("err = %v, want a ParamError for %s", err, tt.field)
				}
			case !errors.As(err, &de) || de.Code != tt.code:
				t.Errorf("err = %v, want code %s", err, tt.code)
			}
		})
	}
}

func TestExplicitSources(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		b.WriteString("line " + strings.Repeat("x", i%7) + "\n")
	}
	writeFile(t, filepath.Join(root, "cart", "service.go"), []byte(b.String()))
	writeFile(t, filepath.Join(root, ".env"), []byte("KEY=abc\n"))
	writeFile(t, filepath.Join(root, ".gitignore"), []byte("*.log\n"))
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "x.go"), []byte("package x\n"))
	if err := os.Symlink(filepath.Join(outside, "x.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Sources: []Source{
		{Type: "reference", Path: filepath.Join(root, "cart", "service.go"), StartLine: 10, EndLine: 41},
		{Type: "reference", Path: filepath.Join(outside, "x.go")},
		{Type: "reference", Path: filepath.Join(root, "link.go")},
		{Type: "open_file", Path: filepath.Join(root, ".env")},
		{Type: "open_file", Path: filepath.Join(root, ".env.local"), Content: strp("TOKEN=1\n")},
		{Type: "search_result", Path: filepath.Join(outside, "y.go"), Content: strp("package y\n")},
		{Type: "tool_result", Label: "go vet", Content: strp("")},
		{Type: "reference", Path: filepath.Join(root, "build.log"), Content: strp("ignored even when sent with its content\n")},
	}}
	res, err := NewEngine(config.Default(), ws).Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Included) != 1 || res.Included[0].StartLine != 10 || res.Included[0].EndLine != 41 || res.Included[0].Path != "cart/service.go" {
		t.Errorf("included = %+v, want cart/service.go lines 10-41", res.Included)
	}
	got := map[string]string{}
	for _, x := range res.Excluded {
		got[filepath.Base(x.Path)] = x.Reason
	}
	want := map[string]string{"x.go": "outside_workspace", "link.go": "outside_workspace", ".env": "secret", ".env.local": "secret", "y.go": "outside_workspace", ".": "empty", "build.log": "ignored"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q excluded as %q, want %q (all: %+v)", k, got[k], v, res.Excluded)
		}
	}
	if strings.Contains(res.Content, "package x") || strings.Contains(res.Content, "KEY=") {
		t.Error("excluded content reached the context")
	}
}

func TestSnippetAndExcludedJSON(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".env"), []byte("KEY=abc\n"))
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Sources: []Source{
		{Type: "reference", Label: "checkout snippet", Content: strp("func Checkout() {}\n")},
		{Type: "tool_result", Label: "go test", Content: strp("ok\n")},
		{Type: "open_file", Path: filepath.Join(root, ".env")},
	}}
	res, err := NewEngine(config.Default(), ws).Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Snippet: checkout snippet\n", "## Tool: go test\n"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, res.Content)
		}
	}
	data, err := json.Marshal(res.Excluded)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); !strings.Contains(got, `"startLine":0,"endLine":0`) || !strings.Contains(got, `"reason":"secret"`) {
		t.Errorf("a file excluded unread has lines 0-0 (no lines), with the fields present: %s", got)
	}
	data, _ = json.Marshal(res.Included)
	if !strings.Contains(string(data), `"startLine":1`) {
		t.Errorf("included items carry 1-based lines: %s", data)
	}
}

// A source given with content and no path goes through the collector like
// a tool's output: escape sequences and control bytes dropped, secrets
// redacted, the label on one line.
func TestSnippetIsCleanedByTheCollector(t *testing.T) {
	secret := "sk-proj-" + strings.Repeat("a1B2", 12)
	req := Request{Sources: []Source{{Type: "reference", Label: "checkout\nsnippet", Content: strp("\x1b[1mfunc Checkout() {}\x1b[0m\x00\nconst key = \"" + secret + "\"\n")}}}
	res, err := NewEngine(config.Default(), nil).Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(res.Content, "\x1b\x00") || strings.Contains(res.Content, secret) {
		t.Errorf("snippet not cleaned and redacted:\n%q", res.Content)
	}
	if !strings.Contains(res.Content, "## Snippet: checkout snippet\n") || !strings.Contains(res.Content, "func Checkout() {}\n") {
		t.Errorf("snippet header or code missing:\n%s", res.Content)
	}
}
