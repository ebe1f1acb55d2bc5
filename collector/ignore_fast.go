package collector

import "strings"

// fastGlob is a gitignore pattern of one of the shapes most .gitignore
// lines have, matched with string comparisons instead of the library's
// regular expression: a name ("node_modules", "\#notes"), "*.ext",
// "prefix*", an anchored path without wildcards ("/dist", "docs/build"),
// and such a path followed by "/**"; and, matched by a small wildmatch,
// globs with "*", "?" and brackets inside segments ("*.[oa]", "bin/*",
// "/test/*/backup/", "**/generated"). The rest ("**" in the middle,
// "[:alpha:]", ...) goes to go-gitignore, through libPattern and
// selfMatch. Matching 100,000 paths against a few hundred rules is
// otherwise mostly spent in regexp (docs/benchmarks.md "Cold path").
type fastGlob struct {
	kind    uint8 // 0: not fast
	lit     string
	nseg    int // glob kinds: the number of "/"-separated segments of lit
	dirOnly bool
}

// Kinds of fastGlob.
const (
	fastName     uint8 = 1 + iota // the last path element equals lit
	fastSuffix                    // the last path element ends with lit ("*" + lit)
	fastPrefix                    // the last path element starts with lit (lit + "*")
	fastPath                      // the path relative to the ignore file's directory equals lit
	fastInside                    // the path lies inside lit (lit + "/**"; with dirOnly, "/**/")
	fastBaseGlob                  // the last path element matches the one-segment glob lit
	fastPathGlob                  // the path's segments match lit's, one for one
	fastTailGlob                  // the path's last nseg segments match lit's ("**/" + lit)
)

// compileFast returns the fast form of a gitignore line, or a zero
// fastGlob when the line is not of a fast shape (or not a pattern). It
// reads the line with the same rules as libPattern: "!" negates (handled by
// the caller), trailing unescaped spaces are dropped, a trailing "/" means
// directories only, a leading or middle "/" anchors, a backslash makes the
// next character literal.
func compileFast(line string) fastGlob {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return fastGlob{}
	}
	if line[0] == '!' {
		line = line[1:]
	}
	line = trimUnescapedSpaces(line)
	dirOnly := strings.HasSuffix(line, "/")
	line = strings.TrimRight(line, "/")
	if g := compileLiteral(line, dirOnly); g.kind != 0 {
		return g
	}
	return compileGlob(line, dirOnly)
}

// compileLiteral returns the fast form of a pattern (a line as compileFast
// read it: no "!", no trailing spaces or "/") whose only wildcard is a
// single leading or trailing star of an unanchored name, or a zero fastGlob.
func compileLiteral(line string, dirOnly bool) fastGlob {
	inside := false
	if strings.HasSuffix(line, "/**") {
		inside = true // "dir/**/" keeps dirOnly: only directories inside
		line = strings.TrimSuffix(line, "/**")
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimLeft(line, "/")
	if line == "" || strings.HasPrefix(line, "**") {
		return fastGlob{}
	}
	lit, lead, trail, ok := unescapeLiteral(line, !anchored && !inside)
	if !ok || lead && trail || (lead || trail) && lit == "" {
		return fastGlob{}
	}
	g := fastGlob{dirOnly: dirOnly, lit: lit}
	switch {
	case inside:
		g.kind = fastInside
	case anchored:
		g.kind = fastPath
	case lead:
		g.kind = fastSuffix
	case trail:
		g.kind = fastPrefix
	default:
		g.kind = fastName
	}
	return g
}

// unescapeLiteral unescapes a pattern that is a literal but for a single
// leading or trailing star (allowed only when stars is set), and reports
// which star it had; ok is false for any other wildcard or a trailing
// backslash.
func unescapeLiteral(line string, stars bool) (lit string, lead, trail, ok bool) {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '\\':
			if i+1 == len(line) {
				return "", false, false, false
			}
			i++
			b.WriteByte(line[i])
		case '*':
			switch {
			case i == 0 && stars:
				lead = true
			case i == len(line)-1 && stars && !lead:
				trail = true
			default:
				return "", false, false, false
			}
		case '?', '[':
			return "", false, false, false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), lead, trail, true
}

// match reports whether the pattern applies to rel (slash-separated,
// relative to the ignore file's directory) itself.
func (g *fastGlob) match(rel string, isDir bool) bool {
	return g.matchBase(rel, rel[strings.LastIndexByte(rel, '/')+1:], isDir)
}

// matchBase is match for rel whose last element base the caller found.
func (g *fastGlob) matchBase(rel, base string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	switch g.kind {
	case fastPath:
		return rel == g.lit
	case fastInside:
		return len(rel) > len(g.lit) && rel[len(g.lit)] == '/' && strings.HasPrefix(rel, g.lit)
	case fastPathGlob:
		return strings.Count(rel, "/") == g.nseg-1 && globSegs(g.lit, rel)
	case fastTailGlob:
		return g.matchTail(rel)
	}
	switch g.kind {
	case fastName:
		return base == g.lit
	case fastSuffix:
		return strings.HasSuffix(base, g.lit)
	case fastPrefix:
		return strings.HasPrefix(base, g.lit)
	case fastBaseGlob:
		return globSeg(g.lit, base)
	}
	return false
}

// matchTail matches a fastTailGlob: its nseg segments against the last
// nseg of rel.
func (g *fastGlob) matchTail(rel string) bool {
	// Start at the nseg-th slash from the end (or the path's start).
	i := len(rel)
	for n := 0; n < g.nseg; n++ {
		if i < 0 {
			return false
		}
		i = strings.LastIndexByte(rel[:i], '/')
	}
	return globSegs(g.lit, rel[i+1:])
}

// compileGlob returns the fast form of a pattern (read as by compileFast) made of "/"-separated
// segments with the wildcards "*", "?" and simple bracket expressions
// ("[abc]", "[a-z]", "[!0-9]") inside segments, optionally led by "**/";
// or a zero fastGlob. It refuses what it does not reproduce exactly as
// git's wildmatch does: "**" anywhere else, a trailing "/**" with other
// wildcards, "[:class:]", backslashes or "[" inside brackets, an
// unterminated bracket, an escaped or doubled slash.
func compileGlob(line string, dirOnly bool) fastGlob {
	g := fastGlob{dirOnly: dirOnly}
	anchored := strings.Contains(line, "/")
	tail := false
	switch {
	case strings.HasPrefix(line, "**/"):
		tail, line = true, line[3:]
	case strings.HasPrefix(line, "/"):
		line = line[1:]
	}
	if line == "" || strings.Contains(line, "**") || strings.Contains(line, "//") ||
		strings.HasPrefix(line, "/") || strings.Contains(line, `\/`) {
		return fastGlob{}
	}
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if i+1 == len(line) {
				return fastGlob{}
			}
			i++
		case '[':
			end := classEnd(line, i)
			if end < 0 {
				return fastGlob{}
			}
			i = end
		}
	}
	g.lit = line
	g.nseg = strings.Count(line, "/") + 1
	switch {
	case tail:
		g.kind = fastTailGlob
	case anchored:
		g.kind = fastPathGlob
	default:
		g.kind = fastBaseGlob
	}
	return g
}

// classEnd returns the index of the "]" closing the bracket expression at
// p[i], or -1 when it is not one compileGlob accepts. As in git, a "]"
// right after "[" or "[!" / "[^" is a member, not the end.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	for first := true; j < len(p); j, first = j+1, false {
		switch c := p[j]; {
		case c == ']' && !first:
			return j
		case c == '\\' || c == '[' || c == '/':
			return -1
		}
	}
	return -1
}

// globSegs matches the "/"-separated segments of the glob p against those
// of s, one for one (the caller has checked that their counts agree).
func globSegs(p, s string) bool {
	for {
		pi, si := strings.IndexByte(p, '/'), strings.IndexByte(s, '/')
		if pi < 0 || si < 0 {
			return pi < 0 && si < 0 && globSeg(p, s)
		}
		if !globSeg(p[:pi], s[:si]) {
			return false
		}
		p, s = p[pi+1:], s[si+1:]
	}
}

// globSeg reports whether the one-segment glob p (validated by
// compileGlob) matches the path element s, byte by byte as git's wildmatch
// does: "*" any run of bytes, "?" one byte, "[...]" one byte of the class,
// a backslash makes the next byte literal.
func globSeg(p, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for px < len(p) || sx < len(s) {
		if px < len(p) {
			if p[px] == '*' {
				starP, starS = px, sx
				px++
				continue
			}
			if sx < len(s) {
				next := -1
				switch e := p[px]; {
				case e == '[' || e == '\\':
					next = segSpecial(p, px, s[sx])
				case e == s[sx] || e == '?':
					next = px + 1
				}
				if next >= 0 {
					px, sx = next, sx+1
					continue
				}
			}
		}
		if starP >= 0 && starS < len(s) {
			starS++
			px, sx = starP+1, starS
			continue
		}
		return false
	}
	return true
}

// segSpecial matches a class or an escaped byte at p[px] against byte c:
// the index after it, or -1.
func segSpecial(p string, px int, c byte) int {
	if p[px] == '\\' {
		if c == p[px+1] {
			return px + 2
		}
		return -1
	}
	if ok, next := matchClass(p, px, c); ok {
		return next
	}
	return -1
}

// matchClass reports whether the byte c is in the bracket expression at
// p[i] (validated by classEnd) and returns the index after it. Ranges
// follow git: "-" is a range between the previous member and the next
// byte unless it comes first or last; a range's end is not the start of
// another.
func matchClass(p string, i int, c byte) (bool, int) {
	j := i + 1
	neg := p[j] == '!' || p[j] == '^'
	if neg {
		j++
	}
	matched := false
	var prev byte
	for first := true; first || p[j] != ']'; first = false {
		pc := p[j]
		if pc == '-' && prev != 0 && p[j+1] != ']' {
			if c >= prev && c <= p[j+1] {
				matched = true
			}
			j += 2
			prev = 0
			continue
		}
		if c == pc {
			matched = true
		}
		prev = pc
		j++
	}
	return matched != neg, j + 1
}

// insideDirsOnly reports whether a gitignore line ends in "/**/": git
// applies it to the directories inside the one it names, never to files
// (libPattern drops the trailing slash with the "/**").
func insideDirsOnly(line string) bool {
	line = trimUnescapedSpaces(strings.TrimSuffix(line, "\r"))
	return strings.HasSuffix(line, "/**/")
}
