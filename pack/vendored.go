package pack

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// Vendored copies without a vendor/ name (docs/ranking.md "Lexical
// relevance", prior): a directory that carries its own licence file and
// sits inside a directory of code — requests/packages/urllib3 under the
// requests package, pip/_vendor/x — is a copy of another project kept in
// the tree. It shares the library's words (a copied HTTP library holds
// every word of an HTTP task) and crowds the project's own code out, so
// it weighs as a built or vendored file does (builtFactor). A licence at
// the top of a module (gson/LICENSE) or of a package in a monorepo
// (packages/x/LICENSE, its parent holds no code) does not count.
const featVendored = "vendored"

// vendoredMemo remembers the last answer of vendoredDirs for a list of
// 512 paths or more: a running server's warm packs list the same files
// and asked it again on every pack (issue 24: 4.5 % of a warm MCP pack of
// Go's src). Comparing the lists costs a fraction of classifying them (a
// kept listing's paths are the same strings).
var vendoredMemo struct {
	sync.Mutex
	paths, dirs []string
}

// vendoredMemoMin: a shorter list is classified, not remembered.
const vendoredMemoMin = 512

// vendoredDirs returns the vendored-copy directories among the parents of
// paths (slash-separated, relative to the workspace), sorted.
func vendoredDirs(paths []string) []string {
	if len(paths) < vendoredMemoMin {
		return classifyVendored(paths)
	}
	m := &vendoredMemo
	m.Lock()
	if slices.Equal(m.paths, paths) {
		defer m.Unlock()
		return slices.Clone(m.dirs)
	}
	m.Unlock()
	dirs := classifyVendored(paths)
	m.Lock()
	m.paths, m.dirs = slices.Clone(paths), slices.Clone(dirs)
	m.Unlock()
	return dirs
}

// classifyVendored is vendoredDirs without the memo.
func classifyVendored(paths []string) []string {
	code := map[string]bool{} // directories directly holding code
	var lic []string
	var lastHead, lastDir, lastCode string
	for _, p := range paths {
		// path.Dir(p) is Clean of p up to its last slash: the same for
		// the files of one directory, which the listing gives together.
		head := p[:strings.LastIndexByte(p, '/')+1]
		if head != lastHead || lastDir == "" {
			lastHead, lastDir = head, path.Dir(p)
		}
		dir := lastDir
		base := p[len(head):] // path.Base(p) but for a path ending in a slash
		if base == "" {
			base = path.Base(p)
		}
		if isLicence(base) {
			lic = append(lic, dir)
		} else if dir != lastCode && chunker.Language(p) != "" && !isProse(p) {
			code[dir], lastCode = true, dir // once for the files of a directory, which come together
		}
	}
	var out []string
	for _, d := range lic {
		if d == "." || !strings.Contains(d, "/") {
			continue
		}
		if code[path.Dir(d)] {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return uniq(out)
}

// isLicence reports whether a file name is a licence's (LICENSE,
// LICENCE.txt, COPYING, LICENSE-MIT …).
func isLicence(base string) bool {
	ascii := true
	for i := 0; i < len(base) && i < len("LICENSE"); i++ {
		ascii = ascii && base[i] < utf8.RuneSelf
	}
	if ascii { // upper-casing keeps the leading ASCII bytes in place
		return hasPrefixFoldASCII(base, "LICENSE") || hasPrefixFoldASCII(base, "LICENCE") || hasPrefixFoldASCII(base, "COPYING")
	}
	b := strings.ToUpper(base)
	return strings.HasPrefix(b, "LICENSE") || strings.HasPrefix(b, "LICENCE") || strings.HasPrefix(b, "COPYING")
}

// inVendored reports whether p lies under one of dirs.
func inVendored(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d) && len(p) > len(d) && p[len(d)] == '/' {
			return true
		}
	}
	return false
}

// vendoredOf returns the vendored-copy directories of the pack: from the
// files the walk listed when it ranked files first, else from the paths
// of the candidate chunks; nil when the feature is off.
func (p *pipeline) vendoredOf(items []*budget.Item, feat features) []string {
	if !feat.vendored {
		return nil
	}
	if p.vendored != nil {
		return *p.vendored
	}
	seen := map[string]bool{}
	var paths []string
	for _, it := range items {
		if it.Path != "" && !seen[it.Path] {
			seen[it.Path] = true
			paths = append(paths, it.Path)
		}
	}
	v := vendoredDirs(paths)
	p.vendored = &v
	return v
}

// hasPrefixFoldASCII reports whether s starts with the upper-case ASCII
// prefix up to ASCII case.
func hasPrefixFoldASCII(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
