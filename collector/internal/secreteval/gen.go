// Package secreteval builds the evaluation corpus of the secret scanner
// (collector.Redact): credentials of about a hundred and twenty families,
// generated here from the providers' documented formats (never copied from
// real keys or from other projects' test data), planted in files of twenty
// types in the assignment forms of each language, plus hostile shapes.
// Start with [Corpus]; the command collector/internal/cmd/secreteval runs
// it and measures false positives on real sources.
package secreteval

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	hexs   = "0123456789abcdef"
	alnum  = upper + lower + digits
	b64    = alnum + "+/"
	b64url = alnum + "-_"
	b32    = upper + "234567"
)

// gen draws random strings from a seeded source.
type gen struct{ r *rand.Rand }

func (g gen) s(n int, set string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// mixed is n characters of set with at least one digit, one upper- and one
// lower-case letter when the set has them (providers' tokens do).
func (g gen) mixed(n int, set string) string {
	for {
		v := g.s(n, set)
		if (!strings.ContainsAny(set, digits) || strings.ContainsAny(v, digits)) &&
			(!strings.ContainsAny(set, upper) || strings.ContainsAny(v, upper)) &&
			(!strings.ContainsAny(set, lower) || strings.ContainsAny(v, lower)) {
			return v
		}
	}
}

func (g gen) hex(n int) string { return g.mixed(n, hexs) }

func (g gen) uuid() string {
	return g.hex(8) + "-" + g.hex(4) + "-4" + g.hex(3) + "-a" + g.hex(3) + "-" + g.hex(12)
}

func (g gen) num(n int) string { return fmt.Sprint(1+g.r.IntN(9)) + g.s(n-1, digits) }

func (g gen) b64(n int) string { return base64.StdEncoding.EncodeToString([]byte(g.s(n, alnum))) }

func (g gen) jwt() string {
	enc := base64.RawURLEncoding
	h := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	p := enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%s","iat":%s,"name":"%s"}`, g.num(10), g.num(10), g.s(8, lower))))
	return h + "." + p + "." + g.mixed(43, b64url)
}

// password is a human-made password: words, digits and a symbol.
func (g gen) password() string {
	words := []string{"Winter", "Blue", "Falcon", "river", "Tango", "orbit", "Maple", "quartz", "Nova", "ember"}
	syms := "!#%&*+-=?@^_~/@"
	return words[g.r.IntN(len(words))] + g.s(1, syms) + words[g.r.IntN(len(words))] + g.num(3) + g.s(1, syms) + g.s(3, lower)
}
