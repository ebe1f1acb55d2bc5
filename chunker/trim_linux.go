//go:build linux && cgo

package chunker

// #include <malloc.h>
import "C"

// TrimC returns to the system the C heap glibc keeps after tree-sitter
// frees its parsers and trees (malloc_trim): Go's own return of freed
// memory (debug.FreeOSMemory) does not reach it. A process that is done
// parsing for a while (the CLI's index job after a pack's answer) calls it
// so that its peak is not the parse's heap plus what comes next.
func TrimC() { C.malloc_trim(0) }

// CHeap reports the C heap glibc holds from the system (its arenas and
// mmapped blocks) and the part of it in use, in bytes (mallinfo2).
func CHeap() (held, inUse uint64, ok bool) {
	mi := C.mallinfo2()
	return uint64(mi.arena + mi.hblkhd), uint64(mi.uordblks + mi.hblkhd), true
}
