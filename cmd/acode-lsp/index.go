package main

import (
	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/pack"
)

// openIndex opens the persistent workspace index of roots (docs/index.md)
// unless off (--no-index); the returned function flushes and closes it. An
// index that cannot be opened (no cache directory, a read-only one) only
// means a slower pack: the pack goes on without it (a nil index), and says
// nothing, so its output does not depend on the cache.
func openIndex(roots []string, off bool) (pack.FileIndex, func()) {
	if off {
		return nil, func() {}
	}
	set, _ := index.OpenSet(roots, index.Options{})
	if !set.Usable() {
		return nil, func() {}
	}
	return set, func() {
		_ = set.Close()
		if indexClosed != nil {
			indexClosed(set.Stats())
		}
	}
}

// indexClosed, when set (by tests), is told the statistics of each index a
// command closes.
var indexClosed func(index.Stats)
