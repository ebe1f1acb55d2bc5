package conversation

import (
	"fmt"
	"strings"
)

// DefaultToolTokens is the budget of one tool result when a request gives
// none (seed 004's per-tool default): acode/fitToolResult's maxTokens, and
// the most a hint offers per tool call.
const DefaultToolTokens = 8000

// itemTokens are the rough sizes of one item of each tool's output, for
// hints only (a page itself is always counted exactly): a path with a
// little metadata, a search match with its context lines (seed 004: 50
// matches × ~500 chars), a line of code, a diff hunk, a commit with its
// header and message.
var itemTokens = []struct {
	tool      string
	tokens    int
	one, many string
}{
	{ToolProjectFiles, 40, "file", "files"},
	{ToolSearchContent, 140, "search match", "search matches"},
	{ToolReadFile, 10, "line of a file", "lines of a file"},
	{ToolVCSDiff, 250, "diff hunk", "diff hunks"},
	{ToolVCSLog, 60, "commit", "commits"},
}

// ToolHints tell an agent what a tool call may return at the current
// budget (seed 004's budget-aware tool schema): MaxTokens is what to pass
// as acode/fitToolResult's maxTokens — the smaller of [DefaultToolTokens]
// and the tokens Remaining where tool results go — and Tools says what
// that holds per tool ("budget allows ~200 files"). Text is one sentence
// for a tool description or a system prompt.
type ToolHints struct {
	MaxTokens int                 `json:"maxTokens"`
	Remaining int                 `json:"remaining"`
	Section   string              `json:"section,omitempty"`
	Tools     map[string]ToolHint `json:"tools"`
	Text      string              `json:"text"`
	// TrimNeeded and TrimReservedOutputTokens are for
	// acode/checkConversation only. TrimNeeded says to trim before the next
	// model call: the list is over its budget, at the critical level, or
	// has no room left for a full-size tool result (the per-tool default,
	// at most 20 % of the window — the tiers preset's tool share).
	// TrimReservedOutputTokens is what to pass as reservedOutputTokens to
	// acode/trimConversation so that the trimmed list leaves room for the
	// response (the request's reservedOutputTokens or, when it gave none,
	// the tiers preset's response share, 15 % of the window) and one
	// full-size tool result.
	TrimNeeded               bool `json:"trimNeeded,omitempty"`
	TrimReservedOutputTokens int  `json:"trimReservedOutputTokens,omitempty"`
}

// ToolHint is what one tool call of a kind may return: about Items items,
// and the same in words.
type ToolHint struct {
	Items int    `json:"items"`
	Text  string `json:"text"`
}

// Hints computes the tool hints for remaining tokens where tool results go
// (section names that place, or ""), at most perCall tokens per tool call
// (0: [DefaultToolTokens]).
func Hints(remaining, perCall int, section string) ToolHints {
	if perCall <= 0 {
		perCall = DefaultToolTokens
	}
	remaining = max(remaining, 0)
	h := ToolHints{
		MaxTokens: min(perCall, remaining),
		Remaining: remaining,
		Section:   section,
		Tools:     make(map[string]ToolHint, len(itemTokens)),
	}
	var parts []string
	for _, it := range itemTokens {
		n := h.MaxTokens / it.tokens
		noun := it.many
		if n == 1 {
			noun = it.one
		}
		text := fmt.Sprintf("budget allows ~%s %s", thousands(n), noun)
		if it.tool == ToolSearchContent {
			text = fmt.Sprintf("~%s tokens of search results (~%s)", thousands(h.MaxTokens), plural(n, "match", "matches"))
		}
		h.Tools[it.tool] = ToolHint{Items: n, Text: text}
		parts = append(parts, fmt.Sprintf("~%s %s", thousands(n), noun))
	}
	if h.MaxTokens == 0 {
		h.Text = "No budget left for tool results: trim the conversation (acode/trimConversation) or summarise before the next tool call."
		return h
	}
	h.Text = fmt.Sprintf("Budget allows ~%s tokens per tool call (%s tokens left for tool results): %s.",
		thousands(h.MaxTokens), thousands(remaining), strings.Join(parts, ", "))
	return h
}
