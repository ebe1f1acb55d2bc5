package collector

import (
	"context"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

// libOnly returns l with every rule matched by go-gitignore, as before the
// fast shapes existed: the reference the fast matcher is compared with.
func libOnly(l *ignoreList) *ignoreList {
	c := *l
	c.index = nil
	c.rules = make([]ignoreRule, len(l.rules))
	for i, r := range l.rules {
		if r.fast.kind != 0 {
			pat, _, _, ok := libPattern(r.text)
			if !ok {
				panic("fast rule that libPattern refuses: " + r.text)
			}
			r.gi = compileLib(pat)
			r.fast = fastGlob{}
		}
		c.rules[i] = r
	}
	return &c
}

func TestCompileFast(t *testing.T) {
	tests := []struct {
		line string
		want fastGlob
	}{
		{"node_modules", fastGlob{kind: fastName, lit: "node_modules"}},
		{"node_modules/", fastGlob{kind: fastName, lit: "node_modules", dirOnly: true}},
		{"!keep.log", fastGlob{kind: fastName, lit: "keep.log"}},
		{"*.log", fastGlob{kind: fastSuffix, lit: ".log"}},
		{"*.log  ", fastGlob{kind: fastSuffix, lit: ".log"}},
		{`*.log\ `, fastGlob{kind: fastSuffix, lit: ".log "}},
		{"tmp*", fastGlob{kind: fastPrefix, lit: "tmp"}},
		{"/dist", fastGlob{kind: fastPath, lit: "dist"}},
		{"docs/build/", fastGlob{kind: fastPath, lit: "docs/build", dirOnly: true}},
		{"gen/**", fastGlob{kind: fastInside, lit: "gen"}},
		{"/a/b/**", fastGlob{kind: fastInside, lit: "a/b"}},
		{`\#hash`, fastGlob{kind: fastName, lit: "#hash"}},
		{`\!bang`, fastGlob{kind: fastName, lit: "!bang"}},
		{"\\*star", fastGlob{kind: fastName, lit: "*star"}},
		// Not fast: left to the library.
		{"", fastGlob{}},
		{"# comment", fastGlob{}},
		{"x/**/", fastGlob{kind: fastInside, lit: "x", dirOnly: true}},
		// Globs: matched by globSeg.
		{"*", fastGlob{kind: fastBaseGlob, lit: "*", nseg: 1}},
		{"*.*", fastGlob{kind: fastBaseGlob, lit: "*.*", nseg: 1}},
		{"*a*", fastGlob{kind: fastBaseGlob, lit: "*a*", nseg: 1}},
		{"a?c", fastGlob{kind: fastBaseGlob, lit: "a?c", nseg: 1}},
		{"[ab].go", fastGlob{kind: fastBaseGlob, lit: "[ab].go", nseg: 1}},
		{"*.[568vq]", fastGlob{kind: fastBaseGlob, lit: "*.[568vq]", nseg: 1}},
		{"[]a]", fastGlob{kind: fastBaseGlob, lit: "[]a]", nseg: 1}},
		{"**/x", fastGlob{kind: fastTailGlob, lit: "x", nseg: 1}},
		{"**/src/gen*/", fastGlob{kind: fastTailGlob, lit: "src/gen*", nseg: 2, dirOnly: true}},
		{"/*.tmp", fastGlob{kind: fastPathGlob, lit: "*.tmp", nseg: 1}},
		{"a/*", fastGlob{kind: fastPathGlob, lit: "a/*", nseg: 2}},
		{"*/out/", fastGlob{kind: fastPathGlob, lit: "*/out", nseg: 2, dirOnly: true}},
		// Not fast: left to the library.
		{"a/**/b", fastGlob{}},
		{"/**/b", fastGlob{}},
		{"a**b", fastGlob{}},
		{"x*/**", fastGlob{}},
		{"[[:alpha:]]x", fastGlob{}},
		{"[a", fastGlob{}},
		{`[\]]x`, fastGlob{}},
		{"a//b*", fastGlob{}},
		{`a\/b*`, fastGlob{}},
		{`trailing\`, fastGlob{}},
		{"/", fastGlob{}},
		{"!", fastGlob{}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			if got := compileFast(tt.line); got != tt.want {
				t.Errorf("compileFast(%q) = %+v, want %+v", tt.line, got, tt.want)
			}
		})
	}
}

// TestFastMatchesGit compares the collector's decisions with git's own
// (git check-ignore --no-index) on random .gitignore files of fast-shape
// lines and random trees: every path must be ignored or not as git says.
// (go-gitignore is no reference here: selfMatch discards a match when an
// ancestor matches too, so "*.log" then "!dir.log/" leaves dir.log/a.log
// in, where git ignores it; the fast matcher gets it right.)
func TestFastMatchesGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is not installed (%v): the comparison needs it", err)
	}
	r := rand.New(rand.NewSource(14))
	pieces := []string{"a", "b", "log", ".log", "x.log", "node_modules", "build", "dist", "a.b", "tmp", "tmp1", "#h", "!b", "x y", "c++", "(p)", "$v", "{a,b}", "^x", "a|b", "é"}
	piece := func() string { return pieces[r.Intn(len(pieces))] }
	escape := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if strings.IndexByte("#! ", s[i]) >= 0 && (i == 0 || s[i] == ' ') {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	glob := func() string { return globOf(r, piece()) }
	checked, fastLines := 0, 0
	for round := 0; round < 24; round++ {
		var rules []string
		for len(rules) < 25 {
			var l string
			switch r.Intn(12) {
			case 0:
				l = escape(piece())
			case 1:
				l = "*" + escape(piece())
			case 2:
				l = escape(piece()) + "*"
			case 3:
				l = "/" + escape(piece())
			case 4:
				l = escape(piece()) + "/" + escape(piece())
			case 5:
				l = escape(piece()) + "/**"
			case 6:
				l = glob()
			case 7:
				l = "**/" + glob()
			case 8:
				l = glob() + "/" + glob()
			case 9:
				l = "/" + glob()
			case 10:
				l = "**/" + escape(piece()) + "/" + glob()
			case 11:
				l = escape(piece()) + "/*"
			}
			if r.Intn(4) == 0 {
				l += "/"
			}
			if r.Intn(3) == 0 {
				l = "!" + l
			}
			if compileFast(l).kind == 0 {
				t.Fatalf("%q is not a fast shape", l)
			}
			rules = append(rules, l)
		}
		fastLines += len(rules)
		files := map[string]bool{}
		var paths []string
		for len(paths) < 150 {
			n := 1 + r.Intn(3)
			var parts []string
			for i := 0; i < n; i++ {
				parts = append(parts, piece())
			}
			p := strings.Join(parts, "/")
			clash := files[p]
			for i := range parts[:n-1] {
				clash = clash || files[strings.Join(parts[:i+1], "/")]
			}
			for f := range files {
				clash = clash || strings.HasPrefix(f, p+"/")
			}
			if clash {
				continue
			}
			files[p] = true
			paths = append(paths, p)
		}
		entries := []fx{file(".gitignore", lines(rules...))}
		for _, p := range paths {
			entries = append(entries, file(p, "x\n"))
		}
		w, root := newWorkspace(t, Options{}, entries...)
		if out, err := exec.Command(gitBin, "-C", root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		cmd := exec.Command(gitBin, "-C", root, "-c", "core.quotePath=false", "check-ignore", "--no-index", "-v", "-n", "--stdin")
		cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git check-ignore: %v", err)
		}
		verdict := map[string]string{}
		for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			src, path, ok := strings.Cut(line, "\t")
			if !ok {
				t.Fatalf("git check-ignore line %q", line)
			}
			verdict[path] = src
		}
		for _, p := range paths {
			src, ok := verdict[p]
			if !ok {
				t.Fatalf("git check-ignore said nothing about %q", p)
			}
			_, pat, _ := strings.Cut(strings.TrimPrefix(src, ".gitignore:"), ":")
			want := src != "::" && !strings.HasPrefix(pat, "!")
			_, excl := w.Read(context.Background(), Reference, p)
			got := excl != nil && excl.Reason == ReasonIgnored
			if got != want {
				t.Fatalf("round %d, %q: ignored %v (%+v), git %v (%s)\n.gitignore:\n%s", round, p, got, excl, want, src, lines(rules...))
			}
			if want {
				checked++
			}
		}
	}
	if checked < 200 {
		t.Fatalf("only %d ignored paths: the comparison checks too little", checked)
	}
}

// globOf returns the gitignore pattern of the literal name p with some of
// its letters replaced by wildcards that match them or not: "?", "*",
// bracket expressions with ranges, negations, "]" and "-" members,
// reversed ranges.
func globOf(r *rand.Rand, p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		alnum := c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z'
		if !alnum || r.Intn(3) != 0 {
			if c == ' ' || (i == 0 && (c == '#' || c == '!')) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
			continue
		}
		cs, next, prev := string(c), string(c+1), string(c-1)
		if c == '.' {
			next = "a" // not "/"
		}
		forms := []string{"?", "*", "[" + cs + "]", "[!" + cs + "]", "[^" + next + "]", "[" + cs + "-z]",
			"[0-" + cs + "]", "[" + next + "-z]", "[]" + cs + "]", "[" + cs + "-]", "[-" + cs + "]",
			"[z-" + cs + "]", "[!a-" + cs + "x]", "[" + next + cs + "]", "[" + prev + "-" + cs + "-" + next + "]",
			"[0-" + prev + "]"}
		f := forms[r.Intn(len(forms))]
		if f == "*" && strings.HasSuffix(b.String(), "*") {
			f = "?"
		}
		b.WriteString(f)
	}
	return b.String()
}

// TestGlobMatchesGit compares globSeg with git on one glob per directory
// (so that no other rule hides a wrong decision), each checked against
// its source name and the names one letter away from it.
func TestGlobMatchesGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is not installed (%v): the comparison needs it", err)
	}
	r := rand.New(rand.NewSource(15))
	pieces := []string{"a", "b", "log", ".log", "x.log", "node_modules", "build", "dist", "a.b", "tmp", "tmp1", "b9", "z-y", "c_d"}
	var entries []fx
	var paths []string
	for d := 0; d < 300; d++ {
		src := pieces[r.Intn(len(pieces))]
		pat := globOf(r, src)
		if compileFast(pat).kind == 0 {
			t.Fatalf("%q is not a fast shape", pat)
		}
		entries = append(entries, file(fmt.Sprintf("d%d/.gitignore", d), lines(pat)))
		names := map[string]bool{src: true}
		for j := 0; j < len(src); j++ {
			for _, c := range []byte{src[j] - 1, src[j] + 1, 'a', '-', ']'} {
				if c != '/' && c > ' ' {
					names[src[:j]+string(c)+src[j+1:]] = true
				}
			}
		}
		for n := range names {
			if n == ".gitignore" || n == "." || n == ".." {
				continue
			}
			p := fmt.Sprintf("d%d/%s", d, n)
			entries = append(entries, file(p, "x\n"))
			paths = append(paths, p)
		}
	}
	w, root := newWorkspace(t, Options{}, entries...)
	if out, err := exec.Command(gitBin, "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cmd := exec.Command(gitBin, "-C", root, "-c", "core.quotePath=false", "check-ignore", "--no-index", "-v", "-n", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git check-ignore: %v", err)
	}
	verdict := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		src, path, _ := strings.Cut(line, "\t")
		verdict[path] = src
	}
	ignored := 0
	for _, p := range paths {
		src, ok := verdict[p]
		if !ok {
			t.Fatalf("git check-ignore said nothing about %q", p)
		}
		want := src != "::"
		_, excl := w.Read(context.Background(), Reference, p)
		got := excl != nil && excl.Reason == ReasonIgnored
		if got != want {
			t.Errorf("%q: ignored %v, git %v (%s)", p, got, want, src)
		}
		if want {
			ignored++
		}
	}
	if ignored < 300 || len(paths)-ignored < 300 {
		t.Fatalf("%d of %d paths ignored: the comparison checks too little", ignored, len(paths))
	}
}

// BenchmarkIgnoreMatch matches 100,000 paths against a typical set of
// ignore rules (those of the 100K-file tree's larger repositories), with
// the fast shapes through the rule index ("fast"), without the index
// ("linear") and with go-gitignore for every rule ("library").
func BenchmarkIgnoreMatch(b *testing.B) {
	rules := strings.Split(`*.pyc
__pycache__/
*.egg-info/
/build/
/dist/
.tox/
.coverage
htmlcov/
*.so
*.log
node_modules/
.idea/
*.iml
.DS_Store
/bin/
/vendor/
*.swp
*~
tmp/
/coverage/
.vscode/
*.test
*.out
/.cache/
docs/_build/
target/
!.gitkeep
*.min.js
/public/assets
log/*
[Bb]in/
**/testdata/big
*.[oa]
`, "\n")
	fast, _ := compileIgnore("/ws", "t", rules)
	lib := libOnly(fast)
	linear := *fast
	linear.index = nil
	r := rand.New(rand.NewSource(1))
	dirs := []string{"src", "pkg", "internal", "cmd", "lib", "app", "test", "docs", "api", "util", "core"}
	exts := []string{".go", ".py", ".js", ".ts", ".java", ".rb", ".md", ".json", ".yml", ".c"}
	paths := make([]string, 100000)
	for i := range paths {
		var p []string
		for d := r.Intn(5); d >= 0; d-- {
			p = append(p, dirs[r.Intn(len(dirs))])
		}
		p = append(p, fmt.Sprintf("file%d%s", r.Intn(1000), exts[r.Intn(len(exts))]))
		paths[i] = strings.Join(p, "/")
	}
	for _, tc := range []struct {
		name string
		l    *ignoreList
	}{{"fast", fast}, {"linear", &linear}, {"library", lib}} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, p := range paths {
					tc.l.match(p, false)
				}
			}
		})
	}
}
