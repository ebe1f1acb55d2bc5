package tokenizer

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var hfFuzzN = flag.Int("hf.fuzz", 0, "TestHFFuzzBatch: number of random and mutated texts to compare with Hugging Face tokenizers, seeded by the time (0 = 1,000 with a fixed seed, as in CI)")

// TestHFFuzzBatch is the differential fuzzing of the Hugging Face encodings:
// a Go fuzz target cannot call node cheaply, so a batch of texts — random
// characters of every class, added-token words, random bytes, and corpus
// excerpts with characters and words spliced in — is counted by the
// reference in one run and compared. With -hf.fuzz=N (make
// fuzz-tokenizer-hf) the seed is the time unless HF_FUZZ_SEED is set; a
// failure prints it. Without the flag (go test, CI) it is a deterministic
// 1,000-text batch.
func TestHFFuzzBatch(t *testing.T) {
	n := *hfFuzzN
	seed := uint64(time.Now().UnixNano())
	if n <= 0 {
		n, seed = 1000, 1
	}
	if s := os.Getenv("HF_FUZZ_SEED"); s != "" {
		seed = 0
		for _, c := range s {
			seed = seed*10 + uint64(c-'0')
		}
	}
	r := rand.New(rand.NewPCG(seed, 99))
	var corpus []string
	entries, _ := os.ReadDir(corpusDir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(corpusDir, e.Name()))
		if err == nil && len(b) > 0 {
			corpus = append(corpus, toValidUTF8(string(b)))
		}
	}
	texts := hfRandomTexts(seed, n/2)
	for len(texts) < n {
		c := corpus[r.IntN(len(corpus))]
		i := r.IntN(len(c))
		j := min(len(c), i+1+r.IntN(300))
		var sb strings.Builder
		sb.WriteString(c[i:j])
		for k := r.IntN(4); k > 0; k-- {
			s := sb.String()
			at := r.IntN(len(s) + 1)
			ins := hfWords[r.IntN(len(hfWords))]
			if r.IntN(2) == 0 {
				ins = string(hfPalette[r.IntN(len(hfPalette))])
			}
			sb.Reset()
			sb.WriteString(s[:at])
			sb.WriteString(ins)
			sb.WriteString(s[at:])
		}
		texts = append(texts, toValidUTF8(sb.String()))
	}
	start := time.Now()
	var in strings.Builder
	for _, s := range texts {
		b, _ := jsonString(s)
		in.WriteString(b)
		in.WriteByte('\n')
	}
	lines := runHF(t, []byte(in.String()), "-e", strings.Join(hfEncodings, ","), "--jsonl")
	refTime := time.Since(start)
	if len(lines) != len(texts) {
		t.Fatalf("reference answered %d lines for %d texts", len(lines), len(texts))
	}
	bad := 0
	for _, name := range hfEncodings {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if got, want := tk.Count(text), lines[i].Counts[name]; got != want {
				if bad++; bad <= 20 {
					t.Errorf("%s: Count(%q) = %d, Hugging Face tokenizers says %d (HF_FUZZ_SEED=%d)", name, text, got, want, seed)
				}
			}
		}
	}
	t.Logf("%d texts × %d encodings compared in %v (reference %v), seed %d, %d differences", len(texts), len(hfEncodings), time.Since(start), refTime, seed, bad)
}

func jsonString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
