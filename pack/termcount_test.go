package pack

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTermCounterMatchesScanTerms: the fast counter counts exactly what
// scanTerms yields, and termTable holds exactly its terms, on real code of every kind in GOROOT and on random
// strings of word pieces, separators and other scripts.
func TestTermCounterMatchesScanTerms(t *testing.T) {
	terms := queryTerms("parseHTTPRequest2 normalize_path carts Client.close() idle connections in µs Größe 配置 x2 v8 read")
	var texts []string
	root := filepath.Join(runtime.GOROOT(), "src")
	for _, dir := range []string{"net/http", "unicode", "strconv", "html/template"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	if len(texts) < 50 {
		t.Fatalf("found %d GOROOT files under %s", len(texts), root)
	}
	pieces := []string{"parse", "HTTP", "Request", "2", "_", "__", "normalize", "path", "Path", "cart", "Carts", "s", "ss", "CLIENT", "close", "µs", "Größe", "größe", "配置", "x", "X2", "v8", " ", "\n", ".", "()", "é", "\u00a0", "\xff", "read", "Reads", "idle", "connection", "a", "ÀB", "İ"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for j := rng.Intn(30); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	c := newTermCounter(terms)
	for _, text := range texts {
		want := make([]uint16, len(terms))
		scanTerms(text, false, c.lens, func(tb []byte) {
			if k, ok := c.index[string(tb)]; ok {
				want[k]++
			}
		})
		got := make([]uint16, len(terms))
		c.count(text, got)
		all := map[string]int{}
		scanTerms(text, true, nil, func(tb []byte) { all[string(tb)]++ })
		if diff := cmp.Diff(all, termTable(text)); diff != "" {
			t.Fatalf("term table differs (-scanTerms +termTable):\n%s", diff)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			short := text
			if len(short) > 200 {
				short = short[:200]
			}
			t.Fatalf("counts differ for %q (-scanTerms +counter):\n%s", short, diff)
		}
	}
}
