package collector

// ruleIndex sorts the rules of one ignore list by what a path must have
// for each to match, so that a path is tried only against the rules that
// could match it rather than against every line of every .gitignore of
// its chain (issue 24, warm11: the ignore rules were 5 % of a warm pack's
// CPU on the 100K tree, nearly all of it rules that could not match). A
// rule of a literal name is only a candidate for that name, one of a
// literal path for that path, "*.ext" for names ending in its last byte,
// "prefix*" for names starting with its first; every other rule is always
// tried. Each bucket lists its rules last first, so the last rule that
// matches — the one git obeys — is found by trying each bucket from its
// end and keeping the highest match ([ignoreList.matchIndexed]).
type ruleIndex struct {
	names    map[string][]int32 // fastName rules by their literal
	paths    map[string][]int32 // fastPath rules by their literal
	suffixes [256][]int32       // fastSuffix rules by their literal's last byte
	prefixes [256][]int32       // fastPrefix rules by their literal's first byte
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
	x := &ruleIndex{names: map[string][]int32{}, paths: map[string][]int32{}}
	for i := len(rules) - 1; i >= 0; i-- {
		g, k := &rules[i].fast, int32(i)
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

// matchIndexed is [ignoreList.match] through the list's index: the last
// rule that matches rel (whose last element is base), -1 when none.
func (l *ignoreList) matchIndexed(x *ruleIndex, rel, base string, isDir bool) int {
	best := l.firstMatch(x.rest, -1, rel, base, isDir)
	best = l.firstMatch(x.names[base], best, rel, base, isDir)
	best = l.firstMatch(x.paths[rel], best, rel, base, isDir)
	if base != "" {
		best = l.firstMatch(x.suffixes[base[len(base)-1]], best, rel, base, isDir)
		best = l.firstMatch(x.prefixes[base[0]], best, rel, base, isDir)
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
