package collector

import (
	"strings"
	"testing"
)

// TestRefusalPack: every refusal the content rules give a file packs into
// a number and comes back exactly; the others do not pack.
func TestRefusalPack(t *testing.T) {
	texts := []string{"", " \n\t ", "\ufeff\n", "ab\x00cd", strings.Repeat("\x01\x02\x03 x", 40),
		strings.Repeat("t\xff\xfe\xfd\xfc", 30), "caf\xc3\xa9 ok \xe2\x82 and more text here", "ok \xffx" + strings.Repeat("y", 100)}
	for _, text := range texts {
		_, reason, detail := checkBytes([]byte(text))
		if reason == "" {
			t.Fatalf("%q: not refused", text)
		}
		r := Refusal{Reason: reason, Detail: detail, Size: int64(len(text))}
		n, ok := r.Pack()
		if !ok {
			t.Errorf("%q: %+v does not pack", text, r)
			continue
		}
		if back, ok := UnpackRefusal(n, r.Size); !ok || back != r {
			t.Errorf("%q: %+v came back as %+v, %v", text, r, back, ok)
		}
	}
	for _, r := range []Refusal{
		{Reason: ReasonSecret, Detail: "starts with a PEM private key block"},
		{Reason: ReasonUnreadable, Detail: "permission denied"},
		{Reason: ReasonBinary, Detail: "007% control bytes in the first 8 KB"},
		{Reason: ReasonBinary, Detail: "something else"},
		{Reason: ReasonTooLarge, Detail: "2 MiB over the 1 MiB cap"},
	} {
		if n, ok := r.Pack(); ok {
			t.Errorf("%+v packed as %d", r, n)
		}
	}
	for _, n := range []uint64{0, 7, 0xff, packNUL | 5<<8, packEmptyZero | 1<<8} {
		if r, ok := UnpackRefusal(n, 1); ok {
			t.Errorf("UnpackRefusal(%#x) = %+v", n, r)
		}
	}
}

// TestRulesProbeStable: the probe is the same from call to call (a store
// folds it into its version).
func TestRulesProbeStable(t *testing.T) {
	a, b := RulesProbe(), RulesProbe()
	if a != b || !strings.Contains(a, "[REDACTED") || !strings.Contains(a, "binary") {
		t.Fatalf("probe unstable or missing what it probes:\n%s", a)
	}
}
