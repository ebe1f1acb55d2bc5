// Package golden runs golden tests kept as txtar archives: each archive
// holds a case's inputs and the sections a test's output must equal, and
// `go test -update` rewrites those sections after an intended change.
//
// It is the one home of the -update flag: every test package with golden
// archives uses it instead of declaring its own.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the output sections of the golden txtar archives")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Case is one golden archive.
type Case struct {
	Path    string // as given to Run: relative to the test's directory, unless the pattern was absolute
	Archive *txtar.Archive
}

// Run calls f for each archive matching pattern, in a subtest named after
// the file without ".txtar". No matching archive is a failure.
func Run(t *testing.T, pattern string, f func(t *testing.T, c *Case)) {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden archives match %s (%v)", pattern, err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f(t, &Case{Path: path, Archive: ar})
		})
	}
}

// Section returns the data of the archive's file name.
func (c *Case) Section(name string) ([]byte, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Check compares the output sections got (section name → text) with the
// archive's sections of the same names, reporting each difference and
// each missing section. With -update it rewrites the archive instead (see
// [Case.Write]). label prefixes the difference reports.
func (c *Case) Check(t testing.TB, label string, got map[string]string) {
	t.Helper()
	if *update {
		c.Write(t, got)
		return
	}
	for _, name := range sortedKeys(got) {
		want, ok := c.Section(name)
		if !ok {
			t.Errorf("%s: no %q section in %s: run the test with -update", label, name, c.Path)
			continue
		}
		if diff := cmp.Diff(string(want), got[name]); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", label, name, diff)
		}
	}
}

// Write rewrites the archive with the output sections got: a section
// already in the archive is replaced where it stands, a new one is
// appended (in name order); every other file is kept as it is.
func (c *Case) Write(t testing.TB, got map[string]string) {
	t.Helper()
	left := make(map[string]string, len(got))
	for k, v := range got {
		left[k] = v
	}
	for i, f := range c.Archive.Files {
		if g, ok := left[f.Name]; ok {
			c.Archive.Files[i].Data = []byte(g)
			delete(left, f.Name)
		}
	}
	for _, name := range sortedKeys(left) {
		c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: []byte(left[name])})
	}
	if err := os.WriteFile(c.Path, txtar.Format(c.Archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
