package tokenizer

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// countingTokenizer counts words and how often it was asked.
type countingTokenizer struct {
	mu    sync.Mutex
	calls int
}

func (c *countingTokenizer) Count(text string) int {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	return len(strings.Fields(text))
}
func (c *countingTokenizer) Encoding() string { return "words" }
func (c *countingTokenizer) Exact() bool      { return true }

func TestCached(t *testing.T) {
	type step struct {
		text string
		want int
	}
	tests := []struct {
		name      string
		size      int
		steps     []step
		wantStats CacheStats
		wantCalls int
	}{
		{
			name:      "default size",
			size:      0,
			steps:     []step{{"a b", 2}, {"a b", 2}, {"c", 1}},
			wantStats: CacheStats{Hits: 1, Misses: 2, Size: 2, Capacity: DefaultCacheSize},
			wantCalls: 2,
		},
		{
			name:      "negative size means default",
			size:      -5,
			steps:     []step{{"", 0}, {"", 0}},
			wantStats: CacheStats{Hits: 1, Misses: 1, Size: 1, Capacity: DefaultCacheSize},
			wantCalls: 1,
		},
		{
			name: "evicts the least recently used",
			size: 2,
			steps: []step{
				{"one", 1}, {"two words", 2}, {"one", 1}, // "one" is now the most recent
				{"three more words", 3}, // evicts "two words"
				{"one", 1},              // hit
				{"two words", 2},        // miss again, evicts "three more words"
			},
			wantStats: CacheStats{Hits: 2, Misses: 4, Evictions: 2, Size: 2, Capacity: 2},
			wantCalls: 4,
		},
		{
			name:      "same length different text",
			size:      10,
			steps:     []step{{"ab cd", 2}, {"abcde", 1}, {"ab cd", 2}},
			wantStats: CacheStats{Hits: 1, Misses: 2, Size: 2, Capacity: 10},
			wantCalls: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inner := &countingTokenizer{}
			c := NewCached(inner, tt.size)
			for i, s := range tt.steps {
				if got := c.Count(s.text); got != s.want {
					t.Errorf("step %d: Count(%q) = %d, want %d", i, s.text, got, s.want)
				}
			}
			if diff := cmp.Diff(tt.wantStats, c.Stats()); diff != "" {
				t.Errorf("Stats() (-want +got):\n%s", diff)
			}
			if inner.calls != tt.wantCalls {
				t.Errorf("inner tokenizer called %d times, want %d", inner.calls, tt.wantCalls)
			}
			if c.Encoding() != "words" || !c.Exact() {
				t.Errorf("Encoding, Exact = %q, %v; want the inner tokenizer's", c.Encoding(), c.Exact())
			}
		})
	}
}

func TestCachedExactTokenizer(t *testing.T) {
	for _, name := range append(Encodings(), HeuristicName) {
		t.Run(name, func(t *testing.T) {
			var tk Tokenizer = Heuristic()
			if name != HeuristicName {
				var err error
				if tk, err = ForEncoding(name); err != nil {
					t.Fatal(err)
				}
			}
			c := NewCached(tk, 4)
			text := "package main\n\nfunc main() { println(\"héllo 世界\") }\n"
			want := tk.Count(text)
			for i := range 3 {
				if got := c.Count(text); got != want {
					t.Errorf("call %d: Count = %d, want %d", i, got, want)
				}
			}
			if c.Encoding() != tk.Encoding() || c.Exact() != tk.Exact() {
				t.Errorf("Encoding, Exact = %q, %v; want %q, %v", c.Encoding(), c.Exact(), tk.Encoding(), tk.Exact())
			}
		})
	}
}

// TestCachedConcurrent runs counts from many goroutines (meant for -race)
// and checks the counters add up.
func TestCachedConcurrent(t *testing.T) {
	tk, err := ForEncoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCached(tk, 16)
	texts := make([]string, 32)
	want := make([]int, len(texts))
	for i := range texts {
		texts[i] = fmt.Sprintf("text number %d: %s", i, strings.Repeat("go ", i))
		want[i] = tk.Count(texts[i])
	}
	const workers, rounds = 8, 200
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (w*7 + r) % len(texts)
				if got := c.Count(texts[i]); got != want[i] {
					errs <- fmt.Sprintf("Count(texts[%d]) = %d, want %d", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	s := c.Stats()
	if s.Hits+s.Misses != workers*rounds {
		t.Errorf("hits %d + misses %d != %d calls", s.Hits, s.Misses, workers*rounds)
	}
	if s.Size > 16 || s.Capacity != 16 || s.Evictions == 0 {
		t.Errorf("Stats() = %+v, want size ≤ 16, capacity 16, some evictions", s)
	}
}
