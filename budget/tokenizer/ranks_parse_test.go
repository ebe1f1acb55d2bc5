package tokenizer

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// loadRanksByLines is the rank loader as it was before the one-pass
// parser: split at "\n", then at the first space, then decodeBase64 and
// parseRank. TestLoadRanksSameTable holds loadRanks to it.
func loadRanksByLines(name string) (*rankTable, error) {
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, err
	}
	arena := []byte{}
	t := &rankTable{}
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			continue
		}
		at, r, ok := parseLineByFields(&arena, line)
		if !ok {
			return nil, fmt.Errorf("line %d: bad entry", lineNo)
		}
		t.off = append(t.off, uint32(at))
		t.rank = append(t.rank, r)
	}
	t.off = append(t.off, uint32(len(arena)))
	t.arena = string(arena)
	return t, t.build()
}

// parseLineByFields parses one non-empty line the old way, appending the
// token to *arena; at is where it starts.
func parseLineByFields(arena *[]byte, line []byte) (at int, r uint32, ok bool) {
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 {
		return 0, 0, false
	}
	at = len(*arena)
	if *arena, ok = decodeBase64(*arena, line[:sp]); !ok {
		return 0, 0, false
	}
	r, ok = parseRank(line[sp+1:])
	return at, r, ok && len(*arena) > at
}

// TestLoadRanksSameTable checks that the one-pass loader builds, for every
// official encoding, the very table the line-splitting loader built: the
// same token bytes at the same entries, the same rank of every entry, the
// same hash slots and 2-byte table.
func TestLoadRanksSameTable(t *testing.T) {
	for _, name := range officialEncodings {
		t.Run(name, func(t *testing.T) {
			got, err := loadRanks(name)
			if err != nil {
				t.Fatal(err)
			}
			want, err := loadRanksByLines(name)
			if err != nil {
				t.Fatal(err)
			}
			if got.arena != want.arena || !slices.Equal(got.off, want.off) ||
				!slices.Equal(got.rank, want.rank) || !slices.Equal(got.slots, want.slots) ||
				got.mask != want.mask || !slices.Equal(got.pair, want.pair) {
				t.Fatalf("one-pass table differs from the line-by-line one (%d vs %d entries)", got.len(), want.len())
			}
			for e := range want.rank {
				key := want.arena[want.off[e]:want.off[e+1]]
				if got.get(key) != want.rank[e] {
					t.Fatalf("get(%q) = %d, want %d", key, got.get(key), want.rank[e])
				}
			}
		})
	}
}

// TestParseEntry holds parseEntry to the old field-by-field parse on
// good and broken lines: the same token bytes and rank, the same verdict,
// and the text after the line.
func TestParseEntry(t *testing.T) {
	lines := []string{
		"IQ== 0", "ISE= 1", "ISEh 2", "ISEhIQ== 123456789", "aGVsbG8gd29ybGQ= 42",
		"ISEh 1234567890", "ISEh", "ISEh ", " 5", "IQ= 1", "IQ 1", "I=== 1", "IQ==IQ== 1",
		"ISEh 1x", "IS Eh 1", "ISEh  1", "ISEh 1\r", "ISE= 7 8", "=QQQ 1", "IQ=A 1",
		"ISEh -1", "!!!! 1", "ISEhIQ 1", "ISEhIQ=", "ISEh\n1",
	}
	for _, line := range lines {
		for _, tail := range []string{"", "\n", "\nISEh 3\n"} {
			text := line + tail
			old := []byte("x")
			wantLine := text
			if k := bytes.IndexByte([]byte(text), '\n'); k >= 0 {
				wantLine = text[:k]
			}
			_, wantR, wantOK := parseLineByFields(&old, []byte(wantLine))
			arena, r, rest, ok := parseEntry([]byte("x"), []byte(text))
			if ok != wantOK {
				t.Errorf("parseEntry(%q) ok = %v, want %v", text, ok, wantOK)
				continue
			}
			if !ok {
				continue
			}
			wantRest := text[min(len(text), len(wantLine)+1):]
			if string(arena) != string(old) || r != wantR || string(rest) != wantRest {
				t.Errorf("parseEntry(%q) = %q %d %q, want %q %d %q", text, arena, r, rest, old, wantR, wantRest)
			}
		}
	}
}
