package collector

import "strings"

// fastGlob is a gitignore pattern of one of the shapes most .gitignore
// lines have, matched with string comparisons instead of the library's
// regular expression: a name ("node_modules", "\#notes"), "*.ext",
// "prefix*", an anchored path without wildcards ("/dist", "docs/build"),
// and such a path followed by "/**". Every other line (other wildcards,
// brackets, "**" elsewhere) goes to go-gitignore, through libPattern and
// selfMatch. Matching 100,000 paths against a few hundred rules is
// otherwise mostly spent in regexp (docs/benchmarks.md "Cold path").
type fastGlob struct {
	kind    uint8 // 0: not fast
	lit     string
	dirOnly bool
}

// Kinds of fastGlob.
const (
	fastName   uint8 = 1 + iota // the last path element equals lit
	fastSuffix                  // the last path element ends with lit ("*" + lit)
	fastPrefix                  // the last path element starts with lit (lit + "*")
	fastPath                    // the path relative to the ignore file's directory equals lit
	fastInside                  // the path lies inside lit (lit + "/**"; with dirOnly, "/**/")
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
	var g fastGlob
	g.dirOnly = strings.HasSuffix(line, "/")
	line = strings.TrimRight(line, "/")
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
	// Unescape, noting a single leading or trailing star.
	var b strings.Builder
	lead, trail := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '\\':
			if i+1 == len(line) {
				return fastGlob{}
			}
			i++
			b.WriteByte(line[i])
		case '*':
			switch {
			case i == 0 && !anchored && !inside:
				lead = true
			case i == len(line)-1 && !anchored && !inside && !lead:
				trail = true
			default:
				return fastGlob{}
			}
		case '?', '[':
			return fastGlob{}
		default:
			b.WriteByte(c)
		}
	}
	g.lit = b.String()
	switch {
	case lead && trail, (lead || trail) && g.lit == "":
		return fastGlob{}
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

// match reports whether the pattern applies to rel (slash-separated,
// relative to the ignore file's directory) itself.
func (g *fastGlob) match(rel string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	switch g.kind {
	case fastPath:
		return rel == g.lit
	case fastInside:
		return len(rel) > len(g.lit) && rel[len(g.lit)] == '/' && strings.HasPrefix(rel, g.lit)
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	switch g.kind {
	case fastName:
		return base == g.lit
	case fastSuffix:
		return strings.HasSuffix(base, g.lit)
	case fastPrefix:
		return strings.HasPrefix(base, g.lit)
	}
	return false
}

// insideDirsOnly reports whether a gitignore line ends in "/**/": git
// applies it to the directories inside the one it names, never to files
// (libPattern drops the trailing slash with the "/**").
func insideDirsOnly(line string) bool {
	line = trimUnescapedSpaces(strings.TrimSuffix(line, "\r"))
	return strings.HasSuffix(line, "/**/")
}
