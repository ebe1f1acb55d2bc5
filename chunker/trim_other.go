//go:build !linux || !cgo

package chunker

// TrimC does nothing where the C heap is not glibc's.
func TrimC() {}

// CHeap is unknown where the C heap is not glibc's.
func CHeap() (held, inUse uint64, ok bool) { return 0, 0, false }
