package collector

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxListings bounds the listings a workspace keeps (one per source type
// and set of paths walked).
const maxListings = 8

// listings keeps the results of [Workspace.List] across calls, for a
// server that learns of every file change (the client's file watcher, or
// its own) and so need not walk and stat the tree again for each pack
// (issue 24). It is off until [Workspace.KeepListings]; every change the
// server reports ([Workspace.FileChanged]) either updates the one file's
// stat in place or drops the listings, so a kept listing is what a new
// walk would return.
type listings struct {
	mu      sync.Mutex
	on      bool
	gen     uint64 // bumped by every change: a walk that saw an older one is not kept
	entries map[string]*keptListing
	watch   func(dirs []string) bool
	// excluded remembers, by path, the files a read excluded for their
	// content (binary, invalid UTF-8, …) with the stat they had, so that
	// a server's next pack does not read them again; a reported change
	// of the file forgets it.
	excluded map[string]knownExclusion
}

// knownExclusion is a content exclusion and the stat of the file it was
// found in.
type knownExclusion struct {
	size int64
	mod  time.Time
	contentExclusion
}

// contentExclusion is what an exclusion for a file's content says.
type contentExclusion struct {
	reason Reason
	detail string
	size   int64
}

// maxKnownExclusions bounds the exclusions remembered.
const maxKnownExclusions = 1 << 16

// knownExclusion returns the content exclusion remembered for abs when
// listings are kept and the file still has the stat info gives.
func (w *Workspace) knownExclusion(abs string, info fs.FileInfo) (contentExclusion, bool) {
	if info == nil {
		return contentExclusion{}, false
	}
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	k, ok := w.lists.excluded[abs]
	if !ok || !w.lists.on || k.size != info.Size() || !k.mod.Equal(info.ModTime()) {
		return contentExclusion{}, false
	}
	return k.contentExclusion, true
}

// rememberExclusion keeps a content exclusion of abs read with stat info,
// when listings are kept.
func (w *Workspace) rememberExclusion(abs string, info fs.FileInfo, c contentExclusion) {
	if info == nil {
		return
	}
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	if !w.lists.on {
		return
	}
	if w.lists.excluded == nil || len(w.lists.excluded) >= maxKnownExclusions {
		w.lists.excluded = map[string]knownExclusion{}
	}
	w.lists.excluded[abs] = knownExclusion{size: info.Size(), mod: info.ModTime(), contentExclusion: c}
}

// keptListing is one kept result of List.
type keptListing struct {
	refs  []FileRef
	excl  []Exclusion
	byAbs map[string]int // refs by Abs and by alias
}

// KeepListings makes List keep its results until [Workspace.FileChanged]
// says they are stale. The caller promises to report every change of a
// file under the roots (created, changed, deleted, renamed). watch, when
// not nil, is given the directories of each fresh listing before it is
// kept and says whether all of them were already watched: a listing is
// kept only then (a change between the walk and the start of a watch
// would be missed), so with a watcher of its own a server's second walk is
// the first one kept. Calling it again changes watch.
func (w *Workspace) KeepListings(watch func(dirs []string) bool) {
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	w.lists.on, w.lists.watch = true, watch
}

// ListingsKept reports whether List keeps its results ([Workspace.KeepListings]).
func (w *Workspace) ListingsKept() bool {
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	return w.lists.on
}

// FileChanged tells the workspace that the file or directory abs changed
// on disk (created, changed or deleted). A file a kept listing holds is
// stated again and checked by the rules that need no content; any other
// change that a walk could see (a new or deleted file, a directory, an
// ignore file, an excluded file) drops the kept listings. Paths outside
// the roots, in .git or ignored by the rules change nothing.
func (w *Workspace) FileChanged(abs string) {
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	if !w.lists.on {
		return
	}
	abs = filepath.Clean(abs)
	delete(w.lists.excluded, abs)
	if w.changeIrrelevant(abs) {
		return
	}
	w.lists.gen++
	if name := filepath.Base(abs); name == ".gitignore" || name == "go.mod" {
		w.lists.entries = nil // the rules themselves changed
		return
	}
	for key, l := range w.lists.entries {
		i, ok := l.byAbs[abs]
		if !ok {
			w.lists.entries = nil // a file the walk did not list: it may list it now
			return
		}
		if !w.restat(l, i) {
			delete(w.lists.entries, key)
		}
	}
}

// changeIrrelevant reports whether a change of abs cannot change a walk's
// result: outside every root, in a .git directory (but its info/exclude),
// or a path the ignore rules leave out.
func (w *Workspace) changeIrrelevant(abs string) bool {
	r, rel := w.locate(abs)
	if r == nil {
		return true
	}
	if strings.HasSuffix(abs, filepath.Join(".git", "info", "exclude")) {
		return false
	}
	if rel == ".git" || strings.HasPrefix(rel, ".git/") || strings.Contains(rel, "/.git/") {
		return true
	}
	ig, _ := w.ignoredPath(r, abs, false)
	return ig
}

// restat states the i-th file of l again; false when the rules that need
// no content (the file still a regular file under the size cap) no longer
// let it in as listed. The kept slice is replaced, not written: callers
// hold the old one.
func (w *Workspace) restat(l *keptListing, i int) bool {
	f := l.refs[i]
	info, err := os.Stat(f.Abs)
	if err != nil {
		return false
	}
	rel := f.rel
	if rel == "" {
		rel = f.Path
	}
	if _, _, _, x := w.precheck(OpenFile, f.Abs, rel, info, nil, f.alias, nil); x != nil {
		return false
	}
	refs := slices.Clone(l.refs)
	refs[i].Info = compactStat(f.Abs, info)
	l.refs = refs
	return true
}

// listKey is the key of a listing: the source type and the paths walked.
func listKey(t SourceType, paths []string) string {
	return string(t) + "\x00" + strings.Join(paths, "\x00")
}

// kept returns the kept listing of t and paths, and the generation a walk
// starting now must carry to be kept.
func (w *Workspace) kept(t SourceType, paths []string) (refs []FileRef, excl []Exclusion, gen uint64, ok bool) {
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	if !w.lists.on {
		return nil, nil, 0, false
	}
	if l, hit := w.lists.entries[listKey(t, paths)]; hit {
		// Clipped: a caller that appends (Walk adds read exclusions) copies.
		return slices.Clip(l.refs), slices.Clip(l.excl), w.lists.gen, true
	}
	return nil, nil, w.lists.gen, false
}

// keep stores the result of a walk that started at generation gen, unless
// a change came since or the watcher had yet to watch its directories.
func (w *Workspace) keep(t SourceType, paths []string, gen uint64, refs []FileRef, excl []Exclusion) {
	w.lists.mu.Lock()
	on, watch := w.lists.on, w.lists.watch
	w.lists.mu.Unlock()
	if !on {
		return
	}
	if watch != nil && !watch(w.listedDirs(refs)) {
		return
	}
	for i := range refs { // before List returns them: no one else holds refs yet
		refs[i].Info = compactStat(refs[i].Abs, refs[i].Info)
	}
	l := &keptListing{refs: refs, excl: excl, byAbs: make(map[string]int, len(refs))}
	for i, f := range refs {
		l.byAbs[f.Abs] = i
		if f.alias != "" {
			l.byAbs[filepath.Clean(f.alias)] = i
		}
	}
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	if w.lists.gen != gen {
		return
	}
	if w.lists.entries == nil || len(w.lists.entries) >= maxListings {
		w.lists.entries = map[string]*keptListing{}
	}
	w.lists.entries[listKey(t, paths)] = l
}

// listedDirs returns the directories a watcher must watch for refs: the
// roots and every directory between a root and a listed file (or the
// symlink it was listed through). A directory that holds only excluded
// files is not among them.
func (w *Workspace) listedDirs(refs []FileRef) []string {
	seen := map[string]bool{}
	var dirs []string
	add := func(p string) {
		for d := filepath.Dir(p); !seen[d]; d = filepath.Dir(d) {
			r, _ := w.locate(d)
			if r == nil {
				break
			}
			seen[d] = true
			dirs = append(dirs, d)
			if d == r.abs {
				break
			}
		}
	}
	for _, r := range w.roots {
		if !seen[r.abs] {
			seen[r.abs] = true
			dirs = append(dirs, r.abs)
		}
	}
	for _, f := range refs {
		add(f.Abs)
		if f.alias != "" {
			add(f.alias)
		}
	}
	return dirs
}

// DropListings forgets every kept listing (a watcher that lost events).
func (w *Workspace) DropListings() {
	w.lists.mu.Lock()
	defer w.lists.mu.Unlock()
	w.lists.gen++
	w.lists.entries, w.lists.excluded = nil, nil
}
