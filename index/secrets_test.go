//go:build unix

package index

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// termCounts is the term table the pipeline stores: every term pack.Terms
// finds, with its count.
func termCounts(b []byte) map[string]int {
	m := map[string]int{}
	for _, t := range pack.Terms(string(b)) {
		m[t]++
	}
	return m
}

// TestNoSecretsOnDisk plants passwords and a token in file contents and
// in directory names, builds the index through a Set, as a pack does,
// then reads every byte of the cache: no planted string, no path, and no
// term recovered by a dictionary of unkeyed FNV-1a hashes (what the index
// stored before issue 21) — while the keyed hashes of the same words are
// there, so the scan does see what is stored.
func TestNoSecretsOnDisk(t *testing.T) {
	cache := useCache(t)
	token := "ghp_" + "R8vK2mQx9LzT4wNc7YbH3jPf6sDa1eUg5iOo" // a GitHub token's shape
	top := filepath.Join(t.TempDir(), "zebracornalpaca")
	files := map[string]string{
		// Redacted: a password assigned to a password name.
		"app/config.py": "db_password = \"winter2024hunter\"\nretries = 3\n",
		// Not redacted: words that are passwords, in prose. The index
		// keeps their (keyed) term hashes.
		"docs/notes.md": "weak choices seen in the audit: summer2023 and hunter2hunter2 and winter2024\n",
		// A token in a directory name.
		"deploy/" + token + "/run.sh": "echo deploying the service\n",
		"src/main.go":                 "package main\n\nfunc main() { checkout() }\n",
	}
	var refs []collector.FileRef
	for p, c := range files {
		abs := filepath.Join(top, p)
		fi := write(t, abs, c)
		refs = append(refs, collector.FileRef{Abs: abs, Path: p, Info: fi})
	}
	s, err := OpenSet([]string{top}, Options{Version: "test"})
	if err != nil || !s.Usable() {
		t.Fatal(err)
	}
	s.idx[0].now = later
	for _, f := range refs {
		b, _ := os.ReadFile(f.Abs)
		s.PutTerms(f, b, termCounts(b))
		red, _ := collector.Redact(string(b))
		s.PutChunks(f, []byte(red), "k1", chunksOf([]byte(red)))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	k := testKeys(t)

	// Every byte and every name under the cache.
	var blob []byte
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		blob = append(blob, p...)
		blob = append(blob, 0)
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			blob = append(blob, b...)
		}
		return nil
	})
	planted := []string{"winter2024hunter", "summer2023", "hunter2hunter2", "winter2024", token, "zebracornalpaca", "deploying", "checkout", top}
	for _, p := range planted {
		if bytes.Contains(blob, []byte(p)) || bytes.Contains(bytes.ToLower(blob), []byte(strings.ToLower(p))) {
			t.Errorf("%q is readable in the cache", p)
		}
	}

	// The dictionary attack of issue 21: unkeyed FNV-1a (with and without
	// the old seed) of a word list, looked for as stored 8-byte values.
	words := []string{"password", "secret", "admin", "letmein", "qwerty", "dragon", "monkey",
		"summer2023", "winter2024", "hunter2hunter2", "winter2024hunter", "deploying", "checkout",
		"main", "package", "service", "retries", "audit", "choices", "weak", "seen", "zebracornalpaca", token}
	stored := map[uint64]bool{}
	for i := 0; i+8 <= len(blob); i++ {
		stored[binary.LittleEndian.Uint64(blob[i:])] = true
	}
	const oldSeed = 0x9e3779b97f4a7c15
	recovered := 0
	for _, w := range words {
		for _, basis := range []uint64{fnvBasis, fnvBasis ^ oldSeed, fnvBasis ^ oldSeed>>1} {
			if stored[fnv64(basis, w)] {
				recovered++
				t.Errorf("%q recovered from its unkeyed FNV-1a hash", w)
			}
		}
	}
	// The scan is not blind: the keyed hashes of the notes' words are
	// stored (so the attack had the hashes to work on).
	for _, w := range []string{"summer2023", "hunter2hunter2", "audit"} {
		if !stored[k.termHash(w)] {
			t.Errorf("the keyed hash of %q is not in the cache: the test does not see the stored terms", w)
		}
	}
	// Nothing of the redacted file nor of the file under the token is
	// stored (the keyed hash of a term only they hold is absent).
	for _, w := range []string{"winter2024hunter", "retries", "deploying"} {
		if stored[k.termHash(w)] {
			t.Errorf("a term of a redacted file (%q) is stored", w)
		}
	}
	t.Logf("%d words, %d stored 8-byte values, %d recovered", len(words), len(stored), recovered)
}

// TestRedactedFileAfterFix: a file kept out because its text held a
// secret is stored once the secret is gone and the change is told
// (didChangeWatchedFiles), and kept out again when it comes back.
func TestRedactedFileAfterFix(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	x := openTest(t, root, dir)
	p := filepath.Join(root, "conf.py")
	putFile := func(c string) bool {
		fi := write(t, p, c)
		x.Forget(p)
		x.PutTerms(p, fi, []byte(c), termsOf([]byte(c)))
		_, _, ok := x.Terms(p, fi, asked)
		return ok
	}
	if putFile("db_password = \"winter2024hunter\"\n") {
		t.Fatal("a file holding a password was stored")
	}
	if !putFile("db_password = os.environ[\"DB_PASSWORD\"]\n") {
		t.Fatal("the file was not stored once its secret was gone")
	}
	if putFile("db_password = \"summer2023hunter\"\n") {
		t.Fatal("a file holding a password again was stored")
	}
}
