package pack

import (
	"fmt"
	"regexp"
	"testing"
)

// TestMatchPath: remembered answers are the patterns' own, asked first or
// again, and the memo starts again empty when full.
func TestMatchPath(t *testing.T) {
	paths := []string{"", "a/b_test.go", "vendor/x.go", "examples/demo/main.go", ".github/workflows/ci.yml", "src/app.min.js", "tests/x.py", "pkg/server.go"}
	for round := 0; round < 2; round++ {
		for _, p := range paths {
			for name, re := range map[string]*regexp.Regexp{"built": builtPath, "test": testPath, "example": examplePath, "ci": ciPath} {
				if got, want := matchPath(re, p), re.MatchString(p); got != want {
					t.Errorf("round %d: matchPath(%s, %q) = %v, want %v", round, name, p, got, want)
				}
			}
		}
	}
	for i := 0; i <= pathMemoMax; i++ {
		matchPath(testPath, fmt.Sprintf("f%d_test.go", i))
	}
	pathMemo.Lock()
	n := len(pathMemo.m)
	pathMemo.Unlock()
	if n > pathMemoMax {
		t.Errorf("memo holds %d answers, more than %d", n, pathMemoMax)
	}
}
