package collector

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// holdsVariants are texts near a corpus text: the text, its upper- and
// lower-case spellings, its halves, its lines reversed and each line
// without its first byte (names and values cut short, markers split).
func holdsVariants(text string) []string {
	lines := strings.Split(text, "\n")
	rev := make([]string, len(lines))
	cut := make([]string, len(lines))
	for i, l := range lines {
		rev[len(lines)-1-i] = l
		if l != "" {
			cut[i] = l[1:]
		}
	}
	return []string{text, strings.ToUpper(text), strings.ToLower(text), text[:len(text)/2], text[len(text)/2:],
		strings.Join(rev, "\n"), strings.Join(cut, "\n")}
}

// TestHoldsSecretIsRedact: HoldsSecret answers exactly whether Redact
// replaces anything, on the secret evaluation corpus (every family and
// hostile shape of a seed, two without -short, with near variants of each text), Go's own
// sources (net/http, crypto, encoding; all of $GOROOT/src without -short)
// and texts made of two corpus files each. Both answers must occur.
func TestHoldsSecretIsRedact(t *testing.T) {
	var texts []string
	seeds := []uint64{42, 7}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		for _, c := range secreteval.Corpus(seed) {
			texts = append(texts, holdsVariants(c.Text)...)
		}
	}
	n := len(texts)
	for i := 0; i+1 < n; i += 97 {
		texts = append(texts, texts[i]+"\n"+texts[n-1-i])
	}
	dirs := []string{"net/http", "crypto", "encoding"}
	if !testing.Short() {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		_ = filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src", d), func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return nil
			}
			if info, err := e.Info(); err != nil || info.Size() > 1<<20 {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil {
				texts = append(texts, string(data))
			}
			return nil
		})
	}
	held := 0
	for i, text := range texts {
		_, k := Redact(text)
		if got := HoldsSecret(text); got != (k > 0) {
			t.Fatalf("text %d: HoldsSecret = %v, Redact counts %d\n%.2000s", i, got, k, text)
		}
		if k > 0 {
			held++
		}
	}
	if held < 1000 || len(texts)-held < 1000 {
		t.Fatalf("%d texts hold a secret, %d do not: the corpus must have many of both", held, len(texts)-held)
	}
	t.Logf("%d texts, %d hold a secret", len(texts), held)
}
