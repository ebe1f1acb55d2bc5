package collector

import (
	"path/filepath"
	"strings"
)

// entryFacts is what the walk decides of one directory entry from its
// name, its stat, the root and the ignore chain alone — pure functions of
// those, so a directory loader computes them beside the walk (in
// parallel) and the walk, which takes every decision in order, only
// checks that it walks the directory with the same root and chain
// (issue 24, warmwalk: they were half of the walk's own CPU on the 100K
// tree, on the one goroutine every decision goes through).
type entryFacts struct {
	p   string // the entry's path (the directory joined with its name)
	rel string // its display form relative to the root (exclusions)
	// decided: ignored and why are decide's answer for the entry (a
	// non-symlink with a stat); else the walk decides itself.
	decided bool
	ignored bool
	why     string
	// A file let in by the ignore rules: its path as listed (relResolved),
	// that path's DisplayPath and IsSecretPath's answer for it (secret:
	// the reason, "" for none).
	listed string
	shown  string
	secret string
}

// prepareFacts is off in tests that compare the walk with and without
// prepared facts.
var prepareFacts = true

// walkedWith names the root and the ignore chain above a directory that
// its loader prepares facts for.
type walkedWith struct {
	r     *root
	above ignoreChain
}

// prepare computes the facts of ld's entries for the directory abs walked
// from root r under the chain above it (and the directory's own ignore
// file), then names its subdirectories that the rules let in to the
// prefetcher, last first (so the walk's depth-first order is served
// first). Without a root (a directory loaded for no walk) it does nothing.
func (ld *dirLoad) prepare(w *Workspace, abs string, pre *prefetcher) {
	r := ld.with.r
	if ld.err != nil || r == nil || !prepareFacts {
		return
	}
	chain := ld.with.above
	if ld.mayHold(".gitignore") {
		chain = chain.with(w.loadIgnore(abs, ".gitignore"))
	}
	ld.chain = chain
	facts := make([]entryFacts, len(ld.entries))
	for i, e := range ld.entries {
		if e.name == ".git" {
			continue
		}
		f := &facts[i]
		f.p = childPath(abs, e.name)
		f.rel = r.display(mustRel(r.abs, f.p))
		info := ld.infos[i]
		if info == nil {
			continue // a symlink, or a failed stat: the walk handles it
		}
		isDir := info.IsDir()
		f.decided = true
		f.ignored, f.why = w.decide(r, chain, f.p, isDir)
		if !f.ignored && !isDir {
			f.listed, _ = w.relResolved(f.p)
			f.shown, f.secret = w.pathVerdict(f.p, f.listed)
		}
	}
	ld.facts = facts
	if pre != nil {
		ld.aheadSubdirs(pre, walkedWith{r: r, above: chain})
	}
}

// aheadSubdirs names to pre the subdirectories of ld that its facts let
// in, last first, to be walked with.
func (ld *dirLoad) aheadSubdirs(pre *prefetcher, with walkedWith) {
	for i := len(ld.facts) - 1; i >= 0; i-- {
		if f := &ld.facts[i]; f.decided && !f.ignored && ld.entries[i].IsDir() && ld.infos[i].IsDir() {
			pre.ahead(f.p, with)
		}
	}
}

// factsFor returns the entries' facts when they were prepared for root r
// and, with the directory's own ignore file, chain; nil otherwise (the
// walk reached the directory another way, or an ignore file changed
// between the loader's look and the walk's).
func (ld *dirLoad) factsFor(r *root, chain ignoreChain) []entryFacts {
	if ld.facts == nil || ld.with.r != r || len(ld.chain) != len(chain) {
		return nil
	}
	for i := range chain {
		if ld.chain[i] != chain[i] {
			return nil
		}
	}
	return ld.facts
}

// childPath is filepath.Join(abs, name) for the clean path abs of a
// walked directory (a root made absolute, or a join of one) and the name
// of one of its entries: their concatenation, without Join's Clean pass
// over the whole path. Anything else (a name holding a separator, "." or
// "..", abs ending in a separator) goes through Join.
func childPath(abs, name string) string {
	if abs == "" || abs == "." || name == "" || name == "." || name == ".." || abs[len(abs)-1] == filepath.Separator ||
		strings.IndexByte(name, filepath.Separator) >= 0 || strings.IndexByte(name, '/') >= 0 {
		return filepath.Join(abs, name)
	}
	return abs + string(filepath.Separator) + name
}
