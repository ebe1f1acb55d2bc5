package tokenizer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestToValidUTF8(t *testing.T) {
	const r = "\uFFFD"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ascii", "hello", "hello"},
		{"valid multibyte", "é日😀", "é日😀"},
		{"valid U+FFFD kept", "a\uFFFDb", "a\uFFFDb"},
		{"stray continuation bytes", "a\x80\xBFb", "a" + r + r + "b"},
		{"truncated 2-byte", "a\xC3", "a" + r},
		{"truncated 3-byte is one subpart", "a\xE2\x82b", "a" + r + "b"},
		{"truncated 4-byte is one subpart", "\xF0\x9F\x98 x", r + " x"},
		{"overlong C0 80", "\xC0\x80", r + r},
		{"overlong E0 80 AF", "\xE0\x80\xAF", r + r + r},
		{"surrogate ED A0 80", "\xED\xA0\x80", r + r + r},
		{"above U+10FFFF", "\xF4\x90\x80\x80", r + r + r + r},
		{"F5 and up", "\xF5\x80\xFF", r + r + r},
		{"latin-1", "caf\xE9", "caf" + r},
		{"bad then good", "\xE2\x28\xA1\xE2\x82\xAC", r + "(" + r + "€"},
		{"E0 A0 truncated", "\xE0\xA0", r},
		{"F4 8F truncated", "\xF4\x8F\xBF", r},
		{"F0 90 truncated then ascii", "\xF0\x90x", r + "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, toValidUTF8(tt.in)); diff != "" {
				t.Errorf("toValidUTF8(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// refValidUTF8 is a slow, independent statement of "substitution of
// maximal subparts": at an ill-formed position, replace the longest prefix
// (up to 3 bytes) that some valid sequence starts with, or else one byte.
func refValidUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || w != 1 {
			b.WriteString(s[i : i+w])
			i += w
			continue
		}
		n := 1
		for k := 3; k >= 2; k-- {
			if i+k <= len(s) && startsValid(s[i:i+k]) {
				n = k
				break
			}
		}
		b.WriteRune(utf8.RuneError)
		i += n
	}
	return b.String()
}

// startsValid reports whether some valid UTF-8 sequence begins with p.
func startsValid(p string) bool {
	for tail := 0; tail <= 4-len(p); tail++ {
		for c := 0x80; c <= 0xBF; c++ {
			if s := p + strings.Repeat(string([]byte{byte(c)}), tail); utf8.ValidString(s) && utf8.RuneCountInString(s) == 1 {
				return true
			}
		}
	}
	return false
}

// FuzzToValidUTF8 checks that the replacement always yields valid UTF-8,
// leaves valid text alone and agrees with the slow reference.
func FuzzToValidUTF8(f *testing.F) {
	for _, s := range []string{"", "a\x80b", "\xE2\x82", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\xC0\xAF", "é\xFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := toValidUTF8(s)
		if !utf8.ValidString(got) {
			t.Fatalf("toValidUTF8(%q) = %q is not valid UTF-8", s, got)
		}
		if utf8.ValidString(s) && got != s {
			t.Fatalf("toValidUTF8 changed valid %q to %q", s, got)
		}
		if want := refValidUTF8(s); got != want {
			t.Fatalf("toValidUTF8(%q) = %q, reference %q", s, got, want)
		}
	})
}

// TestMaximalSubpart checks the maximal subpart at every ill-formed start
// of up to three bytes (every lead and second byte, the third at the edges
// of the continuation range) against the reference's definition.
func TestMaximalSubpart(t *testing.T) {
	for b0 := 0x80; b0 <= 0xFF; b0++ {
		if got := maximalSubpart(string([]byte{byte(b0)})); got != 1 {
			t.Fatalf("maximalSubpart(%02X) = %d, want 1", b0, got)
		}
		for b1 := 0; b1 <= 0xFF; b1++ {
			two := string([]byte{byte(b0), byte(b1)})
			valid2 := startsValid(two) // else no longer prefix is either
			for _, b2 := range []byte{0x7F, 0x80, 0xBF, 0xC0} {
				s := two + string([]byte{b2})
				if r, w := utf8.DecodeRuneInString(s); r != utf8.RuneError || w != 1 {
					continue // well-formed at the start
				}
				want := 1
				switch {
				case valid2 && startsValid(s):
					want = 3
				case valid2:
					want = 2
				}
				if got := maximalSubpart(s); got != want {
					t.Fatalf("maximalSubpart(% X) = %d, want %d", s, got, want)
				}
			}
		}
	}
}
