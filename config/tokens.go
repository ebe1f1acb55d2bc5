package config

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxTokenNumber bounds a token number a person types (a billion tokens,
// far above any model's window), so arithmetic on it cannot overflow.
const maxTokenNumber = 1_000_000_000

// ParseTokens reads a token number as a person types it (docs/design.md
// rule 2): "8000", "8k", "8K", "1.5m", "2M", with optional spaces and
// underscores or commas between digits ("16_000", "16,000"). A suffix k
// multiplies by 1,000 and m by 1,000,000; the result must be a whole,
// non-negative number of tokens. The error says what was wrong in words
// that fit after the name of a flag or a field ("--budget 8q: …"). Every
// door (command-line flags, MCP arguments, editor settings) reads its
// numbers with it.
func ParseTokens(s string) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("is empty; give a number of tokens such as 8000 or 8k")
	}
	mult := 1.0
	switch t[len(t)-1] {
	case 'k', 'K':
		mult, t = 1e3, strings.TrimSpace(t[:len(t)-1])
	case 'm', 'M':
		mult, t = 1e6, strings.TrimSpace(t[:len(t)-1])
	}
	digits := strings.NewReplacer("_", "", ",", "").Replace(t)
	if digits == "" || strings.ContainsAny(digits, "eE+xXpP") { // no exponents, signs or hex
		return 0, fmt.Errorf("is not a number of tokens; write it as 8000, 8k or 1.5m")
	}
	f, err := strconv.ParseFloat(digits, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("is not a number of tokens; write it as 8000, 8k or 1.5m")
	}
	if f < 0 {
		return 0, fmt.Errorf("is negative; give a number of tokens such as 8000 or 8k")
	}
	v := f * mult
	if v > maxTokenNumber {
		return 0, fmt.Errorf("is over %s tokens, more than any model takes", "1,000,000,000")
	}
	r := math.Round(v)
	if math.Abs(v-r) > 1e-6 {
		return 0, fmt.Errorf("is not a whole number of tokens")
	}
	return int(r), nil
}

// Tokens is a token number in JSON: an integer (8000) or a string a person
// typed ("8k", "1.5m"), read with [ParseTokens]. JSON null leaves it unset
// in a pointer field.
type Tokens int

// UnmarshalJSON accepts a JSON integer or a string [ParseTokens] reads.
func (t *Tokens) UnmarshalJSON(data []byte) error {
	n, err := DecodeTokens(data)
	if err != nil {
		return err
	}
	*t = Tokens(n)
	return nil
}

// DecodeTokens decodes one JSON value as a token number: an integer, or a
// string such as "8k". A negative integer is returned as it is, so that
// the caller's range check names its own field; a fraction, a boolean, an
// object or a string that is not a token number is an error in plain words.
func DecodeTokens(data []byte) (int, error) {
	v := strings.TrimSpace(string(data))
	switch {
	case v == "" || v == "null":
		return 0, fmt.Errorf("is null; give a number of tokens such as 8000 or \"8k\"")
	case v[0] == '"':
		var s string
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			return 0, fmt.Errorf("is not a valid JSON string")
		}
		return ParseTokens(s)
	case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("is not a number of tokens")
		}
		if f != math.Trunc(f) {
			return 0, fmt.Errorf("is not a whole number of tokens")
		}
		if math.Abs(f) > maxTokenNumber {
			return 0, fmt.Errorf("is over %s tokens, more than any model takes", "1,000,000,000")
		}
		return int(f), nil
	}
	return 0, fmt.Errorf("must be a number of tokens (8000) or a string such as \"8k\", not %s", jsonKind(v))
}

// jsonKind names the kind of a JSON value by its first byte.
func jsonKind(v string) string {
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "this value"
}
