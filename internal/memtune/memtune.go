// Package memtune reads what the process's memory tuning is based on:
// the one-shot commands' GC pacing (cmd/acode-lsp/gctune.go) and the MCP
// server's soft memory limit (mcp/memory.go) both start from the live
// heap of the last collection.
package memtune

import "runtime/metrics"

// LiveHeap is the live heap as of the last collection, in bytes; 0 when
// the runtime does not report it (or before the first collection).
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
