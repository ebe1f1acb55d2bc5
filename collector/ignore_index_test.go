package collector

import (
	"math/rand"
	"strings"
	"testing"
)

// TestIndexedMatchIsLinear holds the rule index to trying every rule from
// the last: the same decision and the same deciding rule for random lists
// of every shape (names, paths, "*.ext", "prefix*", globs, library
// patterns, escapes, negations, directory-only rules, repeated literals) and
// random paths, files and directories.
func TestIndexedMatchIsLinear(t *testing.T) {
	r := rand.New(rand.NewSource(24))
	words := []string{"a", "b", "log", "x.log", "node_modules", "build", "dist", "a.b", "tmp", "c~", "é", "Makefile", ".env", "go", "ab", "aab", "b.log", "*"}
	word := func() string { return words[r.Intn(len(words))] }
	line := func() string {
		var l string
		switch r.Intn(14) {
		case 9:
			l = word() + "?" + word() // a glob ending and starting in a literal
		case 10:
			l = "[._]*" + word()
		case 11:
			l = word() + "/*"
		case 12:
			l = "*/" + word() + "/*." + word()
		case 13:
			l = "/" + word() + "/*/" + word()[:1] + "*\\" + word()[:1]
		case 0, 1:
			l = word()
		case 2:
			l = "*" + word()
		case 3:
			l = word() + "*"
		case 4:
			l = "/" + word() + "/" + word()
		case 5:
			l = word() + "/**"
		case 6:
			l = "*." + word()[:1] + "[ab]"
		case 7:
			l = "**/" + word() + "/**/" + word()
		default:
			l = "/" + word()
		}
		if r.Intn(4) == 0 {
			l += "/"
		}
		if r.Intn(5) == 0 {
			l = "!" + l
		}
		return l
	}
	indexed, checked := 0, 0
	for round := 0; round < 200; round++ {
		lines := make([]string, r.Intn(40))
		for i := range lines {
			lines[i] = line()
		}
		l, _ := compileIgnore("/ws", "t", lines)
		linear := *l
		linear.index = nil
		if l.index != nil {
			indexed++
		}
		for k := 0; k < 200; k++ {
			seg := make([]string, 1+r.Intn(4))
			for i := range seg {
				seg[i] = word()
			}
			rel, isDir := strings.Join(seg, "/"), r.Intn(3) == 0
			d1, ig1, r1 := l.match(rel, isDir)
			d2, ig2, r2 := linear.match(rel, isDir)
			if d1 != d2 || ig1 != ig2 || r1 != r2 {
				t.Fatalf("rules %q, path %q (dir %v): indexed %v %v %v, linear %v %v %v", lines, rel, isDir, d1, ig1, r1, d2, ig2, r2)
			}
			if d1 {
				checked++
			}
		}
	}
	if indexed < 150 || checked < 5000 {
		t.Fatalf("%d indexed lists, %d decided paths: the comparison checks too little", indexed, checked)
	}
}
