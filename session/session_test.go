package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/pack"
)

var secret = "key = AKIAIOSFODNN7EXAMPLQ\ntoken ghp_" + strings.Repeat("aB3dE5gH7jK9", 3) + "\nplain line\n"

func TestTokenizerRule(t *testing.T) {
	cfg := config.Default()
	cfg.Context.Tokenizer.Model = "gpt-4"
	s := New(Options{Config: cfg, Roots: []string{t.TempDir()}})
	for _, tc := range []struct {
		model, encoding, file string
		want, field           string
	}{
		{want: "cl100k_base"},                                       // the configured model
		{model: "gpt-4o", want: "o200k_base"},                       // the request's model
		{model: "gpt-4o", encoding: "p50k_base", want: "p50k_base"}, // the encoding wins
		{encoding: "bogus", field: "encoding"},
		{file: "missing.json", field: "tokenizerFile"},
	} {
		tok, err := s.Tokenizer(tc.model, tc.encoding, tc.file)
		if tc.field != "" {
			var pe *pack.ParamError
			if !errors.As(err, &pe) || pe.Field != tc.field {
				t.Errorf("%+v: err = %v, want a param error naming %s", tc, err, tc.field)
			}
			continue
		}
		if err != nil || tok.Encoding() != tc.want {
			t.Errorf("%+v: %v, %v; want %s", tc, tok, err, tc.want)
		}
	}
}

func TestContextBudget(t *testing.T) {
	b := ContextBudget(8000).Apply(config.Default().Context.Budget)
	if b.TotalTokens-b.SystemPromptReserve-b.ResponseReserve != 8000 {
		t.Errorf("ContextBudget(8000) leaves %d", b.TotalTokens-b.SystemPromptReserve-b.ResponseReserve)
	}
}

func TestFitAndTrimRedact(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Config: config.Default(), Roots: []string{root}})
	ctx := context.Background()
	check := func(name, text string) {
		t.Helper()
		if strings.Contains(text, "AKIAIOSFODNN7EXAMPLQ") || strings.Contains(text, "ghp_aB3") || !strings.Contains(text, "plain line") {
			t.Errorf("%s: %q", name, text)
		}
	}
	fit, err := s.Fit(ctx, FitRequest{FitRequest: conversation.FitRequest{Tool: "read_file", Content: secret}})
	if err != nil {
		t.Fatal(err)
	}
	check("fit content", fit.Content)
	if fit.MaxTokens != conversation.DefaultToolTokens {
		t.Errorf("fit default maxTokens = %d", fit.MaxTokens)
	}
	fit, err = s.Fit(ctx, FitRequest{FitRequest: conversation.FitRequest{Path: "notes.txt"}, ReadPath: true})
	if err != nil {
		t.Fatal(err)
	}
	check("fit path", fit.Content)
	var msgs []conversation.Message
	raw := `[{"role":"user","content":` + jsonString(secret) + `},{"role":"user","content":[{"type":"text","text":` + jsonString(secret) + `,"cache_control":{"type":"ephemeral"}}]}]`
	if err := json.Unmarshal([]byte(raw), &msgs); err != nil {
		t.Fatal(err)
	}
	tr, err := s.Trim(ctx, conversation.TrimRequest{Messages: msgs, MaxContextTokens: 100000})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(tr.Messages)
	check("trim", string(out))
	if !strings.Contains(string(out), "cache_control") {
		t.Errorf("trim lost a part's other fields: %s", out)
	}
}

func TestCleanDetails(t *testing.T) {
	e := []pack.Entry{{Detail: "matches .gitignore pattern \"ghp_" + strings.Repeat("aB3dE5gH7jK9", 3) + "\u202e\""}}
	cleanDetails(e)
	if strings.Contains(e[0].Detail, "ghp_aB3") || strings.Contains(e[0].Detail, "\u202e") {
		t.Errorf("detail = %q", e[0].Detail)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
