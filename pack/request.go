package pack

import (
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Request is the params object of acode/packContext.
type Request struct {
	Query    string `json:"query,omitempty"`
	Model    string `json:"model,omitempty"`
	Encoding string `json:"encoding,omitempty"`
	// Budget overrides the configured budget for this pack.
	Budget *config.BudgetOverrides `json:"budget,omitempty"`
	// IncludeOpenFiles packs the documents open in the editor as open_file
	// sources; nil means true.
	IncludeOpenFiles *bool          `json:"includeOpenFiles,omitempty"`
	Search           *SearchParams  `json:"search,omitempty"`
	Sources          []SourceParams `json:"sources,omitempty"`
	// Template is an optional Go text/template for the output (an
	// acode-lsp extension; see docs/ranking.md "Format").
	Template string `json:"template,omitempty"`
	// Format is "markdown" (the default when empty) or "xml" (docs/design.md rule
	// 8): <file path="…" lines="…">…</file> and <tool label="…">…</tool>
	// elements. It cannot be combined with Template.
	Format string `json:"format,omitempty"`

	// Paths are files or directories walked as open_file sources (the
	// CLI's PATH arguments); not part of the JSON contract.
	Paths []string `json:"-"`
	// Include are globs (slash-separated, relative to the workspace, "**"
	// for any directories: "cart/**/*.go") that walked files must match;
	// with Include and no Paths every root is walked. The MCP tool
	// pack_context's "paths"; not part of the JSON contract of the LSP.
	Include []string `json:"-"`
}

// SearchParams asks for a workspace search whose matches become
// search_result sources.
type SearchParams struct {
	Pattern    string `json:"pattern"`
	MaxResults int    `json:"maxResults,omitempty"`
	// Regex treats Pattern as an RE2 regular expression (default literal).
	Regex bool `json:"regex,omitempty"`
	// ContextLines around each match (default 5).
	ContextLines *int `json:"contextLines,omitempty"`
}

// SourceParams is one explicit source.
type SourceParams struct {
	Type    string          `json:"type"`
	Label   string          `json:"label,omitempty"`
	Content *string         `json:"content,omitempty"`
	URI     string          `json:"uri,omitempty"`
	Range   *protocol.Range `json:"range,omitempty"`
	// Relevance in [0,1], used instead of the lexical relevance.
	Relevance *float64   `json:"relevance,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`

	// Path is a file path (absolute or relative to the primary root) used
	// instead of URI by the CLI; not part of the JSON contract.
	Path string `json:"-"`
	// StartLine/EndLine are a 1-based inclusive range used by the CLI
	// instead of Range; not part of the JSON contract.
	StartLine, EndLine int `json:"-"`
}

// OpenDoc is a document open in the editor. Its text reaches the pipeline
// through the workspace's overlay (collector.Options.Overlay), the one
// channel for open documents, so it is not repeated here.
type OpenDoc struct {
	AbsPath  string
	Version  int32
	Modified time.Time
}

// Result is the result object of acode/packContext.
type Result struct {
	Content    string              `json:"content"`
	TokenCount int                 `json:"tokenCount"`
	Model      string              `json:"model"`
	Encoding   string              `json:"encoding"`
	Exact      bool                `json:"exact"`
	Estimate   *tokenizer.Estimate `json:"estimate,omitempty"` // docs/design.md#rule-1, when not exact
	Budget     BudgetResult        `json:"budget"`
	Included   []Item              `json:"included"`
	Excluded   []Item              `json:"excluded"`
	Dedup      budget.DedupStats   `json:"dedup"`
	Warnings   []string            `json:"warnings"`
	// Stats is for the budget report (--report); not in the JSON result.
	Stats Stats `json:"-"`
}

// BudgetResult is the budget part of a Result.
type BudgetResult struct {
	Total           int                       `json:"total"`
	SystemReserve   int                       `json:"systemReserve"`
	ResponseReserve int                       `json:"responseReserve"`
	Available       int                       `json:"available"`
	Categories      map[string]CategoryResult `json:"categories"`
}

// CategoryResult is the allocation and use of one category. Used is the
// estimated cost of the category's chunks including their share of headers
// and fences; the exact count is only known for the whole text (TokenCount).
type CategoryResult struct {
	Allocated int `json:"allocated"`
	Used      int `json:"used"`
}

// Item is one included or excluded entry of a Result. Lines are 1-based;
// an input excluded whole before it was read (secret, binary, ignored,
// outside_workspace, too_large, …) has no lines: its startLine and endLine
// are 0, present so every item has the same fields.
type Item struct {
	Type      string  `json:"type"`
	Path      string  `json:"path"`
	Label     string  `json:"label,omitempty"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Tokens    int     `json:"tokens"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason,omitempty"`
	// Detail is, for an included item, "full" (whole chunks) or "outline"
	// (outline lines of a file whose chunks did not fit, docs/design.md#rule-8);
	// for an excluded one, why, in words.
	Detail string `json:"detail,omitempty"`
}

// Stats are the counts and timings of a pack, for the budget report.
type Stats struct {
	Sources, Chunks, Candidates, Selected, Rejected int
	Timings                                         []Timing
	// Cache is what this pack did to the token-count cache (hits, misses
	// and evictions during the pack; size and capacity after it), when
	// the tokenizer is cached.
	Cache *tokenizer.CacheStats
}

// Timing is the duration of one pipeline stage.
type Timing struct {
	Stage    string
	Duration time.Duration
}

// ParamError is an invalid request parameter (-32602 at the RPC boundary).
type ParamError struct {
	Field   string
	Message string
}

func (e *ParamError) Error() string { return fmt.Sprintf("pack: invalid %s: %s", e.Field, e.Message) }

// Param implements [errcode.Param].
func (e *ParamError) Param() (field, message string) { return e.Field, e.Message }

// Error is a domain failure (-32803 with data.code at the RPC boundary).
// Code is one of the codes of [errcode]; the error wraps it, so
// errors.Is(err, errcode.NoContent) holds.
type Error struct {
	Code    errcode.Code
	Message string
	Data    map[string]any
}

// Unwrap returns the code, a sentinel error.
func (e *Error) Unwrap() error { return e.Code }

// Failure implements [errcode.Failure].
func (e *Error) Failure() (errcode.Code, string, map[string]any) { return e.Code, e.Message, e.Data }

func (e *Error) Error() string { return fmt.Sprintf("pack: %s: %s", e.Code, e.Message) }
