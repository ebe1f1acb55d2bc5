//go:build linux && cgo

package lsp

// #include <malloc.h>
import "C"

// trimC returns to the OS the C heap that glibc keeps after tree-sitter
// frees its trees (malloc_trim), which Go's own return does not reach.
func trimC() { C.malloc_trim(0) }
