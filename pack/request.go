package pack

import (
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/config"
)

// Request is what one pack is asked for, in the pipeline's own terms:
// files by path and lines 1-based. It is no wire type: each front end
// converts its own params into it and reports what does not convert in its
// own words — the language server's acode/packContext
// (lsp/pack_context.go) and the MCP tool pack_context (mcp/pack_context.go)
// through internal/wire (file: URIs, 0-based LSP ranges), the command line
// from its flags (cmd/acode-lsp/pack.go).
type Request struct {
	// Query is the task the chunks are ranked against (may be empty).
	Query string
	// Model and Encoding name the tokenizer (the encoding wins); empty
	// means the configured one.
	Model    string
	Encoding string
	// Budget overrides the configured budget for this pack.
	Budget *config.BudgetOverrides
	// IncludeOpenFiles packs the documents open in the editor as open_file
	// sources; nil means true.
	IncludeOpenFiles *bool
	Search           *Search
	Sources          []Source
	// Template is an optional Go text/template for the output (an
	// acode-lsp extension; see docs/ranking.md "Format").
	Template string
	// Format is "markdown" (the default when empty) or "xml" (docs/design.md rule
	// 8): <file path="…" lines="…">…</file> and <tool label="…">…</tool>
	// elements. It cannot be combined with Template.
	Format string
	// Paths are files or directories walked as open_file sources (the
	// CLI's PATH arguments).
	Paths []string
	// Include are globs (slash-separated, relative to the workspace, "**"
	// for any directories: "cart/**/*.go") that walked files must match;
	// with Include and no Paths every root is walked (the MCP tool
	// pack_context's "paths").
	Include []string
	// TextOnly says the caller reads only the result's Content,
	// TokenCount, Budget and Included (the command line's pack without
	// --json or --report): a map may then be answered from its plan
	// (mapplan.go), whose result has no excluded entries, dedup figures
	// or stats. Not part of any wire request.
	TextOnly bool `json:"-"`
}

// Search asks for a workspace search whose matches become search_result
// sources.
type Search struct {
	Pattern    string
	MaxResults int
	// Regex treats Pattern as an RE2 regular expression (default literal).
	Regex bool
	// ContextLines around each match (default 5).
	ContextLines *int
}

// Source is one explicit source: a tool result (Label, Content), or a file
// by Path, with its Content when the client has it, optionally restricted
// to lines StartLine..EndLine.
type Source struct {
	// Type is tool_result, open_file, search_result or reference.
	Type    string
	Label   string
	Content *string
	// Path is a file path, absolute or relative to the primary root.
	Path string
	// StartLine and EndLine are a 1-based inclusive range; 0 for the whole
	// file, an EndLine of 0 for the StartLine alone.
	StartLine, EndLine int
	// Relevance in [0,1], used instead of the lexical relevance.
	Relevance *float64
	// Timestamp is a time of the user's activity (gives recency).
	Timestamp *time.Time
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
	Included   []Entry             `json:"included"`
	Excluded   []Entry             `json:"excluded"`
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

// Entry is one included or excluded entry of a Result (and of a Preview):
// a chunk, an outline or an input left out. It is not [budget.Item], the
// candidate chunk on its way through selection. Lines are 1-based;
// an input excluded whole before it was read (secret, binary, ignored,
// outside_workspace, too_large, …) has no lines: its startLine and endLine
// are 0, present so every item has the same fields.
type Entry struct {
	Type      string  `json:"type"`
	Path      string  `json:"path"`
	Label     string  `json:"label,omitempty"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Tokens    int     `json:"tokens"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason,omitempty"`
	// Origin says where the text came from: [OriginEditor],
	// [OriginWorkspace], [OriginSearch] or [OriginRequest].
	Origin string `json:"origin,omitempty"`
	// Detail is, for an included item, "full" (whole chunks) or "outline"
	// (outline lines of a file whose chunks did not fit, docs/design.md#rule-8);
	// for an excluded one, why, in words.
	Detail string `json:"detail,omitempty"`
}

// Stats are the counts and timings of a pack, for the budget report.
type Stats struct {
	Sources, Chunks, Candidates, Selected, Rejected int
	// FilesRanked and FilesChunked count the walked files a file-first
	// walk scored and those it chunked (docs/ranking.md "File-first
	// selection"); BytesNotExamined is the text of the others.
	FilesRanked, FilesChunked int
	BytesNotExamined          int64
	Timings                   []Timing
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
