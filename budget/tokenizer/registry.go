package tokenizer

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Registry is the tokenizers of one process (a command-line run, a language
// server, an MCP server): it resolves a model or an encoding with [Resolve]
// and keeps one [Cached] tokenizer per encoding, so every count of one
// encoding shares one cache. Tokenizer files ([ForFile]) are keyed by the
// resolved file, not by the spelling of its path, and only the last
// maxRegistryFiles of them are kept (each holds a compiled model): a client
// that names one file a thousand ways, or a thousand files, cannot grow the
// process without bound. Each front end makes one and hands it to the
// packing engine and to whatever else it counts with. It is safe for
// concurrent use.
type Registry struct {
	mu    sync.Mutex
	m     map[string]*Cached // by Tokenizer.Encoding()
	files *lru.Cache[string, *Cached]
}

// maxRegistryFiles bounds the tokenizer files a Registry keeps.
const maxRegistryFiles = 3

// fileIdentified is implemented by tokenizers of a file: the identity of
// the resolved file (real path, size, modification time).
type fileIdentified interface{ fileIdentity() string }

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{m: map[string]*Cached{}, files: mustLRU[string, *Cached](maxRegistryFiles)}
}

// Get returns the cached tokenizer of a model or an encoding (the encoding
// wins; an unknown model gets the heuristic estimate). cacheSize sizes the
// count cache made the first time an encoding is asked for (≤ 0 means
// [DefaultCacheSize]); later calls share that cache whatever their size.
func (r *Registry) Get(model, encoding string, cacheSize int) (Tokenizer, error) {
	t, err := Resolve(model, encoding)
	if err != nil {
		return nil, err
	}
	return r.Add(t, cacheSize), nil
}

// Add returns the cached tokenizer of t's encoding, wrapping t the first
// time the encoding is seen (for tokenizers not named by a model or an
// encoding, such as [ForFile] of a path resolved by the caller). For a
// tokenizer file, every spelling of one file shares the first one's cache
// (and its Encoding).
func (r *Registry) Add(t Tokenizer, cacheSize int) *Cached {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := t.(fileIdentified); ok {
		id := f.fileIdentity()
		if c, ok := r.files.Get(id); ok {
			return c
		}
		c := NewCached(t, cacheSize)
		r.files.Add(id, c)
		return c
	}
	if c, ok := r.m[t.Encoding()]; ok {
		return c
	}
	c := NewCached(t, cacheSize)
	r.m[t.Encoding()] = c
	return c
}

// Stats returns the counters of the count cache of each encoding used.
func (r *Registry) Stats() []CacheStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]CacheStats, 0, len(r.m)+r.files.Len())
	for _, c := range r.m {
		out = append(out, c.Stats())
	}
	for _, c := range r.files.Values() {
		out = append(out, c.Stats())
	}
	return out
}
