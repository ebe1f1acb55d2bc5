package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2ECountTokens: the errors are in testdata/sessions/errors/count-tokens.txtar.
func TestE2ECountTokens(t *testing.T) {
	e, root := session(t, nil)
	model := filepath.Join(root, "cart/model.go")
	modelText := readFile(t, model)
	text := "Hello, world! <|endoftext|> is ordinary text here.\n"
	type result struct {
		Tokens   int    `json:"tokens"`
		Encoding string `json:"encoding"`
		Exact    bool   `json:"exact"`
	}
	tests := []struct {
		name   string
		params map[string]any
		want   result
	}{
		{"text, configured model", map[string]any{"text": text}, result{count(t, "o200k_base", text), "o200k_base", true}},
		{"text, model", map[string]any{"text": text, "model": "gpt-4"}, result{count(t, "cl100k_base", text), "cl100k_base", true}},
		{"text, encoding", map[string]any{"text": text, "encoding": "p50k_base"}, result{count(t, "p50k_base", text), "p50k_base", true}},
		{"text, r50k", map[string]any{"text": text, "encoding": "r50k_base"}, result{count(t, "r50k_base", text), "r50k_base", true}},
		{"text, unknown model", map[string]any{"text": text, "model": "my-local-llama"}, result{heuristicCount(text), estimateEncoding, false}},
		{"empty text", map[string]any{"text": ""}, result{0, "o200k_base", true}},
		{"uri", map[string]any{"uri": fileURI(model)}, result{count(t, "o200k_base", modelText), "o200k_base", true}},
		{"uri, model", map[string]any{"uri": fileURI(model), "model": "gpt-3.5-turbo"}, result{count(t, "cl100k_base", modelText), "cl100k_base", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.In(t)
			var raw json.RawMessage
			e.Result("acode/countTokens", tt.params, &raw)
			fields := []string{"encoding", "exact", "tokens"}
			if !tt.want.Exact {
				fields = []string{"encoding", "estimate", "exact", "tokens"} // rule 1's estimate object
			}
			if diff := cmp.Diff(fields, keys(t, raw)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			var got result
			_ = json.Unmarshal(raw, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("uri of an open document counts the editor's text", func(t *testing.T) {
		e := e.In(t)
		edited := modelText + "\n// one more line in the editor\n"
		e.Open(model, "go", edited)
		var got result
		e.Result("acode/countTokens", map[string]any{"uri": fileURI(model)}, &got)
		if want := count(t, "o200k_base", edited); got.Tokens != want {
			t.Errorf("tokens = %d, want %d (the open document)", got.Tokens, want)
		}
	})
}

func TestE2EModelFamilies(t *testing.T) {
	e, _ := session(t, nil)
	tests := []struct {
		model, encoding string
	}{
		{"gpt-4o", "o200k_base"}, {"gpt-4o-mini", "o200k_base"}, {"gpt-4.1", "o200k_base"}, {"gpt-4.1-nano", "o200k_base"},
		{"o1", "o200k_base"}, {"o1-mini", "o200k_base"}, {"o3", "o200k_base"}, {"o3-mini", "o200k_base"}, {"o4-mini", "o200k_base"},
		{"gpt-5", "o200k_base"}, {"gpt-5-mini", "o200k_base"},
		{"gpt-4", "cl100k_base"}, {"gpt-4-turbo", "cl100k_base"}, {"gpt-4-32k", "cl100k_base"},
		{"gpt-3.5-turbo", "cl100k_base"}, {"gpt-3.5-turbo-16k", "cl100k_base"},
		{"text-embedding-3-small", "cl100k_base"}, {"text-embedding-3-large", "cl100k_base"},
		{"claude-3-opus", "estimate:claude-3-opus×1.25"},
	}
	text := "func (s *CheckoutService) Checkout(ctx context.Context) error { return ErrEmptyCart } // ✓ naïve\n"
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			e := e.In(t)
			var got struct {
				Tokens   int    `json:"tokens"`
				Encoding string `json:"encoding"`
				Exact    bool   `json:"exact"`
			}
			e.Result("acode/countTokens", map[string]any{"text": text, "model": tt.model}, &got)
			want := estimateCount(1.25, text) // Claude ≤ 4.6
			estimate := strings.HasPrefix(tt.encoding, "estimate:")
			if !estimate {
				want = count(t, tt.encoding, text)
			}
			if got.Encoding != tt.encoding || got.Exact != !estimate || got.Tokens != want {
				t.Errorf("got %+v, want %d tokens under %s", got, want, tt.encoding)
			}
		})
	}
}
