package conversation

import (
	"sort"
	"strings"
)

// ContextLimits maps model names (or name prefixes) to the size of their
// context window in tokens. Lookups match the longest prefix, so "gpt-4o"
// covers "gpt-4o-2024-08-06". Copy [DefaultContextLimits] and add or change
// entries to override the table (a config's value wins over the default).
type ContextLimits map[string]int

// defaultContextLimits is the one table of known context windows. Keep it
// in sync with docs/conversation.md.
var defaultContextLimits = ContextLimits{
	"gpt-5":             400000,
	"gpt-4.1":           1047576,
	"gpt-4o":            128000,
	"gpt-4-turbo":       128000,
	"gpt-4-1106":        128000,
	"gpt-4-0125":        128000,
	"gpt-4-32k":         32768,
	"gpt-4":             8192,
	"gpt-3.5-turbo":     16385,
	"o1":                200000,
	"o1-mini":           128000,
	"o3":                200000,
	"o4-mini":           200000,
	"claude-3":          200000,
	"claude-3-5":        200000,
	"claude-3-7":        200000,
	"claude-sonnet-4":   200000,
	"claude-opus-4":     200000,
	"claude-haiku-4":    200000,
	"claude-2":          100000,
	"gemini-1.5-pro":    2097152,
	"gemini-1.5-flash":  1048576,
	"gemini-2.0-flash":  1048576,
	"gemini-2.5":        1048576,
	"llama-3.1":         128000,
	"llama-3.3":         128000,
	"mistral-large":     128000,
	"deepseek-chat":     128000,
	"deepseek-reasoner": 128000,
}

// DefaultContextLimits returns a copy of the built-in table of context
// windows, ready to be extended with overrides.
func DefaultContextLimits() ContextLimits {
	out := make(ContextLimits, len(defaultContextLimits))
	for k, v := range defaultContextLimits {
		out[k] = v
	}
	return out
}

// Lookup returns the context window of model: an exact (case-insensitive)
// entry, else the longest entry that is a prefix of the name. A nil table
// means [DefaultContextLimits].
func (l ContextLimits) Lookup(model string) (int, bool) {
	if l == nil {
		l = defaultContextLimits
	}
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "" {
		return 0, false
	}
	best, bestLen := 0, -1
	for name, limit := range l {
		n := strings.ToLower(name)
		if m == n {
			return limit, true
		}
		if strings.HasPrefix(m, n) && len(n) > bestLen {
			best, bestLen = limit, len(n)
		}
	}
	return best, bestLen >= 0
}

// Models lists the table's entries in name order (for docs and the CLI).
func (l ContextLimits) Models() []string {
	if l == nil {
		l = defaultContextLimits
	}
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
