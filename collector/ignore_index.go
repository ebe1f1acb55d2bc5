package collector

import "strings"

// ruleIndex sorts the rules of one ignore list by what a path must have
// for each to match, so that a path is tried only against the rules that
// could match it rather than against every line of every .gitignore of
// its chain (issue 24, warm11: the ignore rules were 5 % of a warm pack's
// CPU on the 100K tree, nearly all of it rules that could not match). A
// rule of a literal name is only a candidate for that name, one of a
// literal path for that path, "*.ext" for names ending in its last byte,
// "prefix*" for names starting with its first, a one-segment glob for
// names ending (or else starting) with its literal last (first) byte, a
// glob of N segments for paths of N segments starting with its literal
// first byte; every other rule is always tried. Each bucket lists its rules last first, so the last rule that
// matches — the one git obeys — is found by trying each bucket from its
// end and keeping the highest match ([ignoreList.matchIndexed]).
type ruleIndex struct {
	names    map[string][]int32 // fastName rules by their literal
	paths    map[string][]int32 // fastPath rules by their literal
	suffixes [256][]int32       // fastSuffix rules by their literal's last byte
	prefixes [256][]int32       // fastPrefix rules by their literal's first byte
	lastOf   [256][]int32       // fastBaseGlob rules ending in a literal byte, by it
	firstOf  [256][]int32       // other fastBaseGlob rules starting with a literal byte, by it
	segs     map[uint16][]int32 // fastPathGlob rules by segments<<8 | literal first byte (0: none)
	rest     []int32            // every other rule
}

// minIndexedRules is the size of a list from which it is indexed: below
// it, trying every rule costs less than the index's lookups.
const minIndexedRules = 8

// indexRules returns the index of rules (nil for a short list). Buckets
// are filled from the last rule to the first.
func indexRules(rules []ignoreRule) *ruleIndex {
	if len(rules) < minIndexedRules {
		return nil
	}
	x := &ruleIndex{names: map[string][]int32{}, paths: map[string][]int32{}, segs: map[uint16][]int32{}}
	for i := len(rules) - 1; i >= 0; i-- {
		g, k := &rules[i].fast, int32(i)
		if x.indexGlob(g, k) {
			continue
		}
		switch {
		case g.kind == fastName:
			x.names[g.lit] = append(x.names[g.lit], k)
		case g.kind == fastPath:
			x.paths[g.lit] = append(x.paths[g.lit], k)
		case g.kind == fastSuffix && g.lit != "":
			b := g.lit[len(g.lit)-1]
			x.suffixes[b] = append(x.suffixes[b], k)
		case g.kind == fastPrefix && g.lit != "":
			x.prefixes[g.lit[0]] = append(x.prefixes[g.lit[0]], k)
		default:
			x.rest = append(x.rest, k)
		}
	}
	return x
}

// indexGlob files the glob rule g (number k) by what it needs; false
// when it is not such a rule or needs nothing indexed.
func (x *ruleIndex) indexGlob(g *fastGlob, k int32) bool {
	switch {
	case g.kind == fastBaseGlob && literalLast(g.lit):
		b := g.lit[len(g.lit)-1]
		x.lastOf[b] = append(x.lastOf[b], k)
	case g.kind == fastBaseGlob && literalFirst(g.lit):
		x.firstOf[g.lit[0]] = append(x.firstOf[g.lit[0]], k)
	case g.kind == fastPathGlob && g.nseg > 0 && g.nseg < 256:
		key := uint16(g.nseg) << 8
		if literalFirst(g.lit) {
			key |= uint16(g.lit[0])
		}
		x.segs[key] = append(x.segs[key], k)
	default:
		return false
	}
	return true
}

// literalFirst reports whether the glob p starts with a byte that only
// that byte matches.
func literalFirst(p string) bool {
	return p != "" && p[0] != 0 && !strings.ContainsRune(`*?[\`, rune(p[0]))
}

// literalLast reports whether the glob p ends with a byte that only that
// byte matches (not a wildcard, a class's end or an escaped byte).
func literalLast(p string) bool {
	n := len(p)
	return n > 0 && !strings.ContainsRune(`*?]\`, rune(p[n-1])) && (n == 1 || p[n-2] != '\\')
}

// matchIndexed is [ignoreList.match] through the list's index: the last
// rule that matches rel (whose last element is base), -1 when none.
func (l *ignoreList) matchIndexed(x *ruleIndex, rel, base string, isDir bool) int {
	best := l.firstMatch(x.rest, -1, rel, base, isDir)
	best = l.firstMatch(x.names[base], best, rel, base, isDir)
	best = l.firstMatch(x.paths[rel], best, rel, base, isDir)
	if base != "" {
		last := base[len(base)-1]
		best = l.firstMatch(x.suffixes[last], best, rel, base, isDir)
		best = l.firstMatch(x.prefixes[base[0]], best, rel, base, isDir)
		best = l.firstMatch(x.lastOf[last], best, rel, base, isDir)
		best = l.firstMatch(x.firstOf[base[0]], best, rel, base, isDir)
	}
	if len(x.segs) > 0 && rel != "" {
		if n := strings.Count(rel, "/") + 1; n < 256 {
			best = l.firstMatch(x.segs[uint16(n)<<8], best, rel, base, isDir)
			if rel[0] != 0 {
				best = l.firstMatch(x.segs[uint16(n)<<8|uint16(rel[0])], best, rel, base, isDir)
			}
		}
	}
	return best
}

// firstMatch returns the first rule of bucket (rules last first) above
// best that matches, else best.
func (l *ignoreList) firstMatch(bucket []int32, best int, rel, base string, isDir bool) int {
	for _, k := range bucket {
		if int(k) <= best {
			return best
		}
		if l.rules[k].matches(rel, base, isDir) {
			return int(k)
		}
	}
	return best
}
