package pack

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestCTrimEvery: cutAll's workers return the C heap once per trimEvery
// bytes cut, from one worker or several at once, and not before.
func TestCTrimEvery(t *testing.T) {
	var calls atomic.Int64
	tr := cTrim{trim: func() { calls.Add(1) }}
	tr.cut(trimEvery - 1)
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d trims before %d bytes", n, trimEvery)
	}
	tr.cut(1)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d trims at %d bytes, want 1", n, trimEvery)
	}
	// 4 workers cut 64 files of trimEvery/8 bytes each: 8 × trimEvery in
	// all, so up to 8 trims (a worker whose reset loses a race to another's
	// cut leaves the trim to that worker, so racing workers may trim less
	// often, never more, and not much less with cuts this small).
	calls.Store(0)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 16; i++ {
				tr.cut(trimEvery / 8)
			}
		}()
	}
	wg.Wait()
	if n := calls.Load(); n < 4 || n > 8 {
		t.Fatalf("%d trims over 8 × trimEvery bytes cut by 4 workers, want about 8", n)
	}
}
