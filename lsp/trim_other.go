//go:build !linux || !cgo

package lsp

// trimC does nothing where the C heap is not glibc's.
func trimC() {}

// cHeap is unknown where the C heap is not glibc's.
func cHeap() (held, inUse uint64, ok bool) { return 0, 0, false }
