package tokenizer

import "testing"

func TestRegistryOneCachePerEncoding(t *testing.T) {
	r := NewRegistry()
	byModel, err := r.Get("gpt-4o", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	byEncoding, err := r.Get("", "o200k_base", 50)
	if err != nil {
		t.Fatal(err)
	}
	if byModel != byEncoding {
		t.Error("gpt-4o and o200k_base got two caches; want one per encoding")
	}
	if c, ok := byModel.(*Cached); !ok || c.Stats().Capacity != DefaultCacheSize {
		t.Errorf("first cache: %T %+v, want a *Cached of %d entries", byModel, byModel, DefaultCacheSize)
	}
	other, err := r.Get("", "cl100k_base", 0)
	if err != nil {
		t.Fatal(err)
	}
	if other == byModel {
		t.Error("cl100k_base shares o200k_base's cache")
	}
	byModel.Count("hello world")
	byEncoding.Count("hello world")
	if got := len(r.Stats()); got != 2 {
		t.Errorf("Stats: %d caches, want 2", got)
	}
	var hits uint64
	for _, s := range r.Stats() {
		hits += s.Hits
	}
	if hits != 1 {
		t.Errorf("hits = %d, want 1 (the second count of the same text)", hits)
	}
}

func TestRegistryErrors(t *testing.T) {
	r := NewRegistry()
	if _, err := r.Get("", "no_such_encoding", 0); err == nil {
		t.Error("unknown encoding: no error")
	}
	if len(r.Stats()) != 0 {
		t.Error("a failed Get left a cache")
	}
}
