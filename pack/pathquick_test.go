package pack

import (
	"io/fs"
	"math/rand"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestQuickPathIsRegexp: where quickPath is sure, it says what the prior
// patterns say, on every path under GOROOT and on random paths made of the
// patterns' own words, cases, separators and non-ASCII letters that fold
// to ASCII ones (K, ſ); and it is sure of most GOROOT paths.
func TestQuickPathIsRegexp(t *testing.T) {
	var paths []string
	root := runtime.GOROOT()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != root {
			paths = append(paths, filepath.ToSlash(strings.TrimPrefix(p, root+"/")))
		}
		return nil
	})
	if len(paths) < 5000 {
		t.Fatalf("%d paths under %s", len(paths), root)
	}
	pieces := []string{"dist", "build", "vendor", "node_modules", "third_party", "bower_components", "out", "target", "layout", "tests", "test", "Test",
		"__tests__", "spec", "testdata", "fixture", "fixtures", "examples", "Example", "_examples", "sample", "SAMPLES", "demo", "Demos", "\u212aey", "ſample", "exampſe",
		".github", ".circleci", ".gitlab", ".gitlab-ci.yml", ".buildkite", ".azure-pipelines", "azure-pipelines.yml", ".travis.yml", "appveyor.yml", "Jenkinsfile",
		".pre-commit-config.yaml", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "go.sum", "poetry.lock", "Cargo.lock", "conftest.py", "test_a.py", "a_test.py",
		"a_test.go", "x.min.js", "x.bundle.mjs", "x.umd.cjs", "x.cjs.min.js", "x.js.map", "a.test.tsx", "a.spec.js", "FooTests.java", "FooTest.java", "main.go", "a", "é"}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 50000; i++ {
		var b strings.Builder
		for j := rng.Intn(5); j >= 0; j-- {
			if b.Len() > 0 || rng.Intn(4) == 0 {
				b.WriteString([]string{"/", "/", "", "-", "."}[rng.Intn(5)])
			}
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		paths = append(paths, b.String())
	}
	sure := 0
	for _, re := range []*regexp.Regexp{builtPath, testPath, examplePath, ciPath} {
		for i, p := range paths {
			got, ok := quickPath(re, p)
			if !ok {
				continue
			}
			if i < len(paths)-50000 {
				sure++
			}
			if want := re.MatchString(p); got != want {
				t.Fatalf("%s on %q: quick %v, regexp %v", re, p, got, want)
			}
		}
	}
	if n := 4 * (len(paths) - 50000); sure < n*3/4 {
		t.Errorf("quickPath sure of %d of %d GOROOT questions, want most", sure, n)
	}
}
