package collector

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// walk is the state of one Walk: what it found and what it has visited, so
// that symlinks cannot loop and no file is listed twice.
type walk struct {
	w       *Workspace
	t       SourceType
	sources []Source
	excl    []Exclusion
	dirs    map[string]bool  // resolved directories walked
	files   map[string]bool  // resolved files listed or excluded
	bytes   int64            // text gathered so far
	report  func(int, int64) // see WithProgress; nil: none
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

// over returns the error of a walk past MaxWalkBytes, or nil.
func (st *walk) over() error {
	if st.bytes > MaxWalkBytes {
		return &WalkLimitError{Max: MaxWalkBytes, Size: st.bytes}
	}
	return nil
}

// Walk lists the files under paths (absolute, or relative to the primary
// root; none means every root) and returns those let in as sources of type t,
// with the exclusions and their reasons. Sources are in lexical order of
// Path, exclusions by Path then Reason. An ignored directory is not entered
// and appears once, as a directory. .git is skipped silently. A path that
// does not exist is an error (wrapping fs.ErrNotExist); a canceled ctx stops
// the walk with ctx's error.
func (w *Workspace) Walk(ctx context.Context, t SourceType, paths ...string) ([]Source, []Exclusion, error) {
	st := &walk{w: w, t: t, dirs: map[string]bool{}, files: map[string]bool{}, report: progressOf(ctx)}
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
		if err := st.over(); err != nil {
			return nil, nil, err
		}
	}
	sort.Slice(st.sources, func(i, j int) bool { return st.sources[i].Path < st.sources[j].Path })
	sort.Slice(st.excl, func(i, j int) bool {
		a, b := st.excl[i], st.excl[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Reason < b.Reason
	})
	if st.sources == nil {
		st.sources = []Source{}
	}
	if st.excl == nil {
		st.excl = []Exclusion{}
	}
	return st.sources, st.excl, nil
}

// named walks one path given to Walk.
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
	if st.files[resolved] {
		return nil
	}
	st.files[resolved] = true
	if resolved != abs {
		if secret, why := IsSecretPath(abs); secret {
			st.skip(w.exclude(st.t, rel, ReasonSecret, why+" (symlink)", info.Size()))
			return nil
		}
	}
	st.add(w.admit(ctx, st.t, resolved, rel, info, nil, abs, nil))
	return nil
}

// dir walks the resolved directory abs of root r; chain is the ignore lists
// in force above it.
func (st *walk) dir(ctx context.Context, r *root, abs string, chain ignoreChain) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collector: walk: %w", err)
	}
	if st.dirs[abs] {
		return nil
	}
	st.dirs[abs] = true
	w := st.w
	chain = chain.with(w.loadIgnore(abs, ".gitignore"))
	entries, err := os.ReadDir(abs)
	if err != nil {
		rel, _ := w.relResolved(abs)
		st.skip(w.exclude(st.t, rel, ReasonUnreadable, describeErr(err), 0))
		return nil
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("collector: walk: %w", err)
		}
		if e.Name() == ".git" {
			continue
		}
		if err := st.entry(ctx, r, chain, filepath.Join(abs, e.Name()), e.Type()); err != nil {
			return err
		}
		if err := st.over(); err != nil {
			return err
		}
	}
	return nil
}

// entry handles one directory entry at path p (not resolved) of type typ.
func (st *walk) entry(ctx context.Context, r *root, chain ignoreChain, p string, typ fs.FileMode) error {
	w := st.w
	rel := r.display(mustRel(r.abs, p))
	target := p
	if typ&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			detail := describeErr(err)
			if errors.Is(err, fs.ErrNotExist) {
				detail = "broken symlink"
			}
			st.skip(w.exclude(st.t, rel, ReasonUnreadable, detail, 0))
			return nil
		}
		target = resolved
		if tr, _ := w.locate(target); tr == nil {
			// Never touched: not even a stat of what lies outside.
			st.skip(w.exclude(st.t, rel, ReasonOutside, "symlink resolves outside the workspace roots", 0))
			return nil
		}
	}
	info, err := os.Stat(target)
	if err != nil {
		st.skip(w.exclude(st.t, rel, ReasonUnreadable, describeErr(err), 0))
		return nil
	}
	isDir := info.IsDir()
	if ig, why := w.decide(r, chain, p, isDir); ig {
		if isDir {
			why = "directory " + why
		}
		st.skip(w.exclude(st.t, rel, ReasonIgnored, why, sizeOf(info)))
		return nil
	}
	if target != p {
		tr, _ := w.locate(target)
		switch {
		case !w.follow:
			st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink not followed (FollowSymlinks is off)", 0))
			return nil
		case isDir && st.dirs[target]:
			st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink to a directory already walked (loop or duplicate)", 0))
			return nil
		}
		if ig, why := w.ignoredPath(tr, target, isDir); ig {
			st.skip(w.exclude(st.t, rel, ReasonIgnored, "symlink target "+why, sizeOf(info)))
			return nil
		}
		if isDir {
			return st.dir(ctx, tr, target, w.chainAbove(tr, target))
		}
		if secret, why := IsSecretPath(rel); secret {
			st.skip(w.exclude(st.t, rel, ReasonSecret, why+" (symlink)", info.Size()))
			return nil
		}
		r = tr
	}
	if isDir {
		return st.dir(ctx, r, target, chain)
	}
	if st.files[target] {
		return nil
	}
	st.files[target] = true
	targetRel, _ := w.relResolved(target)
	st.add(w.admit(ctx, st.t, target, targetRel, info, nil, p, nil))
	return nil
}

// skip records an exclusion.
func (st *walk) skip(e *Exclusion) { st.excl = append(st.excl, *e) }

// add records a source or an exclusion.
func (st *walk) add(s Source, e *Exclusion) {
	if e != nil {
		st.excl = append(st.excl, *e)
		return
	}
	st.sources = append(st.sources, s)
	st.bytes += int64(len(s.Content))
	if st.report != nil {
		st.report(len(st.sources)+len(st.excl), st.bytes)
	}
}

// mustRel is relSlash for a path known to be below base.
func mustRel(base, p string) string {
	rel, ok := relSlash(base, p)
	if !ok {
		return filepath.ToSlash(p)
	}
	return rel
}
