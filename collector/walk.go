package collector

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// FileRef is a workspace file the walk let in by everything that needs no
// content (ignore files, exclude globs, secret names, the size cap,
// symlinks, special files); nothing of it was read yet. [Workspace.ReadRef]
// reads it through the content rules.
type FileRef struct {
	Abs  string      // absolute path, symlinks resolved
	Path string      // display path (what Source.Path would be)
	Info fs.FileInfo // stat result of the walk (size, mtime, mode; Sys() has the inode)

	rel   string // workspace-relative path before DisplayPath
	alias string // the path as met before resolving symlinks (also tried in the overlay)
}

// walk is the state of one List: what it found and what it has visited, so
// that symlinks cannot loop and no file is listed twice.
type walk struct {
	w     *Workspace
	t     SourceType
	refs  []FileRef
	excl  []Exclusion
	dirs  map[string]*walkedDir // resolved directories walked
	files map[string]bool       // files reached by a symlink or named to List, listed or excluded
	pre   *prefetcher           // reads directories ahead of the walk; nil: none
}

// walkedDir is a directory the walk entered: its entries (by name) and,
// for each, whether the walk reached it as a file (listed or excluded by
// precheck) — what a symlink or a named path leading to that file asks
// (walk.firstFile).
type walkedDir struct {
	entries []dirEntry
	reached []bool
}

// MaxWalkBytes bounds the text one Walk (and so one Search) gathers: 256
// MiB. A walk past it stops with a *WalkLimitError instead of holding a
// whole monorepo in memory. A variable so that tests can lower it.
var MaxWalkBytes int64 = 256 << 20

// ErrWalkLimit is wrapped by the error of a walk that passed MaxWalkBytes.
var ErrWalkLimit = errors.New("collector: walk gathers more text than the limit")

// WalkLimitError is a walk that passed MaxWalkBytes: Max is the limit,
// Size what had been gathered when it stopped.
type WalkLimitError struct{ Max, Size int64 }

func (e *WalkLimitError) Error() string {
	return fmt.Sprintf("collector: walk: more than %d bytes of text (the limit)", e.Max)
}

// Unwrap makes errors.Is(err, ErrWalkLimit) true.
func (e *WalkLimitError) Unwrap() error { return ErrWalkLimit }

// Walk lists the files under paths (absolute, or relative to the primary
// root; none means every root) and returns those let in as sources of type t,
// with the exclusions and their reasons. Sources are in lexical order of
// Path, exclusions by Path then Reason. An ignored directory is not entered
// and appears once, as a directory. .git is skipped silently. A path that
// does not exist is an error (wrapping fs.ErrNotExist); a canceled ctx stops
// the walk with ctx's error. Walk is [Workspace.List] followed by
// [Workspace.ReadRef] of every file listed, so the two agree.
func (w *Workspace) Walk(ctx context.Context, t SourceType, paths ...string) ([]Source, []Exclusion, error) {
	refs, excl, err := w.List(ctx, t, paths...)
	if err != nil {
		return nil, nil, err
	}
	report := progressOf(ctx)
	sources := []Source{}
	var bytes int64
	for _, f := range refs {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("collector: walk: %w", err)
		}
		s, x := w.ReadRef(ctx, t, f)
		if x != nil {
			excl = append(excl, *x)
			continue
		}
		sources = append(sources, s)
		bytes += int64(len(s.Content))
		if report != nil {
			report(len(sources)+len(excl), bytes)
		}
		if bytes > MaxWalkBytes {
			return nil, nil, &WalkLimitError{Max: MaxWalkBytes, Size: bytes}
		}
	}
	sortExclusions(excl)
	return sources, excl, nil
}

// List walks paths as [Workspace.Walk] does but reads no file: it returns
// the files let in by every rule that needs no content, in lexical order of
// Path, and the exclusions those rules made (by Path, then Reason).
// Directories are read in parallel by a few workers ahead of the walk;
// every decision is taken in the order of a sequential walk, so the result
// does not depend on scheduling.
func (w *Workspace) List(ctx context.Context, t SourceType, paths ...string) ([]FileRef, []Exclusion, error) {
	refs, excl, gen, ok := w.kept(t, paths)
	if ok {
		return refs, excl, nil
	}
	st := &walk{w: w, t: t, dirs: map[string]*walkedDir{}, files: map[string]bool{}}
	st.pre = newPrefetcher(ctx, w)
	defer st.pre.stop()
	if len(paths) == 0 {
		for _, r := range w.roots {
			if err := st.dir(ctx, r, r.abs, r.chain); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, p := range paths {
		if err := st.named(ctx, p); err != nil {
			return nil, nil, err
		}
	}
	// Paths are unique (a file is listed once, by its resolved path), so
	// any sort gives the one order.
	slices.SortFunc(st.refs, func(a, b FileRef) int { return strings.Compare(a.Path, b.Path) })
	sortExclusions(st.excl)
	if st.refs == nil {
		st.refs = []FileRef{}
	}
	if st.excl == nil {
		st.excl = []Exclusion{}
	}
	w.keep(t, paths, gen, st.refs, st.excl)
	return slices.Clip(st.refs), slices.Clip(st.excl), nil
}

// ReadRef reads, checks (binary, UTF-8, size, safeio) and redacts one file
// that [Workspace.List] let in, as Walk would have: the open document's
// text when the overlay has it, else the disk.
func (w *Workspace) ReadRef(ctx context.Context, t SourceType, f FileRef) (Source, *Exclusion) {
	rel := f.rel
	if rel == "" {
		rel = f.Path
	}
	return w.admit(ctx, t, f.Abs, rel, f.Info, nil, f.alias, nil)
}

// sortExclusions orders exclusions by Path, then Reason.
func sortExclusions(excl []Exclusion) {
	sort.Slice(excl, func(i, j int) bool {
		a, b := excl[i], excl[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Reason < b.Reason
	})
}

// named walks one path given to List.
func (st *walk) named(ctx context.Context, p string) error {
	w := st.w
	abs := w.absPath(p)
	if _, err := os.Lstat(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("collector: walk %s: %w", EscapePath(p), err)
		}
		st.skip(w.exclude(st.t, w.shown(abs), ReasonUnreadable, describeErr(err), 0))
		return nil
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		st.skip(w.exclude(st.t, w.shown(abs), ReasonUnreadable, describeErr(err), 0))
		return nil
	}
	r, _ := w.locate(resolved)
	if r == nil {
		st.skip(w.exclude(st.t, w.shown(abs), ReasonOutside, "resolves outside the workspace roots", 0))
		return nil
	}
	rel, _ := w.relResolved(resolved)
	info, err := os.Stat(resolved)
	if err != nil {
		st.skip(w.exclude(st.t, rel, ReasonUnreadable, describeErr(err), 0))
		return nil
	}
	if ig, why := w.ignoredPath(r, resolved, info.IsDir()); ig {
		st.skip(w.exclude(st.t, rel, ReasonIgnored, why, sizeOf(info)))
		return nil
	}
	if info.IsDir() {
		return st.dir(ctx, r, resolved, w.chainAbove(r, resolved))
	}
	if !st.firstVia(resolved) {
		return nil
	}
	if resolved != abs {
		if secret, why := IsSecretPath(abs); secret {
			st.skip(w.exclude(st.t, rel, ReasonSecret, why+" (symlink)", info.Size()))
			return nil
		}
	}
	st.add(resolved, rel, info, abs)
	return nil
}

// dir walks the resolved directory abs of root r; chain is the ignore lists
// in force above it.
func (st *walk) dir(ctx context.Context, r *root, abs string, chain ignoreChain) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collector: walk: %w", err)
	}
	if st.dirs[abs] != nil {
		return nil // walked already
	}
	wd := &walkedDir{}
	st.dirs[abs] = wd
	w := st.w
	above := chain
	ld := st.pre.get(abs, walkedWith{r: r, above: above})
	wd.entries = ld.entries
	if ld.err != nil {
		rel, _ := w.relResolved(abs)
		st.skip(w.exclude(st.t, rel, ReasonUnreadable, describeErr(ld.err), 0))
		return nil
	}
	if ld.mayHold(".gitignore") {
		chain = chain.with(w.loadIgnore(abs, ".gitignore"))
	}
	facts := ld.factsFor(r, chain)
	if facts == nil {
		st.aheadOf(r, chain, abs, ld)
	}
	for i, e := range ld.entries {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("collector: walk: %w", err)
		}
		if e.Name() == ".git" {
			continue
		}
		f := &entryFacts{}
		if facts != nil {
			f = &facts[i]
		} else {
			f.p = filepath.Join(abs, e.Name())
			f.rel = r.display(mustRel(r.abs, f.p))
		}
		if err := st.entry(ctx, r, chain, f, e.Type(), ld.infos[i], ld.errs[i], entryAt{wd, i}); err != nil {
			return err
		}
	}
	return nil
}

// aheadOf names to the prefetcher the subdirectories of abs (loaded as
// ld) that the walk will enter (in reverse, so that the workers take the
// first one first), when ld's loader did not (it prepared ld for another
// root or chain).
func (st *walk) aheadOf(r *root, chain ignoreChain, abs string, ld *dirLoad) {
	for i := len(ld.entries) - 1; i >= 0; i-- {
		e := ld.entries[i]
		if e.IsDir() && e.Name() != ".git" && ld.infos[i] != nil {
			p := filepath.Join(abs, e.Name())
			if ig, _ := st.w.decide(r, chain, p, true); !ig && st.dirs[p] == nil {
				st.pre.ahead(p, walkedWith{r: r, above: chain})
			}
		}
	}
}

// entryAt is an entry's place: its directory and index there.
type entryAt struct {
	d *walkedDir
	i int
}

// entry handles one directory entry at path f.p (not resolved) of type
// typ, at at; info and statErr are its stat when the directory loader
// took it (not for symlinks). f holds what the loader decided of it
// (f.decided), else only its path and display path.
func (st *walk) entry(ctx context.Context, r *root, chain ignoreChain, f *entryFacts, typ fs.FileMode, info fs.FileInfo, statErr error, at entryAt) error {
	w := st.w
	p, rel := f.p, f.rel
	target, info, ok := st.stat(rel, p, typ, info, statErr)
	if !ok {
		return nil
	}
	isDir := info.IsDir()
	decided := f.decided && target == p
	ig, why := f.ignored, f.why
	if !decided {
		ig, why = w.decide(r, chain, p, isDir)
	}
	if ig {
		if isDir {
			why = "directory " + why
		}
		st.skip(w.exclude(st.t, rel, ReasonIgnored, why, sizeOf(info)))
		return nil
	}
	if target != p {
		tr, done, err := st.viaSymlink(ctx, rel, target, isDir, info)
		if done {
			return err
		}
		r = tr
	}
	if isDir {
		return st.dir(ctx, r, target, chain)
	}
	if !st.firstFile(target, p, at) {
		return nil
	}
	if decided {
		st.addDecided(target, f, info, p)
		return nil
	}
	targetRel, _ := w.relResolved(target)
	st.add(target, targetRel, info, p)
	return nil
}

// stat resolves entry p (shown as rel) of type typ to its target (p unless
// a symlink) and its os.Stat (info and statErr when the directory loader
// took it); ok false when it excluded the entry: a broken or unreadable
// symlink, one resolving outside the workspace roots (never stat'ed), or
// a failed stat.
func (st *walk) stat(rel, p string, typ fs.FileMode, info fs.FileInfo, statErr error) (target string, _ fs.FileInfo, ok bool) {
	w := st.w
	target = p
	if typ&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			detail := describeErr(err)
			if errors.Is(err, fs.ErrNotExist) {
				detail = "broken symlink"
			}
			st.skip(w.exclude(st.t, rel, ReasonUnreadable, detail, 0))
			return "", nil, false
		}
		target = resolved
		if tr, _ := w.locate(target); tr == nil {
			// Never touched: not even a stat of what lies outside.
			st.skip(w.exclude(st.t, rel, ReasonOutside, "symlink resolves outside the workspace roots", 0))
			return "", nil, false
		}
		info, statErr = os.Stat(target)
	} else if info == nil && statErr == nil {
		info, statErr = os.Stat(target)
	}
	if statErr != nil {
		st.skip(w.exclude(st.t, rel, ReasonUnreadable, describeErr(statErr), 0))
		return "", nil, false
	}
	return target, info, true
}

// viaSymlink handles an entry shown as rel that is a symlink to target
// (inside a workspace root): excluded when symlinks are not followed, when
// it leads to a directory already walked, when the target is ignored or
// (a file) has a secret's path, or walked when a directory; done reports
// that the entry is handled (err is the walk's), else tr is the target's
// root to list the file under.
func (st *walk) viaSymlink(ctx context.Context, rel, target string, isDir bool, info fs.FileInfo) (tr *root, done bool, err error) {
	w := st.w
	tr, _ = w.locate(target)
	switch {
	case !w.follow:
		st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink not followed (FollowSymlinks is off)", 0))
		return nil, true, nil
	case isDir && st.dirs[target] != nil:
		st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink to a directory already walked (loop or duplicate)", 0))
		return nil, true, nil
	}
	if ig, why := w.ignoredPath(tr, target, isDir); ig {
		st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink target "+why, sizeOf(info)))
		return nil, true, nil
	}
	if isDir {
		return nil, true, st.dir(ctx, tr, target, w.chainAbove(tr, target))
	}
	if secret, why := IsSecretPath(rel); secret {
		st.skip(w.exclude(st.t, rel, ReasonSecret, why+" (symlink)", info.Size()))
		return nil, true, nil
	}
	return tr, false, nil
}

// firstFile marks the resolved file abs, met as the entry p at at, as
// listed or excluded and reports whether it was not yet. An entry that is
// not a symlink (abs is p) is met once, in its directory's one walk: it
// was reached before only by a symlink or a named path (firstVia), and it
// is marked in its directory rather than in a set of every file, which
// cost the 100K tree's walk a map of 100,000 paths on its own goroutine
// (issue 24, warm11).
func (st *walk) firstFile(abs, p string, at entryAt) bool {
	if abs != p {
		return st.firstVia(abs)
	}
	if len(st.files) > 0 && st.files[abs] {
		return false
	}
	d := at.d
	if d.reached == nil {
		d.reached = make([]bool, len(d.entries))
	}
	d.reached[at.i] = true
	return true
}

// firstVia is firstFile for a file reached by a symlink or named to List:
// not first when one of those reached it before or when the walk reached
// it as an entry of its directory.
func (st *walk) firstVia(abs string) bool {
	if !firstIn(st.files, abs) {
		return false
	}
	k := strings.LastIndexByte(abs, filepath.Separator)
	if k < 0 {
		return true
	}
	dir, name := abs[:k], abs[k+1:]
	if k == 0 {
		dir = abs[:1]
	}
	d := st.dirs[dir]
	if d == nil || d.reached == nil {
		return true
	}
	i, found := slices.BinarySearchFunc(d.entries, name, func(e dirEntry, n string) int { return strings.Compare(e.name, n) })
	return !found || !d.reached[i]
}

// firstIn adds p to the set m and reports whether it was not in it.
func firstIn(m map[string]bool, p string) bool {
	n := len(m)
	m[p] = true
	return len(m) > n
}

// skip records an exclusion.
func (st *walk) skip(e *Exclusion) { st.excl = append(st.excl, *e) }

// add lists the file abs shown as rel, or excludes it by the rules that
// need no content (see [Workspace.precheck]).
func (st *walk) add(abs, rel string, info fs.FileInfo, alias string) {
	st.addShown(abs, rel, "", info, alias)
}

// addShown is add for a file whose DisplayPath(rel) is shown (computed
// here when "").
func (st *walk) addShown(abs, rel, shown string, info fs.FileInfo, alias string) {
	if _, _, _, x := st.w.precheck(st.t, abs, rel, info, nil, alias, nil); x != nil {
		st.excl = append(st.excl, *x)
		return
	}
	if shown == "" {
		shown = DisplayPath(rel)
	}
	st.appendRef(FileRef{Abs: abs, Path: shown, Info: info, rel: rel, alias: alias})
}

// appendRef lists ref.
func (st *walk) appendRef(ref FileRef) {
	if len(st.refs) == cap(st.refs) {
		// Doubled rather than append's 1.25× past 256: a 100K listing
		// copies 16 MB on its way instead of 40.
		st.refs = slices.Grow(st.refs, max(256, len(st.refs)))
	}
	st.refs = append(st.refs, ref)
}

// addDecided is addShown for a file whose facts the directory's loader
// took (walkfacts.go): its listed and display paths and its secret-name
// verdict, so that the walk's own goroutine does not run IsSecretPath
// again (precheck's first rule; the rest of precheck runs here).
func (st *walk) addDecided(abs string, f *entryFacts, info fs.FileInfo, alias string) {
	if f.secret != "" {
		st.excl = append(st.excl, *st.w.exclude(st.t, f.listed, ReasonSecret, f.secret, sizeOf(info)))
		return
	}
	if _, _, _, x := st.w.precheckNamed(st.t, abs, f.listed, info, nil, alias, nil); x != nil {
		st.excl = append(st.excl, *x)
		return
	}
	st.appendRef(FileRef{Abs: abs, Path: f.shown, Info: info, rel: f.listed, alias: alias})
}

// mustRel is relSlash for a path known to be below base.
func mustRel(base, p string) string {
	rel, ok := relSlash(base, p)
	if !ok {
		return filepath.ToSlash(p)
	}
	return rel
}
