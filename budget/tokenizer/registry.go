package tokenizer

import "sync"

// Registry is the tokenizers of one process (a command-line run, a language
// server, an MCP server): it resolves a model or an encoding with [Resolve]
// and keeps one [Cached] tokenizer per encoding, so every count of one
// encoding shares one cache. Each front end makes one and hands it to the
// packing engine and to whatever else it counts with. It is safe for
// concurrent use.
type Registry struct {
	mu sync.Mutex
	m  map[string]*Cached // by Tokenizer.Encoding()
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{m: map[string]*Cached{}}
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
// encoding, such as [ForFile] of a path resolved by the caller).
func (r *Registry) Add(t Tokenizer, cacheSize int) *Cached {
	r.mu.Lock()
	defer r.mu.Unlock()
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
	out := make([]CacheStats, 0, len(r.m))
	for _, c := range r.m {
		out = append(out, c.Stats())
	}
	return out
}
