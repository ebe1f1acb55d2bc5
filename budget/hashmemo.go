package budget

import (
	"sync"

	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// hashMemoMin is the shortest text whose NormalizedHash is remembered:
// below it, computing costs about what remembering does.
const hashMemoMin = 256

// hashMemoMax bounds the remembered hashes (about 80 bytes each, 5 MB);
// past it the memo starts again empty.
const hashMemoMax = 1 << 16

// hashMemo remembers NormalizedHash by a 128-bit hash of the text (two
// seeded maphash sums, an order of magnitude faster than folding and
// SHA-256): a running server's warm pack hashes the same chunks of the
// same files on every pack for dedup (issue 24: 13 % of a warm MCP pack of
// net/http). The text itself is not kept.
var hashMemo = struct {
	sync.Mutex
	m map[textid.Key][32]byte
}{m: map[textid.Key][32]byte{}}

// rememberedHash is normalizedHash(text), from the memo when it has it.
func rememberedHash(text string) [32]byte {
	k := textid.Of(text)
	hashMemo.Lock()
	h, ok := hashMemo.m[k]
	hashMemo.Unlock()
	if ok {
		return h
	}
	h = normalizedHash(text)
	hashMemo.Lock()
	if len(hashMemo.m) >= hashMemoMax {
		clear(hashMemo.m)
	}
	hashMemo.m[k] = h
	hashMemo.Unlock()
	return h
}
