package collector

import (
	"regexp"
	"testing"
)

// TestLazyRegexpsCompile compiles every provider rule's expression, so a
// broken one fails here rather than at a rule's first use, and checks the
// lazily compiled expression is the rule's own.
func TestLazyRegexpsCompile(t *testing.T) {
	for _, ru := range rules {
		if _, err := regexp.Compile(ru.expr); err != nil {
			t.Errorf("rule %s: %v", ru.id, err)
			continue
		}
		if got := ru.re().String(); got != ru.expr {
			t.Errorf("rule %s compiles %q, want %q", ru.id, got, ru.expr)
		}
		if ru.re() != ru.re() {
			t.Errorf("rule %s: compiled twice", ru.id)
		}
	}
}
