package tokenizer

import (
	"encoding/base64"
	"fmt"
	"sync"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// TestRankTable checks the compact table against the map the
// tiktoken-go-loader builds from the same asset: same tokens, same ranks,
// and a few non-tokens absent. It also bounds the table's memory.
func TestRankTable(t *testing.T) {
	for _, name := range officialEncodings {
		t.Run(name, func(t *testing.T) {
			want, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
			if err != nil {
				t.Fatal(err)
			}
			tab, err := loadRanks(name)
			if err != nil {
				t.Fatal(err)
			}
			if tab.len() != len(want) {
				t.Errorf("table has %d tokens, loader %d", tab.len(), len(want))
			}
			bad := 0
			for tok, r := range want {
				if got := tab.get(tok); got != uint32(r) {
					if bad++; bad <= 5 {
						t.Errorf("get(%q) = %d, want %d", tok, got, r)
					}
				}
			}
			for i := range 1000 {
				s := fmt.Sprintf("\x00not a token %d\xff", i)
				if _, ok := want[s]; !ok && tab.get(s) != noRank {
					t.Errorf("get(%q) = %d, want noRank", s, tab.get(s))
				}
			}
			bytes := 8*len(tab.slots) + len(tab.arena) + 4*len(tab.off) + 4*len(tab.rank)
			if bytes > 30<<20 {
				t.Errorf("table holds %d bytes, want ≤ 30 MiB", bytes)
			}
		})
	}
}

// TestConcurrentFirstUse loads and counts from many goroutines at once
// (meant for -race): every goroutine must see the same counts.
func TestConcurrentFirstUse(t *testing.T) {
	text := "func main() { fmt.Println(\"héllo, 世界\") } // It's done.\n"
	const workers = 8
	got := make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, name := range officialEncodings {
				tk, err := ForEncoding(name)
				if err != nil {
					t.Error(err)
					return
				}
				got[w] = append(got[w], tk.Count(text))
			}
		}()
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		if fmt.Sprint(got[w]) != fmt.Sprint(got[0]) {
			t.Errorf("goroutine %d counted %v, goroutine 0 %v", w, got[w], got[0])
		}
	}
	for i, name := range officialEncodings {
		if want := refCount(t, name, text); got[0][i] != want {
			t.Errorf("%s: Count = %d, tiktoken-go says %d", name, got[0][i], want)
		}
	}
}

// TestDecodeBase64 compares decodeBase64 with encoding/base64 on every
// length of text up to 7 bytes and on malformed inputs (bad lengths,
// bytes outside the alphabet, padding out of place).
func TestDecodeBase64(t *testing.T) {
	cases := []string{"", "=", "==", "A", "AB", "ABC", "A===", "AB=C", "ABC=D===", "AB==AB==",
		"=ABC", "A=BC", "QR==", "QUI=", "QUJD", "QU-D", "QU_D", "QU D", "QUJD\x00", "QUJ\xff", "AAAA====", "////", "++++"}
	for n := 0; n <= 7; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(250 - 37*i)
		}
		cases = append(cases, base64.StdEncoding.EncodeToString(b))
	}
	for _, c := range cases {
		want, err := base64.StdEncoding.DecodeString(c)
		got, ok := decodeBase64([]byte("x"), []byte(c))
		if ok != (err == nil) {
			t.Errorf("decodeBase64(%q) ok = %v, encoding/base64 error %v", c, ok, err)
			continue
		}
		if ok && string(got) != "x"+string(want) {
			t.Errorf("decodeBase64(%q) = %q, want %q", c, got[1:], want)
		}
	}
}
