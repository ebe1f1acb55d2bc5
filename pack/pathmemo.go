package pack

import (
	"regexp"
	"sync"
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
