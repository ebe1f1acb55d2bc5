package memtune

import (
	"runtime"
	"testing"
)

// sink keeps the allocation below reachable across the collection.
var sink []byte

func TestLiveHeapCountsWhatIsKept(t *testing.T) {
	sink = make([]byte, 32<<20)
	runtime.GC()
	if got := LiveHeap(); got < 32<<20 {
		t.Fatalf("LiveHeap() = %d with 32 MiB kept live, want at least that", got)
	}
	sink = nil
	runtime.GC()
	if got := LiveHeap(); got >= 32<<20 {
		t.Fatalf("LiveHeap() = %d after the 32 MiB were dropped, want less", got)
	}
}
