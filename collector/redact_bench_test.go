package collector

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// goSources reads Go's net/http, crypto and encoding trees (about 10 MB of
// Go source and test data): the input of the throughput benchmark.
func goSources(b *testing.B) []string {
	var texts []string
	for _, d := range []string{"net/http", "crypto", "encoding"} {
		_ = filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src", d), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Ext(p) != ".go" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil {
				texts = append(texts, string(data))
			}
			return nil
		})
	}
	if len(texts) == 0 {
		b.Fatal("need Go's sources")
	}
	return texts
}

// BenchmarkRedactGoSources measures Redact's throughput on real code
// (docs/security.md: target ≥ 80 MB/s).
func BenchmarkRedactGoSources(b *testing.B) {
	texts := goSources(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			Redact(t)
		}
	}
}

// BenchmarkHoldsSecretGoSources is BenchmarkRedactGoSources for the
// index's check (HoldsSecret: no redacted text, a pooled lower-case copy).
func BenchmarkHoldsSecretGoSources(b *testing.B) {
	texts := goSources(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			HoldsSecret(t)
		}
	}
}
