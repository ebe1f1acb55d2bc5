package tokenizer

import (
	"strings"
	"sync"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer/internal/benchcorpus"
)

// benchInputs are the benchmark texts, ~100 KB each.
var benchInputs = sync.OnceValues(func() (map[string]string, error) {
	src, err := benchcorpus.GoSource(100 << 10)
	if err != nil {
		return nil, err
	}
	spaces := strings.Repeat("\tif x {\n\t\treturn   nil\n\t}\n\n    \n", 4000)
	return map[string]string{
		"go":      src,
		"unicode": benchcorpus.Unicode(100 << 10),
		"spaces":  spaces[:100<<10],
	}, nil
})

var benchOrder = []string{"go", "unicode", "spaces"}

func benchCount(b *testing.B, count func(string) int) {
	inputs, err := benchInputs()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range benchOrder {
		text := inputs[name]
		b.Run(name, func(b *testing.B) {
			n := count(text)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				count(text)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtok/s")
			b.ReportMetric(float64(n), "tokens")
		})
	}
}

// BenchmarkCount measures the fast counter: Mtok/s per core.
func BenchmarkCount(b *testing.B) {
	for _, enc := range []string{O200kBase, Cl100kBase} {
		tk, err := ForEncoding(enc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(enc, func(b *testing.B) { benchCount(b, tk.Count) })
	}
}

// BenchmarkReference measures pkoukk/tiktoken-go on the same inputs, for
// the ratio.
func BenchmarkReference(b *testing.B) {
	for _, enc := range []string{O200kBase, Cl100kBase} {
		ref := reference(b, enc)
		b.Run(enc, func(b *testing.B) {
			benchCount(b, func(s string) int { return len(ref.EncodeOrdinary(s)) })
		})
	}
}

// BenchmarkLoad measures building an encoder's rank table from the
// embedded assets (time and memory of a first use).
func BenchmarkLoad(b *testing.B) {
	for _, enc := range officialEncodings {
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := loadRanks(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCachedHit measures a cached count of an already-seen 100 KB text.
func BenchmarkCachedHit(b *testing.B) {
	inputs, err := benchInputs()
	if err != nil {
		b.Fatal(err)
	}
	tk, err := ForEncoding(O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	c := NewCached(tk, 0)
	text := inputs["go"]
	c.Count(text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c.Count(text)
	}
}

// BenchmarkLoadReference measures the tiktoken-go-loader's own decoding of
// the same assets into a map[string]int, for the ratio with BenchmarkLoad.
func BenchmarkLoadReference(b *testing.B) {
	for _, enc := range officialEncodings {
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(enc + ".tiktoken"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountHF measures the Hugging Face encodings: Mtok/s per core.
func BenchmarkCountHF(b *testing.B) {
	for _, enc := range hfEncodings {
		tk, err := ForEncoding(enc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(enc, func(b *testing.B) { benchCount(b, tk.Count) })
	}
}

// BenchmarkLoadHF measures decompressing and indexing an embedded
// vocabulary (time and memory of a first use; B/op is what loading
// allocates, most of which the model keeps).
func BenchmarkLoadHF(b *testing.B) {
	for _, enc := range hfEncodings {
		data, err := vocabFS.ReadFile("vocab/" + enc + ".bpe.gz")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := loadCompiled(enc, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
