package collector

import "time"

// SourceType says where a source came from; it decides the budget category
// of its chunks.
type SourceType string

// The four source types of the design.
const (
	ToolResult   SourceType = "tool_result"
	OpenFile     SourceType = "open_file"
	SearchResult SourceType = "search_result"
	Reference    SourceType = "reference"
)

// Reason says why an input was not let in. The values are fixed by the
// design; the packing pipeline adds over_budget, duplicate and merged.
type Reason string

// The exclusion reasons the collector produces.
const (
	ReasonBinary      Reason = "binary"
	ReasonSecret      Reason = "secret"
	ReasonIgnored     Reason = "ignored"
	ReasonOutside     Reason = "outside_workspace"
	ReasonTooLarge    Reason = "too_large"
	ReasonUnreadable  Reason = "unreadable"
	ReasonInvalidUTF8 Reason = "invalid_utf8"
	ReasonEmpty       Reason = "empty"
)

// Source is one piece of input before chunking.
type Source struct {
	Type SourceType
	// Path is workspace-relative and slash-separated ("" for tool results).
	// It is always the path of the resolved file, so Path == Rel(AbsPath).
	// Files of a secondary root are prefixed with that root's base name.
	Path string
	// AbsPath is absolute with symlinks resolved ("" for tool results).
	AbsPath string
	// Label names a tool result ("go test ./cart").
	Label string
	// Content is the whole text, already redacted. For ranges it is still
	// the whole file, so line numbers stay true.
	Content string
	// StartLine is the 1-based first line of the range within Content;
	// 0 means the whole content.
	StartLine int
	// EndLine is the 1-based last line (inclusive); 0 means to the end.
	EndLine int
	// Relevance is the source's own relevance in [0,1] when known
	// (search: match density; references: given by the caller).
	Relevance *float64
	// Timestamp is the last change (open documents) or the file's mtime;
	// the zero time means unknown.
	Timestamp time.Time
	// Redactions counts the values replaced by [REDACTED].
	Redactions int
}

// Exclusion is an input that was not let in, with its reason.
type Exclusion struct {
	Type SourceType
	// Path is workspace-relative if the path as given lies inside a root
	// (also a symlink there that resolves outside), else the absolute path
	// as given.
	Path   string
	Reason Reason
	// Detail is human-readable: "matches .gitignore line 3 (*.log) in
	// sub/.gitignore", "5.2 MiB over the 1 MiB cap". It never holds file
	// content.
	Detail string
	Size   int64
}
