package pack

import (
	"context"
	"crypto/sha256"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// outlineCacheFiles bounds an engine's outline cache: the outline ranges
// of recently outlined files, keyed by path and content hash, so that a
// server's warm pack does not parse a file again for its outline (issue
// 24: re-parsing outlines was 45–68 % of a warm MCP pack). Entries hold
// line ranges only, a few bytes a declaration.
const outlineCacheFiles = 1024

// outlines returns the outline ranges of content (chunker.Outline),
// from the engine's cache when it has them; an error (cancelled) is not
// kept.
func (e *Engine) outline(ctx context.Context, path string, content []byte) ([]chunker.LineRange, error) {
	if e.outlineCache == nil {
		return chunker.Outline(ctx, path, content)
	}
	k := outlineCacheKey(path, content)
	if rs, ok := e.outlineCache.Get(k); ok {
		return rs, nil
	}
	rs, err := chunker.Outline(ctx, path, content)
	if err == nil {
		e.outlineCache.Add(k, rs)
	}
	return rs, err
}

// outlineCacheKey is the cache key of path's content.
func outlineCacheKey(path string, content []byte) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", path)
	h.Write(content)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// addOutline puts the outline ranges rs of content, found with its
// chunks, in the engine's cache, as outline would have.
func (e *Engine) addOutline(path string, content []byte, rs []chunker.LineRange) {
	if e.outlineCache != nil {
		e.outlineCache.Add(outlineCacheKey(path, content), rs)
	}
}

// newOutlineCache returns an empty outline cache.
func newOutlineCache() *lru.Cache[[32]byte, []chunker.LineRange] {
	c, err := lru.New[[32]byte, []chunker.LineRange](outlineCacheFiles)
	if err != nil {
		panic(fmt.Sprintf("pack: outline cache: %v", err)) // only for a size ≤ 0
	}
	return c
}
