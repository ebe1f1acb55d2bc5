package tokenizer

import "unicode/utf8"

// Heuristic is the conservative fallback for unknown models: ceil(chars/3.5)
// tokens, counting chars as runes (each invalid byte counts as one).
func Heuristic() Tokenizer { return heuristic{} }

type heuristic struct{}

// Count implements [Tokenizer]: ceil(runes/3.5) = ceil(2·runes/7).
func (heuristic) Count(text string) int {
	n := utf8.RuneCountInString(text)
	return (2*n + 6) / 7
}

// Encoding implements [Tokenizer].
func (heuristic) Encoding() string { return HeuristicName }

// Exact implements [Tokenizer]; the heuristic is never exact.
func (heuristic) Exact() bool { return false }
