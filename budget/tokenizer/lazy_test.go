package tokenizer

import (
	"strings"
	"testing"
	"time"
)

// TestRanksBuiltOnFirstCount: resolving an exact encoding does not build
// its rank table; the first count does, and counts as the encoding does;
// Preload builds it in the background.
func TestRanksBuiltOnFirstCount(t *testing.T) {
	text := "func main() { fmt.Println(\"héllo, wörld\") } // 🙂 tokens"
	for _, name := range officialEncodings {
		ref := encoders[name]
		want := ref.Count(text)

		e := &encoder{name: name, split: ref.split}
		if err := e.check(); err != nil {
			t.Fatalf("%s: check: %v", name, err)
		}
		if e.ready.Load() || e.ranks != nil {
			t.Fatalf("%s: check built the rank table", name)
		}
		if got := e.Count(text); got != want {
			t.Errorf("%s: lazy count = %d, want %d", name, got, want)
		}
		if e.ranks == nil {
			t.Errorf("%s: a count did not build the rank table", name)
		}

		pre := &encoder{name: name, split: ref.split}
		Preload(NewCached(pre, 0))
		deadline := time.Now().Add(30 * time.Second)
		for !pre.ready.Load() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: Preload did not build the rank table within 30 s", name)
			}
			time.Sleep(time.Millisecond)
		}
		if got := pre.Count(text); got != want {
			t.Errorf("%s: count after Preload = %d, want %d", name, got, want)
		}
	}
}

// TestForEncodingDoesNotLoad: ForEncoding of every tiktoken encoding
// returns the registry's lazy encoder, and an encoder without a rank file
// is an error from check and a panic (not a wrong count) from Count.
func TestForEncodingDoesNotLoad(t *testing.T) {
	for _, name := range []string{O200kBase, Cl100kBase, P50kBase, R50kBase} {
		tk, err := ForEncoding(" " + strings.ToUpper(name) + " ")
		if err != nil {
			t.Fatal(err)
		}
		if tk != Tokenizer(encoders[name]) {
			t.Errorf("ForEncoding(%s) = %T, want the encoder", name, tk)
		}
	}
	bad := &encoder{name: "no_such_ranks", split: nextO200k}
	if err := bad.check(); err == nil || !strings.Contains(err.Error(), "no_such_ranks") {
		t.Errorf("check of a missing rank file = %v, want an error naming it", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Count without a rank file did not panic")
		}
	}()
	bad.Count("x")
}
