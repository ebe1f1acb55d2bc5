//go:build !linux || !cgo

package lsp

// trimC does nothing where the C heap is not glibc's.
func trimC() {}
