package tokenizer

import (
	"runtime"
	"testing"
)

// TestHFModelMemory checks that a loaded Hugging Face encoding keeps at most
// 40 MiB (the design's budget per encoder; speed is measured in benchmarks only).
func TestHFModelMemory(t *testing.T) {
	for _, enc := range hfEncodings {
		data, err := vocabFS.ReadFile("vocab/" + enc + ".bpe.gz")
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m, err := loadCompiled(enc, data)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("%s keeps %.1f MiB", enc, float64(kept)/(1<<20))
		if kept > 40<<20 {
			t.Errorf("%s keeps %.1f MiB, want ≤ 40 MiB", enc, float64(kept)/(1<<20))
		}
		runtime.KeepAlive(m)
	}
}
