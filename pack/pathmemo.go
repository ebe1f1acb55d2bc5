package pack

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// pathMemoMax bounds the paths the path-pattern memo keeps (a few tens of
// MB at most); past it the memo starts again empty.
const pathMemoMax = 1 << 18

// pathMemo remembers, for the process, what the path patterns of the
// priors (built, test, example, CI) said of each path: a running server's
// warm pack asked them again of every candidate file (about 6 % of a warm
// pack of Go's src), and a path's answer never changes.
var pathMemo = struct {
	sync.Mutex
	m map[pathQuestion]bool
}{m: map[pathQuestion]bool{}}

type pathQuestion struct {
	re   *regexp.Regexp
	path string
}

// matchPath is re.MatchString(p), remembered.
func matchPath(re *regexp.Regexp, p string) bool {
	if v, sure := quickPath(re, p); sure {
		return v
	}
	q := pathQuestion{re, p}
	pathMemo.Lock()
	v, ok := pathMemo.m[q]
	pathMemo.Unlock()
	if ok {
		return v
	}
	v = re.MatchString(p)
	pathMemo.Lock()
	if len(pathMemo.m) >= pathMemoMax {
		clear(pathMemo.m)
	}
	pathMemo.m[q] = v
	pathMemo.Unlock()
	return v
}

// quickPath answers matchPath for the prior patterns (builtPath,
// testPath, examplePath, ciPath) from literals every match holds — sure
// is false when the pattern must decide: a path holding none of a
// pattern's literals (nearly every path) is no match of it, and a path
// ending in "_test.go" is a test (TestQuickPathIsRegexp).
func quickPath(re *regexp.Regexp, p string) (match, sure bool) {
	switch re {
	case testPath:
		if strings.HasSuffix(p, "_test.go") {
			return true, true
		}
		return false, !containsAny(p, "test", "Test", "spec", "fixture")
	case builtPath:
		if hasAnySuffix(p, "js", ".map", ".json", ".lock", ".yaml", "go.sum") {
			return false, false
		}
		return false, !containsAny(p, "dist/", "build/", "vendor/", "node_modules/", "third_party/", "bower_components/", "out/", "target/")
	case examplePath: // (?i): any non-ASCII byte may fold to a letter
		for i := 0; i < len(p); i++ {
			if p[i] >= utf8.RuneSelf {
				return false, false
			}
		}
		return false, !containsFoldASCII(p, "exampl") && !containsFoldASCII(p, "sampl") && !containsFoldASCII(p, "demo")
	case ciPath:
		return false, !containsAny(p, ".github/", ".circleci/", ".gitlab", ".buildkite/", "azure-pipelines", ".travis.yml", "appveyor.yml", "Jenkinsfile", ".pre-commit-config.yaml")
	}
	return false, false
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func hasAnySuffix(s string, sufs ...string) bool {
	for _, suf := range sufs {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether s holds sub (lower-case ASCII) up to
// ASCII case.
func containsFoldASCII(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
