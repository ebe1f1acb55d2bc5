package tokenizer

import (
	"hash/maphash"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultCacheSize is the number of counts a [Cached] keeps when
// NewCached is given a size ≤ 0.
const DefaultCacheSize = 10000

// CacheStats is a snapshot of a [Cached]'s counters.
type CacheStats struct {
	Hits      uint64
	Misses    uint64
	Evictions uint64
	Size      int // entries held now
	Capacity  int // most entries held
}

// Cached wraps a Tokenizer with an LRU of counts keyed by a 128-bit content
// hash plus the text's length, never the text itself, so memory stays
// bounded (about 100 bytes per entry) whatever the texts' sizes. It is safe
// for concurrent use.
type Cached struct {
	t   Tokenizer  // what is counted and cached (an estimate's basis)
	est *estimator // non-nil: counts are scaled by its current factor

	cache     *lru.Cache[cacheKey, int]
	capacity  int
	hits      atomic.Uint64
	misses    atomic.Uint64
	evictions atomic.Uint64
}

// cacheKey identifies a text: two independently seeded 64-bit hashes and
// its length. The seeds are random per process, so colliding texts cannot
// be crafted in advance.
type cacheKey struct {
	h1, h2 uint64
	n      int
}

var seed1, seed2 = maphash.MakeSeed(), maphash.MakeSeed()

// NewCached returns t wrapped in an LRU of size entries (size ≤ 0 means
// [DefaultCacheSize]).
func NewCached(t Tokenizer, size int) *Cached {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c := &Cached{t: t, capacity: size}
	if e, ok := t.(*estimator); ok {
		// Cache the exact basis count; the factor may change (calibration).
		c.t, c.est = e.basis, e
	}
	cache, err := lru.NewWithEvict(size, func(cacheKey, int) { c.evictions.Add(1) })
	if err != nil {
		// lru.NewWithEvict only fails for size ≤ 0, excluded above.
		panic("tokenizer: " + err.Error())
	}
	c.cache = cache
	return c
}

// Count returns the wrapped tokenizer's count of text, from the cache when
// the same text was counted before.
func (c *Cached) Count(text string) int {
	n := c.count(text)
	if c.est != nil {
		return scale(n, c.est.Estimate().Factor)
	}
	return n
}

func (c *Cached) count(text string) int {
	k := cacheKey{maphash.String(seed1, text), maphash.String(seed2, text), len(text)}
	if n, ok := c.cache.Get(k); ok {
		c.hits.Add(1)
		return n
	}
	c.misses.Add(1)
	n := c.t.Count(text)
	c.cache.Add(k, n)
	return n
}

// Encoding returns the wrapped tokenizer's encoding.
func (c *Cached) Encoding() string {
	if c.est != nil {
		return c.est.Encoding()
	}
	return c.t.Encoding()
}

// Exact reports whether the wrapped tokenizer is exact.
func (c *Cached) Exact() bool { return c.est == nil && c.t.Exact() }

// estimate implements estimating.
func (c *Cached) estimate() *Estimate {
	if c.est == nil {
		return nil
	}
	e := c.est.Estimate()
	return &e
}

// Stats returns a snapshot of the cache's counters.
func (c *Cached) Stats() CacheStats {
	return CacheStats{
		Hits:      c.hits.Load(),
		Misses:    c.misses.Load(),
		Evictions: c.evictions.Load(),
		Size:      c.cache.Len(),
		Capacity:  c.capacity,
	}
}
