package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/internal/wire"
	"github.com/acode-lsp/acode-lsp/pack"
)

// DefaultPackBudget is pack_context's budget when the call gives none:
// the tokens the returned text may use (no reserves are subtracted).
const DefaultPackBudget = 16000

// maxExcludedShown caps the excluded items of pack_context's structured
// result, so that a large repository's over-budget chunks do not make the
// result larger than the context it describes.
const maxExcludedShown = 100

// packInput is the input of pack_context.
type packInput struct {
	Query    string        `json:"query"`
	Budget   *int          `json:"budget,omitempty"`
	Paths    []string      `json:"paths,omitempty"`
	Search   string        `json:"search,omitempty"`
	Model    string        `json:"model,omitempty"`
	Encoding string        `json:"encoding,omitempty"`
	Format   string        `json:"format,omitempty"`
	Sources  []wire.Source `json:"sources,omitempty"`
}

// packOutput is pack_context's structured result: the acode/packContext
// result without its content (which is the text of the tool result).
type packOutput struct {
	TokenCount int               `json:"tokenCount"`
	Model      string            `json:"model"`
	Encoding   string            `json:"encoding"`
	Exact      bool              `json:"exact"`
	Budget     pack.BudgetResult `json:"budget"`
	Included   []pack.Entry      `json:"included"`
	Excluded   []pack.Entry      `json:"excluded"`
	Dedup      budget.DedupStats `json:"dedup"`
	Warnings   []string          `json:"warnings"`
}

func (s *Server) addPackContext() {
	addTool(s, &sdk.Tool{
		Name:         "pack_context",
		Description:  "Pack the workspace code most relevant to a task into a context that fits a token budget (exact count).",
		InputSchema:  packSchema(),
		OutputSchema: packOutputSchema(),
	}, s.packContext)
}

// packOutputSchema is pack_context's output schema, written out (the
// inferred one repeats the item shape and costs the agent more tokens).
func packOutputSchema() *jsonschema.Schema {
	typ := func(t string) *jsonschema.Schema { return &jsonschema.Schema{Type: t} }
	items := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Ref: "#/$defs/item"}}
	}
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"tokenCount", "encoding", "exact", "included", "excluded", "warnings"},
		Properties: map[string]*jsonschema.Schema{
			"tokenCount": typ("integer"), "model": typ("string"), "encoding": typ("string"), "exact": typ("boolean"),
			"budget": typ("object"), "dedup": typ("object"), "included": items(), "excluded": items(),
			"warnings": {Type: "array", Items: typ("string")},
		},
		Defs: map[string]*jsonschema.Schema{"item": {Type: "object", Properties: map[string]*jsonschema.Schema{
			"type": typ("string"), "path": typ("string"), "label": typ("string"), "startLine": typ("integer"), "endLine": typ("integer"),
			"tokens": typ("integer"), "score": typ("number"), "reason": typ("string"), "detail": typ("string"),
		}}},
	}
}

// packSchema is pack_context's input schema.
func packSchema() *jsonschema.Schema {
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"query"},
		Properties: map[string]*jsonschema.Schema{
			"query":    str("The task or question; ranks code by relevance."),
			"budget":   {Type: "integer", Minimum: ptr(1.0), Description: "Max tokens of the returned text (default 16000)."},
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

// packContext runs the pipeline of acode/packContext: the files under the
// root matching paths (all by default) as open_file sources, the search
// and the explicit sources, packed under budget (capped to the server's
// max result tokens). The text of the result is the packed context.
func (s *Server) packContext(ctx context.Context, c *call, in packInput) (*sdk.CallToolResult, *packOutput, error) {
	total := DefaultPackBudget
	if in.Budget != nil {
		if *in.Budget <= 0 {
			return nil, nil, invalidParams("budget", fmt.Sprintf("must be positive, got %d", *in.Budget))
		}
		total = *in.Budget
	}
	warnings := []string{}
	if total > s.opts.MaxResultTokens {
		warnings = append(warnings, fmt.Sprintf("budget %d capped to %d tokens, the server's --max-result-tokens", total, s.opts.MaxResultTokens))
		total = s.opts.MaxResultTokens
	}
	srcs, err := wire.Sources(in.Sources) // a failure is recorded as the pack's, below
	zero := 0
	req := pack.Request{
		Query: in.Query, Model: in.Model, Encoding: in.Encoding, Format: in.Format,
		Budget:  &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero},
		Sources: srcs, Include: in.Paths,
	}
	if len(req.Include) == 0 {
		req.Include = []string{"**"}
	}
	req.Paths = walkBases(c.env.roots, req.Include)
	if in.Search != "" {
		req.Search = &pack.Search{Pattern: in.Search}
	}
	start := time.Now()
	var res *pack.Result
	if err == nil {
		res, err = c.env.engine.Pack(ctx, req, nil, nil)
	}
	s.stats.Record(res, time.Since(start), err)
	if err != nil {
		return nil, nil, err
	}
	if res.TokenCount > s.opts.MaxResultTokens { // the budget is capped above; the guard keeps the promise
		return nil, nil, domainError(errcode.Budget, fmt.Sprintf("the packed context is %d tokens, over --max-result-tokens %d", res.TokenCount, s.opts.MaxResultTokens), nil)
	}
	out := &packOutput{TokenCount: res.TokenCount, Model: res.Model, Encoding: res.Encoding, Exact: res.Exact,
		Budget: res.Budget, Included: res.Included, Excluded: res.Excluded, Dedup: res.Dedup, Warnings: append(warnings, res.Warnings...)}
	if n := len(out.Excluded); n > maxExcludedShown {
		out.Excluded = out.Excluded[:maxExcludedShown]
		out.Warnings = append(out.Warnings, fmt.Sprintf("excluded lists the first %d of %d excluded items", maxExcludedShown, n))
	}
	c.log.Info("packed", zap.Int("tokens", res.TokenCount), zap.Int("budget", total), zap.Int("included", len(res.Included)), zap.Int("excluded", len(res.Excluded)))
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Content}}}, out, nil
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
