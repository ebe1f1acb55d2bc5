package lsp

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestOffsetOf(t *testing.T) {
	text := "ab\n😀x\r\nz\réq"
	tests := []struct {
		name string
		pos  protocol.Position
		want int
	}{
		{"start", pos(0, 0), 0},
		{"inside first line", pos(0, 1), 1},
		{"past end of line clamps", pos(0, 9), 2},
		{"line 1 start", pos(1, 0), 3},
		{"after a surrogate pair", pos(1, 2), 7},
		{"inside a surrogate pair stays before it", pos(1, 1), 3},
		{"before CRLF", pos(1, 3), 8},
		{"after CRLF", pos(2, 0), 10},
		{"after CR alone", pos(3, 0), 12},
		{"after a 2-byte rune", pos(3, 1), 14},
		{"line past the end", pos(9, 0), len(text)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := offsetOf(text, tt.pos); got != tt.want {
				t.Errorf("offsetOf(%v) = %d, want %d", tt.pos, got, tt.want)
			}
		})
	}
}

func TestApplyChange(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		r       protocol.Range
		newText string
		want    string
		wantErr bool
	}{
		{"insert at start", "abc", protocol.Range{Start: pos(0, 0), End: pos(0, 0)}, "X", "Xabc", false},
		{"replace across lines", "one\ntwo\nthree", protocol.Range{Start: pos(0, 1), End: pos(2, 2)}, "-", "o-ree", false},
		{"delete a line", "a\nb\nc\n", protocol.Range{Start: pos(1, 0), End: pos(2, 0)}, "", "a\nc\n", false},
		{"append at end", "a", protocol.Range{Start: pos(5, 0), End: pos(5, 0)}, "\nb", "a\nb", false},
		{"emoji", "x😀y", protocol.Range{Start: pos(0, 1), End: pos(0, 3)}, "", "xy", false},
		{"reversed range", "abc", protocol.Range{Start: pos(0, 2), End: pos(0, 1)}, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyChange(tt.text, tt.r, tt.newText)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// utf16Offset is a slow reference for offsetOf on text with "\n" line
// ends only: it converts each line to UTF-16 and back.
func utf16Offset(text string, p protocol.Position) int {
	lines := strings.SplitAfter(text, "\n")
	if int(p.Line) >= len(lines) {
		return len(text)
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := strings.TrimSuffix(lines[p.Line], "\n")
	units := utf16.Encode([]rune(line))
	n := min(int(p.Character), len(units))
	// Do not split a surrogate pair.
	if n > 0 && n < len(units) && utf16.IsSurrogate(rune(units[n-1])) && units[n-1] < 0xDC00 {
		n--
	}
	return off + len(string(utf16.Decode(units[:n])))
}

// FuzzOffsetOf checks offsetOf against the UTF-16 reference: the offset is
// always on a rune boundary inside the text.
func FuzzOffsetOf(f *testing.F) {
	f.Add("ab\n😀x\nz", uint32(1), uint32(2))
	f.Add("", uint32(0), uint32(5))
	f.Add("é\n\n", uint32(1), uint32(0))
	f.Fuzz(func(t *testing.T, text string, line, char uint32) {
		if !utf8.ValidString(text) || strings.Contains(text, "\r") {
			return
		}
		p := pos(line%8, char%16)
		got := offsetOf(text, p)
		if want := utf16Offset(text, p); got != want {
			t.Errorf("offsetOf(%q, %v) = %d, want %d", text, p, got, want)
		}
	})
}

// FuzzApplyChange checks that applyChange, which finds a range's end from
// its start's line, replaces exactly the bytes between offsetOf of both
// ends, with "\r", "\r\n" and "\n" line breaks and ranges past the end.
func FuzzApplyChange(f *testing.F) {
	f.Add("ab\r\n😀x\rz\n", uint32(0), uint32(1), uint32(2), uint32(0))
	f.Add("a\nb", uint32(3), uint32(0), uint32(3), uint32(1))
	f.Add("abc", uint32(0), uint32(2), uint32(0), uint32(1))
	f.Fuzz(func(t *testing.T, text string, sl, sc, el, ec uint32) {
		r := protocol.Range{Start: pos(sl%6, sc%8), End: pos(el%6, ec%8)}
		got, err := applyChange(text, r, "X")
		start, end := offsetOf(text, r.Start), offsetOf(text, r.End)
		if end < start {
			if err == nil {
				t.Errorf("applyChange(%q, %v) = %q, want an error", text, r, got)
			}
			return
		}
		if want := text[:start] + "X" + text[end:]; err != nil || got != want {
			t.Errorf("applyChange(%q, %v) = %q, %v; want %q", text, r, got, err, want)
		}
	})
}

func TestURIToPath(t *testing.T) {
	tests := []struct {
		uri     string
		want    string
		wantErr bool
	}{
		{"file:///home/me/a.go", "/home/me/a.go", false},
		{"file:///home/me/a%20b.go", "/home/me/a b.go", false},
		{"file://localhost/x/../y.go", "/y.go", false},
		{"untitled:Untitled-1", "", true},
		{"git:/home/me/a.go?ref=HEAD", "", true},
		{"file://server/share/a.go", "", true},
		{"file:relative.go", "", true},
		{"%zz", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			got, err := uriToPath(protocol.DocumentURI(tt.uri))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("uriToPath(%q) = %q, %v; want %q, error %v", tt.uri, got, err, tt.want, tt.wantErr)
			}
		})
	}
	if got, _ := uriToPath(pathToURI("/tmp/with space/ü.go")); got != "/tmp/with space/ü.go" {
		t.Errorf("round trip: %q", got)
	}
}
