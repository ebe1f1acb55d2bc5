package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/wire"
	"github.com/acode-lsp/acode-lsp/pack"
	"github.com/acode-lsp/acode-lsp/session"
)

// DefaultPackBudget is pack_context's budget when the call gives none:
// the tokens the returned context may take (no reserves are subtracted).
const DefaultPackBudget = session.DefaultPackBudget

// summaryReserve is what the summary line after the context may take, in
// tokens: a budget capped by --max-result-tokens leaves it this much room.
const summaryReserve = 40

// packInput is the input of pack_context.
type packInput struct {
	Query    string         `json:"query"`
	Budget   *config.Tokens `json:"budget,omitempty"`
	Paths    []string       `json:"paths,omitempty"`
	Search   string         `json:"search,omitempty"`
	Model    string         `json:"model,omitempty"`
	Encoding string         `json:"encoding,omitempty"`
	Format   string         `json:"format,omitempty"`
	Sources  []wire.Source  `json:"sources,omitempty"`
}

func (s *Server) addPackContext() {
	addTool(s, &sdk.Tool{
		Name:        "pack_context",
		Description: "Pack the workspace code most relevant to a task into a context within a token budget (exact count).",
		InputSchema: packSchema(),
	}, s.packContext)
}

// packSchema is pack_context's input schema.
func packSchema() *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"query"},
		Properties: map[string]*jsonschema.Schema{
			"query":    str("The task or question; ranks code by relevance."),
			"budget":   {Types: []string{"integer", "string"}, Minimum: ptr(1.0), Description: `Tokens the context may take, e.g. 8000 or "8k" (default 16000).`},
			"paths":    {Type: "array", Items: str(""), Description: `Globs under the root, e.g. "src/**/*.go" (default: all files).`},
			"search":   str("Literal text to search for; matching lines rank higher."),
			"model":    str("Model whose tokenizer counts, e.g. gpt-4o, claude-sonnet-4."),
			"encoding": encodingSchema(),
			"format":   {Type: "string", Enum: []any{"markdown", "xml"}},
			"sources": {Type: "array", Description: "Extra inputs, as acode/packContext.", Items: &jsonschema.Schema{
				Type:     "object",
				Required: []string{"type"},
				Properties: map[string]*jsonschema.Schema{
					"type":      {Type: "string", Enum: []any{"tool_result", "open_file", "search_result", "reference"}},
					"label":     {Type: "string"},
					"content":   {Type: "string"},
					"uri":       str("file:// URI under the root"),
					"range":     rangeSchema(),
					"relevance": {Type: "number", Minimum: ptr(0.0), Maximum: ptr(1.0)},
					"timestamp": {Type: "string", Format: "date-time"},
				},
			}},
		},
	}
}

// rangeSchema is an LSP range (0-based lines).
func rangeSchema() *jsonschema.Schema {
	pos := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "object", Required: []string{"line", "character"}, Properties: map[string]*jsonschema.Schema{
			"line": {Type: "integer", Minimum: ptr(0.0)}, "character": {Type: "integer", Minimum: ptr(0.0)},
		}}
	}
	return &jsonschema.Schema{Type: "object", Description: "0-based lines", Required: []string{"start", "end"},
		Properties: map[string]*jsonschema.Schema{"start": pos(), "end": pos()}}
}

// encodingSchema names the encodings a call may count with.
func encodingSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: "Encoding instead of a model.", Enum: []any{
		"o200k_base", "cl100k_base", "p50k_base", "r50k_base", "llama3", "qwen3", "deepseek_v3", "gemma3"}}
}

func ptr[T any](v T) *T { return &v }

// packContext runs the pipeline of acode/packContext: the workspace (or
// the files under it matching paths) as open_file sources, the search and
// the explicit sources, packed under budget — the context's room, as the
// command line's --budget means it — capped so that the whole result fits
// the server's --max-result-tokens. The result is text only: the packed
// context, byte for byte what `acode-lsp pack --budget N` prints, then one
// summary line.
func (s *Server) packContext(ctx context.Context, c *call, in *packInput) (*sdk.CallToolResult, error) {
	asked := DefaultPackBudget
	if in.Budget != nil {
		if *in.Budget <= 0 {
			return nil, invalidParams("budget", fmt.Sprintf("must be a positive number of tokens, such as 8000 or \"8k\", not %d", *in.Budget))
		}
		asked = int(*in.Budget)
	}
	total, capped := asked, false
	if limit := s.opts.MaxResultTokens - summaryReserve; total > limit {
		total, capped = max(1, limit), true
	}
	srcs, err := wire.Sources(in.Sources) // a failure is recorded as the pack's, below
	req := pack.Request{Query: in.Query, Model: in.Model, Encoding: in.Encoding, Format: in.Format,
		Budget: session.ContextBudget(total), Sources: srcs}
	if len(in.Paths) > 0 {
		req.Include = in.Paths
		req.Paths = walkBases(c.env.roots, req.Include)
	} else {
		req.Paths = c.sess.Roots() // as `acode-lsp pack ROOT`
	}
	if in.Search != "" {
		req.Search = &pack.Search{Pattern: in.Search}
	}
	if err != nil {
		s.stats.Record(nil, 0, err)
		return nil, err
	}
	tok, err := c.sess.Tokenizer("", "", "") // what addTool's cap counts with
	if err != nil {
		return nil, err
	}
	// The summary and the boundary between it and the context cost a few
	// tokens that BPE does not add up exactly: a result over the cap is
	// packed again with the budget lowered by the overshoot.
	defer boundMemory() // memory.go
	for attempt := 0; ; attempt++ {
		start := time.Now()
		res, err := c.sess.Pack(ctx, req, nil, nil)
		s.stats.Record(res, time.Since(start), err)
		if err != nil {
			return nil, err
		}
		text := res.Content
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "\n" + packSummary(res, asked, total, capped)
		over := tok.Count(text) - s.opts.MaxResultTokens
		if over <= 0 || attempt == 3 || total <= over {
			c.log.Info("packed", zap.Int("tokens", res.TokenCount), zap.Int("budget", total), zap.Int("included", len(res.Included)), zap.Int("excluded", len(res.Excluded)))
			return textResult(text), nil
		}
		total, capped = max(1, total-2*over-4), true
		req.Budget = session.ContextBudget(total)
	}
}

// packSummary is the line after a packed context (≤ 40 o200k tokens):
// "[acode-lsp: 7,812 tokens · 23 chunks from 9 files · 41 left out]",
// saying when the budget was capped and when counts are estimates.
func packSummary(res *pack.Result, asked, total int, capped bool) string {
	files := map[string]bool{}
	for _, it := range res.Included {
		files[it.Path+"\x00"+it.Label] = true
	}
	tokens := comma(res.TokenCount) + " tokens"
	if !res.Exact {
		tokens = "≈" + tokens
	}
	chunks := "chunks"
	if len(res.Included) == 1 {
		chunks = "chunk"
	}
	fileWord := "files"
	if len(files) == 1 {
		fileWord = "file"
	}
	line := fmt.Sprintf("[acode-lsp: %s · %s %s from %s %s · %s left out", tokens, comma(len(res.Included)), chunks, comma(len(files)), fileWord, comma(len(res.Excluded)))
	if capped {
		line += fmt.Sprintf(" · budget %s capped to %s (--max-result-tokens)", comma(asked), comma(total))
	}
	return line + "]"
}

// comma formats 12345 as "12,345".
func comma(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + comma(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// walkBases returns the directories the globs can match under (their
// static prefixes: "src/**/*.go" → src), so that a pack restricted to a
// part of a large workspace walks only that part; nil (walk every root)
// when a glob can match anywhere, when there are several roots (globs then
// name a secondary root by its base name), or when no prefix exists.
func walkBases(roots, globs []string) []string {
	if len(roots) != 1 {
		return nil
	}
	var bases []string
	for _, g := range globs {
		base, _ := doublestar.SplitPattern(strings.TrimPrefix(g, "./"))
		if base == "." || base == "" || strings.HasPrefix(base, "/") || slices.Contains(strings.Split(base, "/"), "..") {
			return nil // everywhere, or invalid: the pipeline reports it
		}
		abs := filepath.Join(roots[0], filepath.FromSlash(base))
		if _, err := os.Lstat(abs); err == nil && !slices.Contains(bases, abs) {
			bases = append(bases, abs)
		}
	}
	return bases
}
