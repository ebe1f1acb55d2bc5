package textid

import (
	"strconv"
	"strings"
	"testing"
)

// TestKeep: a kept text, a substring of it, a copy of it and a text of
// another length at the same address all get the key of their bytes; a
// kept text is answered from the table until dropped; the bound empties
// the table.
func TestKeep(t *testing.T) {
	whole := strings.Repeat("func serverClose() { idle() }\n", 40)
	k := Keep(whole)
	if k != Sum(whole) {
		t.Fatal("Keep's key is not the text's sum")
	}
	before := Len()
	for _, s := range []string{whole, whole[:100], whole[30:], strings.Clone(whole), "x"} {
		if Of(s) != Sum(s) {
			t.Errorf("Of(%.20q…) differs from its sum", s)
		}
	}
	if Len() != before {
		t.Error("Of added to the table")
	}
	if _, ok := kept.m[where(whole)]; !ok {
		t.Fatal("a kept text is not in the table")
	}
	if _, ok := kept.m[where(strings.Clone(whole))]; ok {
		t.Fatal("a copy of a kept text is in the table")
	}
	Drop(strings.Clone(whole)) // another text at another address: nothing
	if _, ok := kept.m[where(whole)]; !ok {
		t.Fatal("dropping a copy dropped the kept text")
	}
	Drop(whole)
	if _, ok := kept.m[where(whole)]; ok || Of(whole) != k {
		t.Fatal("a dropped text is still kept, or its key changed")
	}
	parts := make([]string, maxKept+10)
	for i := range parts {
		parts[i] = strconv.Itoa(i) + "-part"
		Keep(parts[i])
	}
	if n := Len(); n > maxKept {
		t.Errorf("the table holds %d texts, over its bound %d", n, maxKept)
	}
	for _, s := range parts[:100] {
		if Of(s) != Sum(s) {
			t.Fatal("a key changed across the bound")
		}
	}
}
