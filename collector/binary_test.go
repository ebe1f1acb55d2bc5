package collector

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unicode/utf8"
)

// isBinaryByByte is countNonText one byte at a time, without the
// eight-byte fast path, as the reference.
func isBinaryByByte(sample []byte) (ctrl, invalid int) {
	for i := 0; i < len(sample); {
		c := sample[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b) || c == 0x7f {
				ctrl++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && size == 1 && i+utf8.UTFMax <= len(sample) {
			invalid++
		}
		i += size
	}
	return ctrl, invalid
}

// TestIsBinaryFastPath: isBinary decides exactly as the byte-at-a-time
// loop on texts mixing printable ASCII with every byte class the fast
// path must stop at (controls, 0x7f, 0x1f/0x20 and 0x7e/0x80 edges, UTF-8
// sequences split across eight-byte words, invalid bytes).
func TestIsBinaryFastPath(t *testing.T) {
	pieces := []string{"abcdefgh", "x", " ", "~", "\x7f", "\x1f", "\x01", "\t", "\n", "\x1b", "\x80", "\xff", "é", "配置", "\U0001F600", "\xe2\x84", "0123456"}
	rng := rand.New(rand.NewSource(3))
	for n := 0; n < 20000; n++ {
		var b []byte
		for len(b) < rng.Intn(200) {
			b = append(b, pieces[rng.Intn(len(pieces))]...)
		}
		if n%50 == 0 {
			for len(b) < binarySample+100 {
				b = append(b, pieces[rng.Intn(len(pieces))]...)
			}
		}
		sample := b
		if len(sample) > binarySample {
			sample = sample[:binarySample]
		}
		ctrl, invalid := isBinaryByByte(sample)
		want := len(sample) > 0 && (ctrl*10 > len(sample) || invalid*10 > len(sample)*3)
		for _, c := range sample {
			if c == 0 {
				want = true
			}
		}
		if gc, gi := countNonText(sample); gc != ctrl || gi != invalid {
			t.Fatalf("countNonText(%q) = %d control, %d invalid; want %d, %d", sample, gc, gi, ctrl, invalid)
		}
		if got, why := isBinary(b); got != want {
			t.Fatalf("isBinary(%q) = %v (%s), want %v (ctrl %d, invalid %d)", b, got, why, want, ctrl, invalid)
		}
	}
}

// BenchmarkCountNonText: the binary test's count over the first 8 KB of
// GOROOT's net/http sources, eight bytes at a time ("fast") and one byte
// at a time ("byByte").
func BenchmarkCountNonText(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	var samples [][]byte
	var size int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		samples = append(samples, data[:min(len(data), binarySample)])
		size += int64(min(len(data), binarySample))
	}
	for _, bc := range []struct {
		name string
		fn   func([]byte) (int, int)
	}{{"fast", countNonText}, {"byByte", isBinaryByByte}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, s := range samples {
					bc.fn(s)
				}
			}
		})
	}
}
