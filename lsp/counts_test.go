package lsp

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// realFiles returns up to n source files of GOROOT (Go, assembly, C, text
// and data), sorted, read into memory.
func realFiles(t *testing.T, n int) []string {
	t.Helper()
	var paths []string
	for _, dir := range []string{"src/net/http", "src/regexp", "src/encoding/json", "src/runtime/cgo", "src/unicode", "misc", "doc"} {
		root := filepath.Join(runtime.GOROOT(), dir)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				paths = append(paths, p)
			}
			return nil
		})
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Fatal("no files under GOROOT")
	}
	rng := rand.New(rand.NewSource(14))
	rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	var texts []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil || len(data) == 0 || len(data) > 200_000 {
			continue
		}
		texts = append(texts, string(data))
		if len(texts) == n {
			break
		}
	}
	return texts
}

// edit applies one random edit to text: an insertion, deletion or
// replacement of up to a few bytes (sometimes a newline, a space, a letter
// at a line start, a non-ASCII rune or an invalid byte), or a larger paste.
func edit(rng *rand.Rand, text string) string {
	pieces := []string{"a", "\n", " ", "\t", "}", "/", "//", "\n\n", "x\n", "\nfunc", "é", "日本", "\xff", "\r\n", "  \n", "'s", "123", "\u2028", "\u0085"}
	at := 0
	if len(text) > 0 {
		at = rng.Intn(len(text) + 1)
	}
	if rng.Intn(4) == 0 && len(text) > 0 {
		// Often edit right at a line start or end: where blocks are cut.
		if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
			at += i + rng.Intn(2)
		}
	}
	del := 0
	switch rng.Intn(3) {
	case 1:
		del = rng.Intn(4)
	case 2:
		del = rng.Intn(300)
	}
	del = min(del, len(text)-at)
	ins := ""
	switch rng.Intn(5) {
	case 0:
	case 1:
		// A paste of some other part of the text.
		if len(text) > 0 {
			i := rng.Intn(len(text))
			ins = text[i:min(len(text), i+rng.Intn(500))]
		}
	default:
		for range 1 + rng.Intn(3) {
			ins += pieces[rng.Intn(len(pieces))]
		}
	}
	return text[:at] + ins + text[at+del:]
}

// TestIncrementalCountExact checks, for every encoding of the registry, that
// counting a version from the blocks of the previous one gives the count of
// the whole text, over many random edits of real files, and that the blocks
// tile the text and are each counted right.
func TestIncrementalCountExact(t *testing.T) {
	texts := realFiles(t, 12)
	encs := tokenizer.Encodings()
	for _, must := range []string{tokenizer.O200kBase, tokenizer.Cl100kBase, tokenizer.Llama3} {
		if !tokenizer.AdditiveEncoding(must) {
			t.Errorf("%s is not counted by blocks", must)
		}
	}
	for _, enc := range encs {
		t.Run(enc, func(t *testing.T) {
			tok, err := tokenizer.ForEncoding(enc)
			if err != nil {
				t.Fatal(err)
			}
			if !tokenizer.AdditiveEncoding(enc) {
				// Counted whole (countCache.get); nothing to check here
				// but that the cache says so.
				if blockCounted(tok) {
					t.Fatalf("%s is block counted but not listed", enc)
				}
				return
			}
			rng := rand.New(rand.NewSource(int64(len(enc))))
			recounted := 0
			for fi, text := range texts {
				blocks := recount("", nil, text, tok.Count)
				checkBlocks(t, enc, fi, -1, text, blocks, tok)
				for step := range 25 {
					next := edit(rng, text)
					n := 0
					blocks = recount(text, blocks, next, func(s string) int { n += len(s); return tok.Count(s) })
					recounted += n
					checkBlocks(t, enc, fi, step, next, blocks, tok)
					text = next
				}
			}
			t.Logf("%s: %d bytes recounted over %d edits", enc, recounted, 25*len(texts))
		})
	}
}

// checkBlocks fails unless blocks tile text, each holds its count, and
// their sum is the whole count.
func checkBlocks(t *testing.T, enc string, file, step int, text string, blocks []countBlock, tok tokenizer.Tokenizer) {
	t.Helper()
	pos, sum := 0, 0
	for _, b := range blocks {
		if b.start != pos || b.end < b.start {
			t.Fatalf("%s file %d step %d: block [%d,%d) after %d", enc, file, step, b.start, b.end, pos)
		}
		if got := tok.Count(text[b.start:b.end]); got != b.tokens {
			t.Fatalf("%s file %d step %d: block [%d,%d) holds %d tokens, counts %d", enc, file, step, b.start, b.end, b.tokens, got)
		}
		pos = b.end
		sum += b.tokens
	}
	if pos != len(text) {
		t.Fatalf("%s file %d step %d: blocks end at %d of %d", enc, file, step, pos, len(text))
	}
	if want := tok.Count(text); sum != want {
		t.Fatalf("%s file %d step %d: blocks sum to %d tokens, the whole text counts %d", enc, file, step, sum, want)
	}
}
