package pack

import (
	"strings"
	"sync"

	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// graphWordsMaxBytes bounds what the graph-word memo keeps (the words'
// bytes plus 16 a word); past it the memo starts again empty.
const graphWordsMaxBytes = 16 << 20

// graphWordsMin: a shorter text is scanned, not remembered.
const graphWordsMin = 256

// graphWordsMemo remembers, by a 128-bit hash of a text, its distinct
// identifiers of at least graphMinName bytes in order of first use: what
// graphUses reads of every chunk, which a running server's warm packs
// scanned again for the same chunks (issue 24: 14 % of a warm MCP pack of
// net/http). Words are copied: no text is kept.
var graphWordsMemo = struct {
	sync.Mutex
	m     map[textid.Key][]string
	bytes int
}{m: map[textid.Key][]string{}}

// graphWords calls fn with each identifier of text at least graphMinName
// long in order of use; a remembered text gives each one once, at its
// first use (graphUses counts a word once per file either way). A text is
// remembered the second time it is asked: a one-off pack (the CLI) only
// hashes its texts.
func graphWords(text string, fn func(string)) {
	scan := func() {
		identifiersMin(text, graphMinName, fn)
	}
	if len(text) < graphWordsMin || oneOff.Load() {
		scan()
		return
	}
	k := textid.Of(text)
	graphWordsMemo.Lock()
	words, ok := graphWordsMemo.m[k]
	if !ok {
		graphWordsMemo.m[k] = nil // seen once
		graphWordsMemo.bytes += 48
	}
	graphWordsMemo.Unlock()
	if !ok {
		scan()
		return
	}
	if words == nil {
		size := 48
		scanGraphWords(text, func(w string) {
			words = append(words, strings.Clone(w))
			size += len(w) + 16
		})
		if words == nil {
			words = []string{} // remembered: no word
		}
		graphWordsMemo.Lock()
		if graphWordsMemo.bytes+size > graphWordsMaxBytes {
			clear(graphWordsMemo.m)
			graphWordsMemo.bytes = 0
		}
		graphWordsMemo.m[k] = words
		graphWordsMemo.bytes += size
		graphWordsMemo.Unlock()
	}
	for _, w := range words {
		fn(w)
	}
}

// scanGraphWords is graphWords without the memo.
func scanGraphWords(text string, fn func(string)) {
	seen := map[string]bool{}
	identifiersMin(text, graphMinName, func(w string) {
		if seen[w] {
			return
		}
		seen[w] = true
		fn(w)
	})
}
