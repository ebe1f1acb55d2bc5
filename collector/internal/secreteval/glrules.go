package secreteval

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The second corpus is built from gitleaks (github.com/gitleaks/gitleaks,
// MIT licence), read at evaluation time from a copy of its repository that
// is never committed here: its rule set (config/gitleaks.toml: expression,
// secret group, keywords, entropy, allow-lists) and the true and false
// positive samples its rule tests carry (cmd/generate/config/rules/*.go).
// Values are generated from each rule's own expression, so the corpus holds
// values our rules were not written from.

// GitleaksEnv names the environment variable that locates gitleaks: a
// checkout, or a bare git mirror (read with git show).
const GitleaksEnv = "GITLEAKS_REPO"

// GLRule is one gitleaks rule.
type GLRule struct {
	ID          string
	Regex       *regexp.Regexp
	Source      string // the expression as written
	SecretGroup int
	Entropy     float64
	Keywords    []string
	Allow       []*regexp.Regexp // allow-list expressions matched against the secret
	Stopwords   []string
	PathOnly    bool     // a rule on file names only (no content expression); a content rule limited to some files is kept
	TPs, FPs    []string // the samples of its test in cmd/generate/config/rules
}

// GLSource is a gitleaks repository: a directory holding a checkout or a
// bare mirror.
type GLSource struct{ dir string }

// FindGitleaks locates gitleaks from $GITLEAKS_REPO, else from
// $EVAL_MIRRORS/gitleaks+gitleaks/repo (the layout of make eval's
// mirrors), else /work/.mirror; the error says how to provide it.
func FindGitleaks() (*GLSource, error) {
	var tried []string
	cands := []string{os.Getenv(GitleaksEnv)}
	for _, m := range []string{os.Getenv("EVAL_MIRRORS"), "/work/.mirror"} {
		if m != "" {
			cands = append(cands, filepath.Join(m, "gitleaks+gitleaks", "repo"), filepath.Join(m, "gitleaks+gitleaks"))
		}
	}
	for _, d := range cands {
		if d == "" {
			continue
		}
		tried = append(tried, d)
		s := &GLSource{d}
		if _, err := s.read("config/gitleaks.toml"); err == nil {
			return s, nil
		}
	}
	return nil, fmt.Errorf("gitleaks not found (tried %s): clone or mirror https://github.com/gitleaks/gitleaks and set %s to its directory (a checkout or a bare mirror)",
		strings.Join(tried, ", "), GitleaksEnv)
}

// Dir is where the repository was found.
func (s *GLSource) Dir() string { return s.dir }

func (s *GLSource) read(rel string) ([]byte, error) {
	if b, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(rel))); err == nil {
		return b, nil
	}
	out, err := exec.Command("git", "--git-dir", s.dir, "show", "HEAD:"+rel).Output()
	if err != nil {
		return nil, fmt.Errorf("read %s in %s: %w", rel, s.dir, err)
	}
	return out, nil
}

func (s *GLSource) list(dir string) ([]string, error) {
	if es, err := os.ReadDir(filepath.Join(s.dir, filepath.FromSlash(dir))); err == nil {
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out, nil
	}
	out, err := exec.Command("git", "--git-dir", s.dir, "ls-tree", "--name-only", "HEAD", dir+"/").Output()
	if err != nil {
		return nil, fmt.Errorf("list %s in %s: %w", dir, s.dir, err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		names = append(names, pathBase(l))
	}
	return names, nil
}

func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Rules loads the rule set with each rule's test samples.
func (s *GLSource) Rules() ([]*GLRule, error) {
	data, err := s.read("config/gitleaks.toml")
	if err != nil {
		return nil, err
	}
	rules, err := parseGitleaksTOML(data)
	if err != nil {
		return nil, err
	}
	names, err := s.list("cmd/generate/config/rules")
	if err != nil {
		return rules, nil // samples are a bonus
	}
	var tps, fps []string
	for _, n := range names {
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := s.read("cmd/generate/config/rules/" + n)
		if err != nil {
			continue
		}
		t, f := sampleStrings(src)
		tps, fps = append(tps, t...), append(fps, f...)
	}
	// A sample belongs to the rules whose expression finds a secret in it.
	for _, ru := range rules {
		if ru.Regex == nil {
			continue
		}
		for _, t := range tps {
			if ru.Secret(t) != "" {
				ru.TPs = append(ru.TPs, t)
			}
		}
		for _, f := range fps {
			if ru.keywordIn(f) && ru.Regex.MatchString(f) {
				ru.FPs = append(ru.FPs, f)
			}
		}
	}
	return rules, nil
}

// Secret returns the secret the rule finds in text ("" for none): the
// secret group, else the first non-empty group, else the whole match, as
// gitleaks takes it, subject to the keywords, the entropy and the
// allow-lists.
func (ru *GLRule) Secret(text string) string {
	if ru.Regex == nil || !ru.keywordIn(text) {
		return ""
	}
	for _, m := range ru.Regex.FindAllStringSubmatch(text, -1) {
		v := m[0]
		if ru.SecretGroup > 0 && ru.SecretGroup < len(m) {
			v = m[ru.SecretGroup]
		} else {
			for _, g := range m[1:] {
				if g != "" {
					v = g
					break
				}
			}
		}
		if v != "" && ru.accepts(v) {
			return v
		}
	}
	return ""
}

// Finds reports whether the rule flags secret somewhere in text.
func (ru *GLRule) Finds(text, secret string) bool {
	if ru.Regex == nil || !ru.keywordIn(text) {
		return false
	}
	for _, m := range ru.Regex.FindAllStringSubmatch(text, -1) {
		for i, g := range m {
			if (i > 0 || len(m) == 1 || ru.SecretGroup == 0) && g != "" && strings.Contains(g, secret) && ru.accepts(secret) {
				return true
			}
		}
	}
	return false
}

func (ru *GLRule) keywordIn(text string) bool {
	if len(ru.Keywords) == 0 {
		return true
	}
	l := strings.ToLower(text)
	for _, k := range ru.Keywords {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

func (ru *GLRule) accepts(v string) bool {
	if ru.Entropy > 0 && entropyOf(v) < ru.Entropy {
		return false
	}
	for _, a := range ru.Allow {
		if a.MatchString(v) {
			return false
		}
	}
	l := strings.ToLower(v)
	for _, w := range ru.Stopwords {
		if strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// parseGitleaksTOML reads the subset of TOML gitleaks' generated
// configuration uses: [[rules]] and [[rules.allowlists]] tables of
// strings (”'…”' or "…"), numbers and arrays of strings.
func parseGitleaksTOML(data []byte) ([]*GLRule, error) {
	var p tomlRules
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			p.table(strings.Trim(l, "[] "))
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("gitleaks.toml line %d: no key", i+1)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		var arr []string
		if strings.HasPrefix(val, "[") {
			var err error
			if arr, i, err = tomlArray(lines, i, val); err != nil {
				return nil, fmt.Errorf("gitleaks.toml line %d: %w", i+1, err)
			}
		}
		if err := p.set(key, val, arr); err != nil {
			return nil, err
		}
	}
	p.flushAllow()
	for _, ru := range p.rules {
		if ru.Regex == nil {
			ru.PathOnly = true
		}
	}
	if len(p.rules) < 100 {
		return nil, errors.New("gitleaks.toml: fewer than 100 rules read; has the format changed?")
	}
	sort.Slice(p.rules, func(i, j int) bool { return p.rules[i].ID < p.rules[j].ID })
	return p.rules, nil
}

// tomlRules is parseGitleaksTOML's state: the rules read, the one being
// read, the table it is in and the allow-list being read.
type tomlRules struct {
	rules        []*GLRule
	cur          *GLRule
	section      string
	allowTarget  string
	allowRegexes []string
}

// table starts the table named section ([[rules]] starts a rule).
func (p *tomlRules) table(section string) {
	p.flushAllow()
	p.section = section
	if section == "rules" {
		p.cur = &GLRule{}
		p.rules = append(p.rules, p.cur)
	}
}

// flushAllow adds the allow-list just read to its rule: only the lists
// that apply to the secret (gitleaks' default target).
func (p *tomlRules) flushAllow() {
	if p.cur != nil && p.section == "rules.allowlists" && (p.allowTarget == "" || p.allowTarget == "secret") {
		for _, a := range p.allowRegexes {
			if re, err := regexp.Compile(a); err == nil {
				p.cur.Allow = append(p.cur.Allow, re)
			}
		}
	}
	p.allowTarget, p.allowRegexes = "", nil
}

// set records key = val (arr when val is an array) in the current table.
func (p *tomlRules) set(key, val string, arr []string) error {
	switch {
	case p.cur == nil:
	case p.section == "rules.allowlists":
		p.setAllow(key, val, arr)
	case p.section == "rules":
		return p.setRule(key, val, arr)
	}
	return nil
}

func (p *tomlRules) setAllow(key, val string, arr []string) {
	switch key {
	case "regexTarget":
		p.allowTarget = tomlString(val)
	case "regexes":
		p.allowRegexes = arr
	case "stopwords":
		p.cur.Stopwords = append(p.cur.Stopwords, arr...)
	}
}

func (p *tomlRules) setRule(key, val string, arr []string) error {
	cur := p.cur
	switch key {
	case "id":
		cur.ID = tomlString(val)
	case "regex":
		cur.Source = tomlString(val)
		re, err := regexp.Compile(cur.Source)
		if err != nil {
			return fmt.Errorf("rule %s: %w", cur.ID, err)
		}
		cur.Regex = re
	case "secretGroup":
		cur.SecretGroup, _ = strconv.Atoi(val)
	case "entropy":
		cur.Entropy, _ = strconv.ParseFloat(val, 64)
	case "keywords":
		cur.Keywords = arr
	}
	return nil
}

// tomlArray reads the array that opens with val on line i, over as many
// lines as it takes; it returns the strings and the array's last line.
func tomlArray(lines []string, i int, val string) ([]string, int, error) {
	buf := val
	for !arrayClosed(buf) && i+1 < len(lines) {
		i++
		buf += "\n" + lines[i]
	}
	arr, err := tomlStrings(buf)
	return arr, i, err
}

func arrayClosed(s string) bool {
	inStr := ""
	for i := 0; i < len(s); i++ {
		switch {
		case inStr != "":
			if strings.HasPrefix(s[i:], inStr) {
				i += len(inStr) - 1
				inStr = ""
			} else if inStr == `"` && s[i] == '\\' {
				i++
			}
		case strings.HasPrefix(s[i:], "'''"):
			inStr = "'''"
			i += 2
		case s[i] == '"' || s[i] == '\'':
			inStr = string(s[i])
		case s[i] == ']':
			return true
		}
	}
	return false
}

var tomlStrRe = regexp.MustCompile(`'''((?s).*?)'''|"((?:[^"\\]|\\.)*)"|'([^']*)'`)

func tomlStrings(s string) ([]string, error) {
	var out []string
	for _, m := range tomlStrRe.FindAllStringSubmatch(s, -1) {
		switch {
		case strings.HasPrefix(m[0], "'''"):
			out = append(out, m[1])
		case strings.HasPrefix(m[0], `"`):
			u, err := strconv.Unquote(`"` + m[2] + `"`)
			if err != nil {
				return nil, err
			}
			out = append(out, u)
		default:
			out = append(out, m[3])
		}
	}
	return out, nil
}

func tomlString(v string) string {
	if a, _ := tomlStrings(v); len(a) > 0 {
		return a[0]
	}
	return v
}

// sampleStrings returns the string literals of the tps and fps lists of a
// rule file (variables named tps/fps, or fields TPs/FPs): samples its
// authors wrote as true and false positives.
func sampleStrings(src []byte) (tps, fps []string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "rule.go", src, 0)
	if err != nil {
		return nil, nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && i < len(as.Rhs) {
					switch strings.ToLower(id.Name) {
					case "tps":
						tps = sampleValues(as.Rhs[i], tps)
					case "fps":
						fps = sampleValues(as.Rhs[i], fps)
					}
				}
			}
		}
		return true
	})
	return dedup(tps), dedup(fps)
}

// sampleValues appends the strings assigned to tps or fps: a composite
// literal's, or those append adds (tps = append(tps, "…", …)).
func sampleValues(rhs ast.Expr, into []string) []string {
	switch e := rhs.(type) {
	case *ast.CompositeLit:
		return stringLits(e, into)
	case *ast.CallExpr:
		if fn, ok := e.Fun.(*ast.Ident); ok && fn.Name == "append" && len(e.Args) > 1 {
			for _, a := range e.Args[1:] {
				into = stringLits(a, into)
			}
		}
	}
	return into
}

// stringLits appends the string literals of 8 bytes or more in e, except
// those inside calls (generated samples: secrets.NewSecret,
// utils.GenerateSampleSecrets).
func stringLits(e ast.Expr, into []string) []string {
	ast.Inspect(e, func(n ast.Node) bool {
		if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if s, err := strconv.Unquote(bl.Value); err == nil && len(s) >= 8 {
				into = append(into, s)
			}
		}
		_, call := n.(*ast.CallExpr)
		return !call
	})
	return into
}

func dedup(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		s = string(bytes.TrimSpace([]byte(s)))
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
