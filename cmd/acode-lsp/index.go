package main

import (
	"io"
	"os"

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
	// The terms of the files a pack scans are stored after its answer
	// (index.LaterSet): closing runs that job, then writes the index.
	ls := index.Later(set)
	return ls, func() {
		_ = ls.Close()
		if indexClosed != nil {
			indexClosed(ls.Stats())
		}
	}
}

// indexClosed, when set (by tests), is told the statistics of each index a
// command closes.
var indexClosed func(index.Stats)

// endAnswer closes the process's standard output once a pack has written
// its answer there, so that a reader of the pipe has the whole answer
// (its end of file) while the index is still being written: the first
// pack of a tree does not make its reader wait for the index. Anything
// else (a test's buffer) is left alone.
func endAnswer(w io.Writer) {
	if f, ok := w.(*os.File); ok && f == os.Stdout {
		_ = f.Close()
	}
}
