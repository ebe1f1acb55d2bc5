package collector_test

import (
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// TestCorpusNoLeaks redacts a deterministic sample of the evaluation corpus
// (every third generated file and every hostile shape; the whole corpus is
// `make eval-secrets`) and requires that no planted secret survives: every
// family of the corpus is a format docs/security.md promises.
func TestCorpusNoLeaks(t *testing.T) {
	cases := secreteval.Corpus(42)
	checked := 0
	for i, c := range cases {
		if i%3 != 0 && !strings.HasPrefix(c.Family, "shape:") {
			continue
		}
		checked++
		out, _ := collector.Redact(c.Text)
		if leaked := secreteval.Leaked(c, out); len(leaked) > 0 {
			t.Errorf("%s in %s (%s): leaked %q\n%s", c.Family, c.Form, c.Path, leaked, out)
		}
		if strings.Count(out, "\n") != strings.Count(c.Text, "\n") {
			t.Errorf("%s in %s: line count changed", c.Family, c.Form)
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d corpus files checked", checked)
	}
}
