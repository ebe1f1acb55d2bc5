package tokenizer

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// naiveSplit is the definition the automaton must match: at each position
// the longest token starting there, else one byte on.
func naiveSplit(tokens []string, s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		best := 0
		for _, t := range tokens {
			if t != "" && len(t) > best && strings.HasPrefix(s[i:], t) {
				best = len(t)
			}
		}
		if best == 0 {
			i++
			continue
		}
		if i > start {
			out = append(out, "text:"+s[start:i])
		}
		out = append(out, "added:"+s[i:i+best])
		i += best
		start = i
	}
	if start < len(s) {
		out = append(out, "text:"+s[start:])
	}
	return out
}

func splitAll(a *addedSet, s string) []string {
	var out []string
	a.split(s, func(sec string, added bool) {
		if added {
			out = append(out, "added:"+sec)
		} else {
			out = append(out, "text:"+sec)
		}
	})
	return out
}

// TestAddedSetMatchesNaive compares the automaton with the definition on
// random token sets (prefixes and suffixes of each other, over a small
// alphabet so that they overlap) and random texts, across block edges.
func TestAddedSetMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	const alphabet = "abc<>"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		return string(b)
	}
	for iter := range 400 {
		var tokens []string
		for range 1 + rng.Intn(8) {
			tokens = append(tokens, word(1+rng.Intn(6)))
		}
		if iter%10 == 0 {
			tokens = append(tokens, strings.Repeat("a", 40+rng.Intn(30))) // longer than a short text
		}
		a := newAddedSet(tokens)
		n := rng.Intn(300)
		if iter%50 == 0 {
			n = addedBlock*2 + rng.Intn(1000) // several blocks
		}
		text := word(n)
		if got, want := splitAll(a, text), naiveSplit(tokens, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tokens %q text %q:\n got %q\nwant %q", tokens, text, got, want)
		}
	}
	if !newAddedSet(nil).empty() || !newAddedSet([]string{""}).empty() {
		t.Error("no tokens: not empty")
	}
}

// hostileAdded returns tokenizer.json files (the small byte-level one of
// byteLevelJSON) with the added tokens of issue 21's attacks, and the text
// that is worst for each.
func hostileAdded(t testing.TB, dir string) []struct{ name, path, text string } {
	long := strings.Repeat("a", 19_999) + "b" // a walk of 19,999 bytes at every "a"
	var prefix []any
	for i := range 60_000 {
		prefix = append(prefix, map[string]any{"id": 1000 + i, "content": fmt.Sprintf("aaaaaaaaaaa%05d", i), "special": false})
	}
	text := strings.Repeat("a", 1<<20)
	return []struct{ name, path, text string }{
		{"one 20000-byte token", writeTokenizerJSON(t, dir, "long.json", func(m map[string]any) {
			m["added_tokens"] = []any{map[string]any{"id": 1000, "content": long, "special": false}}
		}), text},
		{"60000 prefix-sharing tokens", writeTokenizerJSON(t, dir, "prefix.json", func(m map[string]any) {
			m["added_tokens"] = prefix
		}), strings.Repeat("aaaaaaaaaaa0000", (1<<20)/15)},
	}
}

// TestAddedTokensHostileBounded: counting 1 MB with a tokenizer.json
// whose added tokens made the old trie walk hang (issue 21) finishes
// within a deadline, with the plain BPE's count (no token occurs).
func TestAddedTokensHostileBounded(t *testing.T) {
	for _, h := range hostileAdded(t, t.TempDir()) {
		t.Run(h.name, func(t *testing.T) {
			withDeadline(t, 60*time.Second, func() {
				tk, err := ForFile(h.path)
				if err != nil {
					t.Fatal(err)
				}
				got := tk.Count(h.text)
				// Nothing in the text is an added token: the count is the
				// plain BPE's.
				plain, err := ForFile(byteLevelJSON(t, nil))
				if err != nil {
					t.Fatal(err)
				}
				want := plain.Count(h.text)
				if got != want || got == 0 {
					t.Errorf("Count = %d, want %d", got, want)
				}
			})
		})
	}
}

// writeTokenizerJSON writes byteLevelJSON's tokenizer, mutated, in dir.
func writeTokenizerJSON(t testing.TB, dir, name string, mutate func(m map[string]any)) string {
	src := byteLevelJSON(t, mutate)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// BenchmarkAddedTokens measures counting with issue 21's hostile
// tokenizer.json files against the same tokenizer without added tokens
// (the plain BPE), on the text worst for each and on Go source: the
// target is hostile ≤ 3× plain (docs/tokenizer.md records the numbers).
//
//	go test ./budget/tokenizer/ -run '^$' -bench AddedTokens -benchtime 5x
func BenchmarkAddedTokens(b *testing.B) {
	dir := b.TempDir()
	plain, err := ForFile(writeTokenizerJSON(b, dir, "plain.json", nil))
	if err != nil {
		b.Fatal(err)
	}
	inputs, err := benchInputs()
	if err != nil {
		b.Fatal(err)
	}
	goSrc := strings.Repeat(inputs["go"], 10) // ~1 MB
	benchHostile(b, plain, hostileAdded(b, dir), goSrc)
}

// BenchmarkAddedTokensLlama3 is BenchmarkAddedTokens on Llama 3's real
// tokenizer.json (make tokenizer-hf-ref), the hostile added tokens
// injected into it: a fast real BPE to compare with.
//
//	go test ./budget/tokenizer/ -run '^$' -bench AddedTokensLlama3 -benchtime 5x
func BenchmarkAddedTokensLlama3(b *testing.B) {
	src := filepath.Join(hfRefDir, "node_modules", "@lenml", "tokenizer-llama3", "models", "tokenizer.json")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatalf("%v: run make tokenizer-hf-ref", err)
	}
	dir := b.TempDir()
	plain, err := ForFile(src)
	if err != nil {
		b.Fatal(err)
	}
	var hostile []struct{ name, path, text string }
	for _, h := range hostileAdded(b, dir) {
		small, _ := os.ReadFile(h.path)
		var sm, m map[string]any
		if err := json.Unmarshal(small, &sm); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
		added := m["added_tokens"].([]any) // Llama 3's are all special
		for i, a := range sm["added_tokens"].([]any) {
			a.(map[string]any)["id"] = 200_000 + i
			added = append(added, a)
		}
		m["added_tokens"] = added
		out, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		h.path = filepath.Join(dir, "llama3-"+filepath.Base(h.path))
		if err := os.WriteFile(h.path, out, 0o600); err != nil {
			b.Fatal(err)
		}
		hostile = append(hostile, h)
	}
	inputs, err := benchInputs()
	if err != nil {
		b.Fatal(err)
	}
	benchHostile(b, plain, hostile, strings.Repeat(inputs["go"], 10))
}

// benchHostile counts each text with the plain and the hostile tokenizer
// in turn, in the same iteration (so that a busy machine slows both
// alike), and reports the time of each and their ratio.
func benchHostile(b *testing.B, plain Tokenizer, hostileFiles []struct{ name, path, text string }, goSrc string) {
	for _, h := range hostileFiles {
		hostile, err := ForFile(h.path)
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range []struct{ name, text string }{{"worst", h.text}, {"go", goSrc}} {
			b.Run(h.name+"/"+in.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				var tp, th time.Duration
				for b.Loop() {
					t0 := time.Now()
					plain.Count(in.text)
					t1 := time.Now()
					hostile.Count(in.text)
					tp, th = tp+t1.Sub(t0), th+time.Since(t1)
				}
				b.ReportMetric(float64(tp.Milliseconds())/float64(b.N), "plain-ms")
				b.ReportMetric(float64(th.Milliseconds())/float64(b.N), "hostile-ms")
				b.ReportMetric(float64(th)/float64(tp), "ratio")
			})
		}
	}
}
