//go:build linux && cgo

package lsp

// #include <malloc.h>
import "C"

// trimC returns to the OS the C heap that glibc keeps after tree-sitter
// frees its trees (malloc_trim), which Go's own return does not reach.
func trimC() { C.malloc_trim(0) }

// cHeap reports the C heap glibc holds from the OS (its arenas and mmapped
// blocks) and the part of it in use, in bytes (mallinfo2).
func cHeap() (held, inUse uint64, ok bool) {
	mi := C.mallinfo2()
	return uint64(mi.arena + mi.hblkhd), uint64(mi.uordblks + mi.hblkhd), true
}
