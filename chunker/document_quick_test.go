package chunker

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// TestDocumentQuickEdits is TestDocumentRandomEdits for UpdateQuick: every
// update it reports exact equals Split, whether or not the updates before
// it were provisional and settled; every Settle of a provisional update
// equals Split; and edits that leave a syntax error are answered
// provisionally (by a window) often enough to matter.
func TestDocumentQuickEdits(t *testing.T) {
	lens := Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}
	edits := 40
	if testing.Short() {
		edits = 30
	}
	total, provisional, settled := 0, 0, 0
	for fi, path := range editCorpus(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := path
		if strings.HasSuffix(path, ".txtar") {
			ar := txtar.Parse(data)
			name, data = ar.Files[0].Name, ar.Files[0].Data
		}
		if Language(name) == "" {
			continue
		}
		t.Run(fmt.Sprintf("%s", filepath.Base(name)), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(fi), 7))
			d := NewDocument(name)
			defer d.Close()
			text := string(data)
			var history []string
			lastClean, clean := text, true
			pos := r.IntN(len(text) + 1)
			for i := 0; i <= edits; i++ {
				if i > 0 {
					if r.IntN(8) == 0 {
						pos = r.IntN(len(text) + 1)
					}
					pos = min(max(pos+r.IntN(5)-2, 0), len(text))
					history = append(history, text)
					if !clean && r.IntN(2) == 0 {
						text = lastClean
					} else {
						undo := append([]string{string(data)}, history[max(len(history)-8, 0):]...)
						text = randomEdit(r, name, text, pos, undo)
					}
					pos = min(pos, len(text))
				}
				got, exact, err := d.UpdateQuick(t.Context(), text, contentCount, lens)
				if err != nil {
					t.Fatalf("edit %d: %v", i, err)
				}
				want, err := Split(t.Context(), name, []byte(text), contentCount, lens)
				if err != nil {
					t.Fatal(err)
				}
				total++
				if clean = !hasSyntaxError(t, name, text); clean {
					lastClean = text
				}
				if !exact {
					provisional++
					if r.IntN(3) > 0 {
						continue // the next edit comes before the settling
					}
					var ok bool
					got, ok, err = d.Settle(t.Context(), contentCount, lens)
					if err != nil || !ok {
						t.Fatalf("edit %d: settle: %v, %v", i, ok, err)
					}
					settled++
					if d.Provisional() {
						t.Fatalf("edit %d: still provisional after Settle", i)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("edit %d (exact %v, syntax errors %v): chunks differ (-Split +UpdateQuick/Settle):\n%s", i, exact, !clean, diff)
				}
			}
		})
	}
	t.Logf("%d versions, %d provisional, %d settled", total, provisional, settled)
	if provisional*10 < total || settled == 0 {
		t.Errorf("%d versions: %d provisional, %d settled; want over a tenth provisional and some settled, or the test misses a path", total, provisional, settled)
	}
}

// TestSettlingOvertaken: a settling run while the document was updated
// again is not installed, and the document goes on as if it had not run;
// one that was not overtaken is.
func TestSettlingOvertaken(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "cookie.go"))
	if err != nil {
		t.Fatal(err)
	}
	lens := Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}
	text := string(data)
	at := strings.Index(text, "func validCookieExpires(")
	bad := text[:at+2] + "(" + text[at+2:] // "fu(nc": a whole parse reads it otherwise
	worse := bad[:at] + "x" + bad[at:]
	d := NewDocument("cookie.go")
	defer d.Close()
	if _, err := d.UpdateText(t.Context(), text, contentCount, lens); err != nil {
		t.Fatal(err)
	}
	check := func(step, text string, got []Chunk) {
		t.Helper()
		want, err := Split(t.Context(), "cookie.go", []byte(text), contentCount, lens)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: chunks differ from Split (-want +got):\n%s", step, diff)
		}
	}
	if _, exact, err := d.UpdateQuick(t.Context(), bad, contentCount, lens); err != nil || exact {
		t.Fatalf("the edit was answered exactly (%v, %v): the test misses the provisional path", exact, err)
	}
	st := d.PrepareSettle()
	if _, exact, err := d.UpdateQuick(t.Context(), worse, contentCount, lens); err != nil || exact {
		t.Fatalf("second edit: %v, %v", exact, err)
	}
	if _, err := st.Run(t.Context(), contentCount, lens); err != nil {
		t.Fatal(err)
	}
	if d.FinishSettle(st) {
		t.Fatal("a settling of an older text was installed")
	}
	if !d.Provisional() {
		t.Fatal("the document is no longer provisional after an overtaken settling")
	}
	got, ok, err := d.Settle(t.Context(), contentCount, lens)
	if err != nil || !ok {
		t.Fatalf("settle: %v, %v", ok, err)
	}
	check("settled", worse, got)
	got, err = d.UpdateText(t.Context(), text, contentCount, lens)
	if err != nil {
		t.Fatal(err)
	}
	check("after settling", text, got)
}
