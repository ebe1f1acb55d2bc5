package lsp

import "testing"

// BenchmarkRequestRoundTrip measures a cheap request (acode/packStats of
// an empty session) through the whole transport: frames, the lifecycle
// gate, routing, a goroutine, the reply. It compares transports
// (docs/benchmarks.md, "Transport").
func BenchmarkRequestRoundTrip(b *testing.B) {
	c := benchClient(b, b.TempDir())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m := c.call(methodPackStats, nil); m.Error != nil {
			b.Fatal(m.Error.Message)
		}
	}
}

// BenchmarkErrorRoundTrip is BenchmarkRequestRoundTrip for a method that
// does not exist, answered -32601.
func BenchmarkErrorRoundTrip(b *testing.B) {
	c := benchClient(b, b.TempDir())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m := c.call("acode/none", nil); m.Error == nil {
			b.Fatal("acode/none answered without an error")
		}
	}
}
