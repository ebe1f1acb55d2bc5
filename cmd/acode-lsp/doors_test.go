package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/acode-lsp/acode-lsp/lsp"
	"github.com/acode-lsp/acode-lsp/mcp"
	"github.com/acode-lsp/acode-lsp/session"
)

// doorsSecret holds credentials every door must redact (an AWS key, a
// GitHub token, a private key) around text that must survive.
var doorsSecret = "aws_access_key_id = AKIAIOSFODNN7EXAMPLQ\ntoken: ghp_" + strings.Repeat("aB3dE5gH7jK9", 3) +
	"\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefghijABCDEFGHIJ\n-----END RSA PRIVATE KEY-----\nstill here\n"

var doorsLeaks = []string{"AKIAIOSFODNN7EXAMPLQ", "ghp_aB3dE5", "MIIEowIBAAKCAQEA"}

// doors are the three ways into one workspace: the command line (run, in
// process), the language server (lsp.Serve over a pipe, internal/lsptest)
// and the MCP server (the SDK's in-memory transport).
type doors struct {
	root string
	ed   *lsptest.Editor
	mcp  *sdk.ClientSession
}

func openDoors(t *testing.T, root string) *doors {
	t.Helper()
	ed := lsptest.InProcess(t, func(ctx context.Context, in io.Reader, out io.Writer) int {
		return lsp.Serve(ctx, in, out, lsp.Options{Version: "doors", WorkspaceIndex: true})
	}, lsptest.Options{})
	ed.Initialize(lsptest.Init{Roots: []string{root}})
	srv, err := mcp.New(mcp.Options{Root: root, Tools: mcp.AllTools, WorkspaceIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "doors", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return &doors{root: root, ed: ed, mcp: cs}
}

// cli runs a command line in the workspace root and returns its stdout.
func (d *doors) cli(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(t, d.root, stdin, args...)
	if code != 0 {
		t.Fatalf("acode-lsp %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

// lsp calls a method and returns its result as JSON.
func (d *doors) lsp(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	m := d.ed.In(t).Call(method, params)
	if m.Error != nil {
		t.Fatalf("%s: %v", method, m.Error)
	}
	return m.Result
}

// tool calls an MCP tool and returns its text and structured content.
func (d *doors) tool(t *testing.T, name string, args map[string]any) (string, json.RawMessage) {
	t.Helper()
	res, err := d.mcp.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%s: %s", name, text.String())
	}
	var structured json.RawMessage
	if res.StructuredContent != nil {
		structured, _ = json.Marshal(res.StructuredContent)
	}
	return text.String(), structured
}

// pick decodes JSON and keeps the named fields, for comparing the answers
// of doors whose results carry different extras.
func pick(t *testing.T, data []byte, keys ...string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v: %.300s", err, data)
	}
	out := map[string]any{}
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

// dropOrigin checks that every included item of m says origin (where the
// door got the file: walked, named by the request, …) and removes the
// field, which is what legitimately differs between the doors.
func dropOrigin(t *testing.T, m map[string]any, origin string) map[string]any {
	t.Helper()
	items, _ := m["included"].([]any)
	if len(items) == 0 {
		t.Fatalf("nothing included: %v", m)
	}
	for _, x := range items {
		it, _ := x.(map[string]any)
		if it["origin"] != origin {
			t.Errorf("%v: origin %v, want %q", it["path"], it["origin"], origin)
		}
		delete(it, "origin")
	}
	return m
}

// TestDoors sends the same requests through the three doors and compares
// the answers (docs/design.md "One core, three doors"): the packed
// context, the preview, a count with the configured tokenizer file, a fit
// with its defaults and redaction, and a trim counted with the configured
// model.
func TestDoors(t *testing.T) {
	// The committed small byte-level BPE file (testdata/tokenizer): the
	// quick suite needs no npm install.
	tokJSON, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tokenizer", "small-bpe.json"))
	if err != nil {
		t.Fatal(err)
	}
	// One workspace whose config names gpt-4 (cl100k_base, an 8,192-token
	// window), one whose config names a tokenizer file.
	gpt4 := t.TempDir()
	for name, text := range map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		".agent/config.yml": "context:\n  tokenizer: {model: gpt-4}\n",
		"cart/service.go":   "package cart\n\nimport \"errors\"\n\n// ErrEmptyCart is returned by Checkout for a cart without items.\nvar ErrEmptyCart = errors.New(\"empty cart\")\n\n// Checkout charges the cart.\nfunc Checkout(items []string) error {\n\tif len(items) == 0 {\n\t\treturn ErrEmptyCart\n\t}\n\treturn nil\n}\n",
		"cart/model.go":     "package cart\n\n// Cart is a customer's cart.\ntype Cart struct {\n\tItems []string\n}\n\n// IsEmpty reports whether the cart has no items.\nfunc (c *Cart) IsEmpty() bool { return len(c.Items) == 0 }\n",
		"cart/keys.go":      "package cart\n\n// The test account.\nconst account = `\n" + doorsSecret + "`\n",
	} {
		write(t, filepath.Join(gpt4, name), text)
	}
	file := t.TempDir()
	write(t, filepath.Join(file, ".git/HEAD"), "ref: refs/heads/main\n")
	// A repository's config may name a tokenizer file only inside the
	// workspace (issue 21).
	ref := filepath.Join(file, "models", "tokenizer.json")
	write(t, ref, string(tokJSON))
	write(t, filepath.Join(file, ".agent/config.yml"), "context:\n  tokenizer:\n    file: "+ref+"\n")
	a, b := openDoors(t, gpt4), openDoors(t, file)

	query := "why does checkout fail for an empty cart"
	files := []string{"cart/service.go", "cart/model.go", "cart/keys.go"}
	var uris []any
	for _, f := range files {
		uris = append(uris, map[string]any{"type": "open_file", "uri": lsptest.URI(filepath.Join(gpt4, f))})
	}
	lspPack := map[string]any{"query": query, "includeOpenFiles": false, "sources": uris,
		"budget": map[string]any{"totalTokens": "1k", "systemReserve": 0, "responseReserve": 0}}
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("line %03d of a long tool output", i))
	}
	output := doorsSecret + strings.Join(lines, "\n") + "\n"
	msgs := []any{map[string]any{"role": "system", "content": "You are a careful engineer."},
		map[string]any{"role": "user", "content": "Here is the config:\n" + doorsSecret},
		map[string]any{"role": "assistant", "content": "Thanks. 日本語のテキストは数え方が違います 🎉"}}
	msgsJSON, _ := json.Marshal(msgs)

	cases := []struct {
		name          string
		cli, lsp, mcp func(t *testing.T) any // nil: the door has no such request
	}{
		{
			name: "pack",
			cli: func(t *testing.T) any {
				out := a.cli(t, "", append([]string{"pack", "--no-index", "--query", query, "--budget", "1000"}, files...)...)
				if !strings.Contains(out, "func Checkout(items []string) error {") || !strings.Contains(out, "still here") {
					t.Errorf("the pack lacks the code:\n%s", out)
				}
				return out
			},
			lsp: func(t *testing.T) any {
				var r struct{ Content string }
				_ = json.Unmarshal(a.lsp(t, "acode/packContext", lspPack), &r)
				return r.Content
			},
			mcp: func(t *testing.T) any {
				text, structured := a.tool(t, "pack_context", map[string]any{"query": query, "budget": "1k", "paths": files})
				if structured != nil {
					t.Errorf("pack_context has structured content")
				}
				i := strings.LastIndex(text, "\n[acode-lsp: ")
				if i < 0 {
					t.Fatalf("no summary line: %q", text)
				}
				return text[:i]
			},
		},
		{
			name: "pack of the whole root",
			cli: func(t *testing.T) any {
				return a.cli(t, "", "pack", "--no-index", "--query", query, "--budget", "800")
			},
			mcp: func(t *testing.T) any {
				text, _ := a.tool(t, "pack_context", map[string]any{"query": query, "budget": 800})
				return text[:strings.LastIndex(text, "\n[acode-lsp: ")]
			},
		},
		{
			// A search through the workspace index (issue 24): the CLI's
			// --search and MCP's search ask the same index the same way.
			name: "pack of one file with a search",
			cli: func(t *testing.T) any {
				// One file packed; the search brings the other's lines.
				out := a.cli(t, "", "pack", "cart/model.go", "--query", query, "--search", "ErrEmptyCart", "--budget", "800")
				if !strings.Contains(out, "var ErrEmptyCart") {
					t.Errorf("the pack lacks the search's hit:\n%s", out)
				}
				return out
			},
			mcp: func(t *testing.T) any {
				text, _ := a.tool(t, "pack_context", map[string]any{"query": query, "paths": []string{"cart/model.go"}, "search": "ErrEmptyCart", "budget": 800})
				return text[:strings.LastIndex(text, "\n[acode-lsp: ")]
			},
		},
		{
			name: "preview",
			cli: func(t *testing.T) any {
				pv := pick(t, []byte(a.cli(t, "", append([]string{"pack", "--no-index", "--preview", "--query", query, "--budget", "1000"}, files...)...)), "included", "estimatedTokens")
				// The command line walked the files; the editor named them.
				return dropOrigin(t, pv, "workspace")
			},
			lsp: func(t *testing.T) any {
				pv := pick(t, a.lsp(t, "acode/previewContext", lspPack), "included", "estimatedTokens")
				// A pack includes exactly what its preview included.
				pk := pick(t, a.lsp(t, "acode/packContext", lspPack), "included", "tokenCount")
				if diff := cmp.Diff(pv["included"], pk["included"]); diff != "" || pv["estimatedTokens"] != pk["tokenCount"] {
					t.Errorf("preview and pack differ (-preview +pack):\n%s\nestimated %v, packed %v", diff, pv["estimatedTokens"], pk["tokenCount"])
				}
				return dropOrigin(t, pv, "request")
			},
		},
		{
			name: "count with the config's tokenizer file",
			cli: func(t *testing.T) any {
				return pick(t, []byte(b.cli(t, "func (s *Service) Checkout(ctx context.Context) error", "count", "--json", "-")), "encoding", "exact", "total")["total"]
			},
			lsp: func(t *testing.T) any {
				return pick(t, b.lsp(t, "acode/countTokens", map[string]any{"text": "func (s *Service) Checkout(ctx context.Context) error"}), "tokens")["tokens"]
			},
			mcp: func(t *testing.T) any {
				_, s := b.tool(t, "count_tokens", map[string]any{"text": "func (s *Service) Checkout(ctx context.Context) error"})
				return pick(t, s, "tokens")["tokens"]
			},
		},
		{
			name: "fit defaults and redaction",
			cli: func(t *testing.T) any {
				return pick(t, []byte(a.cli(t, output, "fit", "--tool", "read_file", "--json")), "content")["content"]
			},
			lsp: func(t *testing.T) any {
				r := pick(t, a.lsp(t, "acode/fitToolResult", map[string]any{"tool": "read_file", "content": output}), "content", "maxTokens")
				if r["maxTokens"] != 8000.0 {
					t.Errorf("fit's default maxTokens = %v, want 8000", r["maxTokens"])
				}
				return r["content"]
			},
			mcp: func(t *testing.T) any {
				text, _ := a.tool(t, "fit_tool_result", map[string]any{"tool": "read_file", "content": output})
				return text[:strings.LastIndex(text, "\n[")]
			},
		},
		{
			name: "trim with the config's model",
			cli: func(t *testing.T) any {
				r := pick(t, []byte(a.cli(t, string(msgsJSON), "trim", "--json")), "messages", "originalTokens", "finalTokens")
				// Counted with the config's model (gpt-4: cl100k_base), not o200k.
				var ms []conversation.Message
				if err := json.Unmarshal(msgsJSON, &ms); err != nil {
					t.Fatal(err)
				}
				ms = session.RedactMessages(ms)
				cl, _ := tokenizer.ForEncoding("cl100k_base")
				o2, _ := tokenizer.ForEncoding("o200k_base")
				if want := conversation.ConversationTokens(cl, ms); r["originalTokens"] != float64(want) || want == conversation.ConversationTokens(o2, ms) {
					t.Errorf("trim counted %v tokens, want cl100k_base's %d", r["originalTokens"], want)
				}
				return r
			},
			lsp: func(t *testing.T) any {
				return pick(t, a.lsp(t, "acode/trimConversation", map[string]any{"messages": msgs}), "messages", "originalTokens", "finalTokens")
			},
			mcp: func(t *testing.T) any {
				text, s := a.tool(t, "trim_conversation", map[string]any{"messages": msgs})
				if diff := cmp.Diff(pick(t, s, "messages", "finalTokens"), pick(t, []byte(text), "messages", "finalTokens")); diff != "" {
					t.Errorf("trim_conversation's text is not its structured content:\n%s", diff)
				}
				return pick(t, s, "messages", "originalTokens", "finalTokens")
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.cli(t)
			if s, ok := want.(string); ok && strings.TrimSpace(s) == "" {
				t.Fatal("the command line answered nothing")
			}
			for _, leak := range doorsLeaks {
				if strings.Contains(fmt.Sprint(want), leak) {
					t.Errorf("the command line returns %s", leak)
				}
			}
			for _, door := range []struct {
				name string
				f    func(*testing.T) any
			}{{"language server", tc.lsp}, {"MCP", tc.mcp}} {
				if door.f == nil {
					continue
				}
				got := door.f(t)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s differs from the command line (-cli +%s):\n%s", door.name, door.name, diff)
				}
			}
		})
	}
	// A workspace file paged by path (the servers read it; the command line
	// pages its stdin): the same page, redacted, through both servers.
	t.Run("fit a workspace file by path", func(t *testing.T) {
		page := pick(t, a.lsp(t, "acode/fitToolResult", map[string]any{"path": "cart/keys.go", "maxTokens": "2k"}), "content")["content"].(string)
		text, _ := a.tool(t, "fit_tool_result", map[string]any{"path": "cart/keys.go", "maxTokens": "2k"})
		if got := text[:strings.LastIndex(text, "\n[")]; got != page {
			t.Errorf("MCP page differs from the language server's:\n%q\n%q", got, page)
		}
		if !strings.Contains(page, "still here") {
			t.Errorf("page = %q", page)
		}
		for _, leak := range doorsLeaks {
			if strings.Contains(page, leak) {
				t.Errorf("the page returns %s", leak)
			}
		}
	})
}
