package budget

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestShortKeys: shortKeys gives each item its own shortKey, in order,
// below, at and above the count from which half is keyed in a goroutine.
func TestShortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 10))
	words := []string{"func", " ", "\t", "\n", "x", "idle", "é", "\u00a0", "{}", "conn"}
	for _, n := range []int{0, 1, 7, 2*shortKeysHalfMin - 1, 2 * shortKeysHalfMin, 2*shortKeysHalfMin + 1, 5001} {
		items := make([]*Item, n)
		for i := range items {
			text := fmt.Sprint(i)
			for range r.IntN(40) {
				text += words[r.IntN(len(words))]
			}
			items[i] = &Item{Content: text}
		}
		keys := shortKeys(items)
		if len(keys) != n {
			t.Fatalf("n=%d: %d keys", n, len(keys))
		}
		for i, it := range items {
			if keys[i] != shortKey(it.Content) {
				t.Fatalf("n=%d: key %d is not its item's", n, i)
			}
		}
	}
}
