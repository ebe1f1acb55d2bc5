package index

import "testing"

// TestSplitRecords: records of a 2-byte head (its second byte the body's
// length) are cut exactly, and any truncation, oversized body or leftover
// byte refuses the whole.
func TestSplitRecords(t *testing.T) {
	size := func(h []byte) int { return int(h[1]) }
	for _, tc := range []struct {
		name string
		b    []byte
		n    int
		want []string // bodies; nil when refused
	}{
		{"two records", []byte{1, 2, 'a', 'b', 2, 0, 3, 1, 'c'}, 3, []string{"ab", "", "c"}},
		{"none", nil, 0, []string{}},
		{"a byte left over", []byte{1, 1, 'a', 'x'}, 1, nil},
		{"a head cut short", []byte{1, 1, 'a', 2}, 2, nil},
		{"a body cut short", []byte{1, 3, 'a', 'b'}, 1, nil},
		{"a body over the cap", []byte{1, 5, 'a', 'b', 'c', 'd', 'e'}, 1, nil},
		{"fewer records than said", []byte{1, 1, 'a'}, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			ok := splitRecords(tc.b, tc.n, 2, 4, size, func(h, body []byte) {
				if cap(body) != len(body) {
					t.Errorf("body %q has room past its end (cap %d)", body, cap(body))
				}
				got = append(got, string(body))
			})
			if tc.want == nil {
				if ok {
					t.Fatalf("accepted %v as %q", tc.b, got)
				}
				return
			}
			if !ok || len(got) != len(tc.want) {
				t.Fatalf("splitRecords = %v, %q; want %q", ok, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("record %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
