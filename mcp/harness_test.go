package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// o200k recounts texts independently of the server's caches.
func o200k(t *testing.T) tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.ForEncoding("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// writeTree writes files (slash paths → text) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sampleFiles is a small workspace with a secret, an ignored file and an
// excluded one.
var sampleFiles = map[string]string{
	"cart/service.go":      "package cart\n\nimport \"errors\"\n\n// ErrEmptyCart is returned by Checkout for a cart without items.\nvar ErrEmptyCart = errors.New(\"empty cart\")\n\n// Checkout charges the cart.\nfunc Checkout(items []string) error {\n\tif len(items) == 0 {\n\t\treturn ErrEmptyCart\n\t}\n\treturn nil\n}\n",
	"cart/service_test.go": "package cart\n\nimport \"testing\"\n\nfunc TestCheckoutEmpty(t *testing.T) {\n\tif Checkout(nil) != ErrEmptyCart {\n\t\tt.Fatal(\"want ErrEmptyCart\")\n\t}\n}\n",
	"docs/readme.md":       "# Cart\n\nThe cart service checks out items.\n\n## Errors\n\nAn empty cart fails with ErrEmptyCart.\n",
	"main.go":              "package main\n\nfunc main() {}\n",
	".env":                 "STRIPE_KEY=sk_live_51HqLyjWDarjtT1zdp7dcXyZ0123456789abcdef\n",
	".gitignore":           "debug.log\n",
	"debug.log":            "checkout failed: ignored by gitignore\n",
	"gen/mock.go":          "package gen // excluded by context.exclude\n",
	".agent/config.yml":    "context:\n  exclude: [\"gen/**\"]\n",
}

// session starts a server on root (with opts) and a client connected to it
// in memory; roots, when given, are the client's roots (file URIs).
func connect(t *testing.T, opts Options, clientOpts *sdk.ClientOptions, roots ...string) (*sdk.ClientSession, *Server) {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, clientOpts)
	for _, r := range roots {
		client.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(r)})
	}
	cs, err := client.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs, srv
}

// callResult is a tool result as a client sees it.
type callResult struct {
	text       string
	isError    bool
	structured map[string]any
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) callResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var out callResult
	out.isError = res.IsError
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	out.text = strings.Join(texts, "")
	if res.StructuredContent != nil {
		data, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(data, &out.structured)
	}
	return out
}

// num returns a JSON number of a structured result as an int.
func num(m map[string]any, key string) int {
	f, _ := m[key].(float64)
	return int(f)
}

// splitSummary splits a pack_context text into the packed context and its
// summary line.
func splitSummary(t *testing.T, text string) (content, summary string) {
	t.Helper()
	i := strings.LastIndex(text, "\n[acode-lsp: ")
	if i < 0 || !strings.HasSuffix(text, "]") {
		t.Fatalf("no summary line in %q", text)
	}
	return text[:i], text[i+1:]
}

// cursorRe finds the cursor in fit_tool_result's note.
var cursorRe = regexp.MustCompile(`Use cursor (\S+) to continue`)
