package collector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// maxIgnoreFileSize caps the .gitignore files read; a larger one is skipped.
const maxIgnoreFileSize = 1 << 20

// ignoreRule is one pattern line of a .gitignore file or of context.exclude.
// Each line is compiled on its own so that the collector, not the library,
// decides precedence (last match wins, deeper files win) and can name the
// line that decided.
type ignoreRule struct {
	gi     *ignore.GitIgnore
	fast   fastGlob // a pattern matched without the library, when fast.kind != 0
	negate bool
	// inside marks a pattern that ended in "/**": it matches what lies
	// inside a directory matching gi, never that directory itself; with
	// insideDirs ("/**/") only the directories among it.
	inside     bool
	insideDirs bool
	line       int
	text       string
}

// ignoreList is the rules of one file, relative to the directory base.
type ignoreList struct {
	base   string // absolute directory the patterns are relative to
	origin string // ".gitignore" path for messages, or "context.exclude"
	rules  []ignoreRule
	index  *ruleIndex // the rules by what they can match (ignore_index.go); nil: try each
}

// compileIgnore compiles gitignore lines. It returns the lines that cannot
// be patterns (for context.exclude, which reports them).
func compileIgnore(base, origin string, lines []string) (*ignoreList, []string) {
	l := &ignoreList{base: base, origin: origin}
	var bad []string
	for i, raw := range lines {
		pat, negate, inside, ok := libPattern(raw)
		if !ok {
			if t := strings.TrimSpace(raw); t != "" && !strings.HasPrefix(t, "#") {
				bad = append(bad, raw)
			}
			continue
		}
		r := ignoreRule{fast: compileFast(raw)}
		if r.fast.kind == 0 {
			r.gi = compileLib(pat) // the other shapes: go-gitignore
		}
		l.rules = append(l.rules, ignoreRule{
			gi:         r.gi,
			fast:       r.fast,
			negate:     negate,
			inside:     inside,
			insideDirs: inside && insideDirsOnly(raw),
			line:       i + 1,
			text:       strings.TrimRight(raw, "\r"),
		})
	}
	l.index = indexRules(l.rules)
	return l, bad
}

// compileLib compiles a pattern rewritten by libPattern with go-gitignore.
func compileLib(pat string) *ignore.GitIgnore { return ignore.CompileIgnoreLines(pat) }

// match reports whether the list decides about rel (slash-separated,
// relative to base), whether that decision is "ignored", and the deciding
// rule. The last matching rule wins, as in git.
func (l *ignoreList) match(rel string, isDir bool) (decided, ignored bool, rule *ignoreRule) {
	// The last rule that matches decides: the rules are tried from the
	// last, up to the first that matches; rel's last element is found once
	// for all of them.
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if l.index != nil {
		if i := l.matchIndexed(l.index, rel, base, isDir); i >= 0 {
			r := &l.rules[i]
			return true, !r.negate, r
		}
		return false, false, nil
	}
	for i := len(l.rules) - 1; i >= 0; i-- {
		if r := &l.rules[i]; r.matches(rel, base, isDir) {
			return true, !r.negate, r
		}
	}
	return false, false, nil
}

// matches reports whether the rule applies to rel, whose last element is
// base.
func (r *ignoreRule) matches(rel, base string, isDir bool) bool {
	if r.fast.kind != 0 {
		return r.fast.matchBase(rel, base, isDir)
	}
	if !r.inside {
		return selfMatch(r.gi, rel, isDir)
	}
	if r.insideDirs && !isDir {
		return false
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && selfMatch(r.gi, rel[:i], true) {
			return true
		}
	}
	return false
}

// selfMatch reports whether the pattern matches rel itself.
//
// go-gitignore defect: every compiled pattern ends in (|/.*)$, so a pattern
// also matches everything below a matching directory. git applies a pattern
// to the path itself only (what lies below an ignored directory is never
// looked at), and the difference shows with negations: "*.log" then
// "!important/" must leave important/debug.log ignored, and "/*" must not
// match src/main.go. A match that only comes from a matching ancestor is
// therefore discarded.
func selfMatch(gi *ignore.GitIgnore, rel string, isDir bool) bool {
	p := rel
	if isDir {
		p += "/"
	}
	if !gi.MatchesPath(p) {
		return false
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && gi.MatchesPath(rel[:i+1]) {
			return false
		}
	}
	return true
}

// describe is the Detail of an exclusion decided by rule r.
func (l *ignoreList) describe(r *ignoreRule) string {
	if l.origin == excludeOrigin {
		return fmt.Sprintf("matches context.exclude pattern %q", r.text)
	}
	return fmt.Sprintf("matches %s line %d (%s)", l.origin, r.line, r.text)
}

const excludeOrigin = "context.exclude"

// libPattern rewrites one gitignore line into the dialect go-gitignore
// compiles correctly, working around its defects:
//
//   - a pattern with a slash in the middle ("docs/build") is anchored to the
//     .gitignore's directory by git, but go-gitignore only anchors a leading
//     slash: such patterns get one;
//   - "?" is compiled as a literal question mark: it becomes [^/];
//   - regular-expression metacharacters (+ ( ) { } | ^ $) are not escaped and
//     make the pattern silently vanish: they are escaped;
//   - "[!a-z]" is not negated: it becomes [^a-z];
//   - leading spaces are trimmed and escaped trailing spaces are not
//     supported: spaces are kept as [ ];
//   - a backslash escape is kept by the library as a regular-expression
//     escape: escaped characters become literals;
//   - a trailing "/**" also matches the directory itself: it is cut off and
//     reported as inside, for the caller to match what lies below.
//
// It returns ok=false for blank lines, comments and lines that cannot be a
// pattern (a lone "!" or a trailing backslash).
func libPattern(line string) (pat string, negate, inside, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return "", false, false, false
	}
	if line[0] == '!' {
		negate = true
		line = line[1:]
	}
	line = trimUnescapedSpaces(line)
	dirOnly := strings.HasSuffix(line, "/")
	line = strings.TrimRight(line, "/")
	anchored := strings.HasPrefix(line, "/") || (strings.Contains(line, "/") && !strings.HasPrefix(line, "**/"))
	line = strings.TrimLeft(line, "/")
	if strings.HasSuffix(line, "/**") {
		inside, dirOnly = true, false
		line = strings.TrimSuffix(line, "/**")
	}
	if line == "" {
		return "", false, false, false
	}
	var b strings.Builder
	if anchored {
		b.WriteByte('/')
	}
	if !translateGlob(&b, line) {
		return "", false, false, false
	}
	if dirOnly {
		b.WriteByte('/')
	}
	return b.String(), negate, inside, true
}

// translateGlob writes a pattern's body in the library's syntax: escapes
// resolved, '?' as [^/], classes translated (an invalid one is a literal
// '['). It fails on a trailing backslash.
func translateGlob(b *strings.Builder, line string) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case '\\':
			if i+1 == len(line) {
				return false
			}
			i++
			writeLiteral(b, line[i])
		case '?':
			b.WriteString("[^/]")
		case '*', '/':
			b.WriteByte(c)
		case '[':
			class, end := translateClass(line, i)
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(class)
			i = end
		default:
			writeLiteral(b, c)
		}
	}
	return true
}

// writeLiteral writes c so that go-gitignore matches it literally.
func writeLiteral(b *strings.Builder, c byte) {
	switch c {
	case '.':
		b.WriteByte('.') // escaped by the library
	case '*':
		b.WriteString(`\*`) // turned into a literal star by the library
	case '?', ' ', '#', '!', '\\':
		b.WriteByte('[')
		if c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		b.WriteByte(']')
	case '[', ']', '+', '(', ')', '{', '}', '|', '^', '$':
		b.WriteByte('\\')
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
}

// translateClass turns the bracket expression starting at line[i] into a
// regular-expression class and returns it with the index of its closing
// bracket, or end -1 when there is no valid class there.
func translateClass(line string, i int) (class string, end int) {
	j := i + 1
	var b strings.Builder
	b.WriteByte('[')
	if j < len(line) && (line[j] == '!' || line[j] == '^') {
		b.WriteByte('^')
		j++
	}
	for first := true; j < len(line); j, first = j+1, false {
		c := line[j]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			class = b.String()
			if _, err := regexp.Compile(class); err != nil {
				return "", -1
			}
			return class, j
		case c == '[' && j+1 < len(line) && line[j+1] == ':':
			k := strings.Index(line[j+2:], ":]")
			if k < 0 {
				return "", -1
			}
			b.WriteString(line[j : j+2+k+2])
			j += 2 + k + 1
		case c == '/':
			return "", -1
		default:
			j = classByte(&b, line, j)
		}
	}
	return "", -1
}

// classByte writes the class member at line[j] (an escape pair, or a byte
// escaped when the regexp syntax would read it as syntax) and returns the
// index of its last byte.
func classByte(b *strings.Builder, line string, j int) int {
	switch c := line[j]; {
	case c == '\\' && j+1 < len(line):
		b.WriteByte('\\')
		b.WriteByte(line[j+1])
		return j + 1
	case c == '*' || c == '?' || c == ']' || c == '[' || c == '^':
		b.WriteByte('\\')
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
	return j
}

// trimUnescapedSpaces drops trailing spaces unless escaped with a backslash.
func trimUnescapedSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// cachedIgnore is a parsed .gitignore with the stat it was parsed from.
type cachedIgnore struct {
	mod  time.Time
	size int64
	list *ignoreList // nil: no usable file
}

// loadIgnore returns the parsed ignore file at dir/name (nil when absent),
// from the cache while the file is unchanged. origin names it in messages.
func (w *Workspace) loadIgnore(dir, name string) *ignoreList {
	p := filepath.Join(dir, name)
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxIgnoreFileSize {
		return nil
	}
	w.mu.Lock()
	c, ok := w.ignoreCache[p]
	w.mu.Unlock()
	if ok && c.mod.Equal(info.ModTime()) && c.size == info.Size() {
		return c.list
	}
	data, err := safeio.ReadFile(context.Background(), p, maxIgnoreFileSize, safeio.Options{NoFollow: true, Expect: info})
	if err != nil {
		return nil
	}
	origin := filepath.ToSlash(p)
	if rel, inside := w.relResolved(p); inside {
		origin = rel
	}
	list, _ := compileIgnore(dir, origin, strings.Split(string(data), "\n"))
	if len(list.rules) == 0 {
		list = nil
	}
	w.mu.Lock()
	w.ignoreCache[p] = cachedIgnore{mod: info.ModTime(), size: info.Size(), list: list}
	w.mu.Unlock()
	return list
}

// ignoreChain is the ignore lists in force in a directory, outermost first.
type ignoreChain []*ignoreList

// with returns the chain extended by l (the receiver is never modified, so
// siblings can share a prefix).
func (c ignoreChain) with(l *ignoreList) ignoreChain {
	if l == nil {
		return c
	}
	return append(c[:len(c):len(c)], l)
}

// decide returns whether abs is ignored by the chain or by the root's
// context.exclude patterns, and why.
func (w *Workspace) decide(r *root, chain ignoreChain, abs string, isDir bool) (bool, string) {
	ignored, why := false, ""
	for _, l := range chain {
		rel, ok := relSlash(l.base, abs)
		if !ok {
			continue
		}
		if decided, ig, rule := l.match(rel, isDir); decided {
			ignored, why = ig, l.describe(rule)
		}
	}
	if ignored {
		return true, why
	}
	if r.excludes != nil {
		if rel, ok := relSlash(r.abs, abs); ok {
			decided, ig, rule := r.excludes.match(rel, isDir)
			if decided && ig {
				return true, r.excludes.describe(rule)
			}
			if decided {
				return false, "" // a context.exclude negation lets it in
			}
		}
	}
	if isDir && len(chain) == 0 {
		return w.defaultIgnored(abs)
	}
	return false, ""
}

// chainAbove returns the ignore lists in force for the entries of dir, not
// counting dir's own .gitignore: the repository's info/exclude and the
// .gitignore files from the repository top down to dir's parent.
func (w *Workspace) chainAbove(r *root, dir string) ignoreChain {
	chain := r.chain
	rel, ok := relSlash(r.abs, dir)
	if !ok || rel == "." {
		return chain
	}
	cur := r.abs
	chain = chain.with(w.loadIgnore(cur, ".gitignore"))
	parts := strings.Split(rel, "/")
	for _, part := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, part)
		chain = chain.with(w.loadIgnore(cur, ".gitignore"))
	}
	return chain
}

// ignoredPath checks abs and every directory between its root and abs
// against the ignore rules, as a walk from the root would. It is used for
// paths named directly (Read, explicit Walk paths, symlink targets).
func (w *Workspace) ignoredPath(r *root, abs string, isDir bool) (bool, string) {
	rel, ok := relSlash(r.abs, abs)
	if !ok || rel == "." {
		return false, ""
	}
	chain := r.chain
	cur := r.abs
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		chain = chain.with(w.loadIgnore(cur, ".gitignore"))
		cur = filepath.Join(cur, part)
		last := i == len(parts)-1
		if part == ".git" {
			return true, "inside the .git directory"
		}
		if ig, why := w.decide(r, chain, cur, isDir || !last); ig {
			if !last {
				why = "directory " + strings.Join(parts[:i+1], "/") + " " + why
			}
			return true, why
		}
	}
	return false, ""
}

// repoChain finds the git repository that contains root (looking upward
// for .git) and returns the ignore lists that apply above root: the
// repository's info/exclude and the .gitignore files from the repository
// top down to root's parent. root's own .gitignore is not included.
func (w *Workspace) repoChain(root string) ignoreChain {
	var dirs []string
	top := ""
	for d := root; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		dirs = append(dirs, parent)
		d = parent
	}
	var chain ignoreChain
	if top == "" {
		return chain
	}
	if info, err := os.Lstat(filepath.Join(top, ".git")); err == nil && info.IsDir() {
		if l := w.loadIgnore(filepath.Join(top, ".git", "info"), "exclude"); l != nil {
			l2 := *l
			l2.base = top
			chain = chain.with(&l2)
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		chain = chain.with(w.loadIgnore(dirs[i], ".gitignore"))
	}
	return chain
}

// relSlash returns target relative to base, slash-separated, and whether
// target is base itself or below it.
func relSlash(base, target string) (string, bool) {
	if target == base {
		return ".", true
	}
	// target must start with base and a separator (base's own final one,
	// or the next byte); no prefix string is built (one per entry and
	// ignore list of a walk).
	n := len(base)
	if !strings.HasPrefix(target, base) {
		return "", false
	}
	if !strings.HasSuffix(base, string(filepath.Separator)) {
		if len(target) <= n || target[n] != filepath.Separator {
			return "", false
		}
		n++
	}
	return filepath.ToSlash(target[n:]), true
}
