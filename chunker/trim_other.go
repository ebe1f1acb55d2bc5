//go:build !linux || !cgo

package chunker

// TrimC does nothing where the C heap is not glibc's.
func TrimC() {}
