package pack

import (
	"strings"
	"unsafe"
)

// readOnlyBytes returns the bytes of s without a copy, for a reader that
// never writes them (the chunker, the index's hashes): a first map's walk
// copied every file's text once more only to cut it (685 MB of the 100K
// tree's 14 GB of allocations).
func readOnlyBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// lineCount is budget.NewText(s).Lines() without the line index: the
// lines of s, a final newline starting none.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n") + 1
	if s[len(s)-1] == '\n' {
		n--
	}
	return n
}
