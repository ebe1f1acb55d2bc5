package index

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// goHeld is the Go memory the process holds from the system.
func goHeld() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys - ms.HeapReleased)
}

// TestBoundFillLimit: the fill's soft memory limit is fillHeadroom over
// what is in use once the pack's memory is freed, unless the pack itself
// held more (then the pack's own memory: the fill's peak stays the
// pack's), and the limit is restored after.
func TestBoundFillLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)

	// A small pack: the limit is in use + fillHeadroom, far below what a
	// fixed 96 MB headroom gave.
	runtime.GC()
	debug.FreeOSMemory()
	small := goHeld()
	restore := boundFill()
	lim := debug.SetMemoryLimit(-1)
	restore()
	if lim < fillHeadroom || lim > small+fillHeadroom+16<<20 {
		t.Fatalf("small pack: limit %d MB, want about %d + %d MB", lim>>20, small>>20, fillHeadroom>>20)
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Fatalf("limit after restore %d, want %d", got, before)
	}

	// A pack that held 3 × fillHeadroom, freed before the fill: the fill
	// may use what the pack used.
	big := make([][]byte, 0, 3*fillHeadroom>>20)
	for range cap(big) {
		b := make([]byte, 1<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		big = append(big, b)
	}
	held := goHeld()
	runtime.KeepAlive(big)
	big = nil
	restore = boundFill()
	lim = debug.SetMemoryLimit(-1)
	restore()
	if lim < held {
		t.Fatalf("big pack: limit %d MB below the %d MB it held", lim>>20, held>>20)
	}
	if held < 3*fillHeadroom {
		t.Fatalf("the test's pack held %d MB, want at least %d", held>>20, 3*fillHeadroom>>20)
	}
}
