package pack

import (
	"math/rand"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// classifyVendoredRef is classifyVendored as it was: path.Dir and
// strings.ToUpper on every path.
func classifyVendoredRef(paths []string) []string {
	code := map[string]bool{}
	var lic []string
	for _, p := range paths {
		dir := path.Dir(p)
		b := strings.ToUpper(path.Base(p))
		if strings.HasPrefix(b, "LICENSE") || strings.HasPrefix(b, "LICENCE") || strings.HasPrefix(b, "COPYING") {
			lic = append(lic, dir)
		} else if chunker.Language(p) != "" && !isProse(p) {
			code[dir] = true
		}
	}
	var out []string
	for _, d := range lic {
		if d != "." && strings.Contains(d, "/") && code[path.Dir(d)] {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return uniq(out)
}

// TestClassifyVendoredIsRef: the vendored directories are the reference's
// on random listings (grouped by directory or not, unclean elements,
// licence names in every case and with letters that upper-case to ASCII).
func TestClassifyVendoredIsRef(t *testing.T) {
	dirs := []string{"", "a/", "a/b/", "a/b/c/", "x/", "x/y/", "a//b/", "./a/", "a/./b/", "a/../x/", "/abs/", "a/b/vendor/"}
	names := []string{"main.go", "lib.py", "README.md", "LICENSE", "license.txt", "Licence", "COPYING", "copying.lib", "lıcense", "ſ", "LICENSE-MIT", "licens", "x.c", "é.go", ""}
	rng := rand.New(rand.NewSource(13))
	for round := 0; round < 2000; round++ {
		var paths []string
		for i := rng.Intn(40); i >= 0; i-- {
			paths = append(paths, dirs[rng.Intn(len(dirs))]+names[rng.Intn(len(names))])
		}
		if round%2 == 0 {
			sort.Strings(paths)
		}
		if got, want := classifyVendored(paths), classifyVendoredRef(paths); !slices.Equal(got, want) {
			t.Fatalf("round %d %q: %q, want %q", round, paths, got, want)
		}
	}
	for _, n := range names {
		b := strings.ToUpper(n)
		if want := strings.HasPrefix(b, "LICENSE") || strings.HasPrefix(b, "LICENCE") || strings.HasPrefix(b, "COPYING"); isLicence(n) != want {
			t.Errorf("isLicence(%q) = %v", n, !want)
		}
	}
}
