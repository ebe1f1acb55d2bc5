package collector

import (
	"context"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"time"
)

// dirLoad is one directory read for a walk: its entries in name order and
// the stat (following links) of each entry that is not a symlink (symlinks are resolved by
// the walk itself, in order).
type dirLoad struct {
	once    sync.Once
	entries []dirEntry
	infos   []fs.FileInfo
	errs    []error
	err     error        // reading the directory failed
	helped  map[int]bool // runs of entries a stat helper took (while loading)

	with  walkedWith   // how the walk that named the directory walks it
	chain ignoreChain  // with.above and the directory's own ignore file (prepare)
	facts []entryFacts // per entry, for with and chain (walkfacts.go); nil: none
}

// load reads the directory abs and stats its entries: in runs of
// statRun entries, the runs after the first on helpers while statSlots
// has room (each result goes to its entry's place, so the outcome does not
// depend on who stats what), the rest here.
func (ld *dirLoad) load(abs string) {
	d, err := openDir(abs)
	if err != nil {
		ld.err = err
		return
	}
	defer d.close()
	ld.entries, ld.err = d.read()
	if ld.err != nil {
		return
	}
	n := len(ld.entries)
	ld.infos = make([]fs.FileInfo, n)
	ld.errs = make([]error, n)
	var wg sync.WaitGroup
	for start := statRun; start < n; start += statRun {
		select {
		case statSlots <- struct{}{}:
		default:
			continue // no helper free: statted below
		}
		end := min(n, start+statRun)
		ld.claim(start)
		wg.Add(1)
		go func() {
			defer func() { <-statSlots; wg.Done() }()
			ld.statRange(d, start, end)
		}()
	}
	for start := 0; start < n; start += statRun {
		if !ld.claimed(start) {
			ld.statRange(d, start, min(n, start+statRun))
		}
	}
	wg.Wait()
	ld.helped = nil
}

// mayHold reports whether the directory read may hold an entry named
// name: one of its entries is name up to case (a file system that ignores
// case finds it under another spelling). The walk asks only such
// directories for their ignore file: a stat of a name the listing lacks
// fails (two Lstats per directory saved: 45,000 on the 100K tree).
func (ld *dirLoad) mayHold(name string) bool {
	for _, e := range ld.entries {
		if strings.EqualFold(e.Name(), name) {
			return true
		}
	}
	return false
}

// statRun is how many entries of a directory one stat helper takes.
const statRun = 64

// statSlots bounds the stat helpers of all walks of the process (the
// directory loaders themselves stat too): stats wait on the file system
// more than they compute.
var statSlots = make(chan struct{}, max(4, 2*runtime.GOMAXPROCS(0)))

// claim marks the run of entries starting at start as a helper's.
func (ld *dirLoad) claim(start int) {
	if ld.helped == nil {
		ld.helped = map[int]bool{}
	}
	ld.helped[start] = true
}

func (ld *dirLoad) claimed(start int) bool { return ld.helped[start] }

// statRange stats entries [start, end) of the directory d (not symlinks,
// which the walk resolves in order, nor .git). A subdirectory is not
// stated: the listing's type says it is one (not a link), and of its stat
// the walk uses nothing but that (a subdirectory is opened to be walked,
// an ignored one is excluded with no size); a stat would be one fstatat
// for each of the 100K tree's 22,777 directories (issue 24, warm11).
func (ld *dirLoad) statRange(d *openedDir, start, end int) {
	for i := start; i < end; i++ {
		e := ld.entries[i]
		switch {
		case e.typ&fs.ModeSymlink != 0 || e.name == ".git":
			continue
		case e.typ == fs.ModeDir:
			ld.infos[i] = listedDir(e.name)
			continue
		}
		ld.infos[i], ld.errs[i] = d.statEntry(e.name)
	}
}

// listedDir is the fs.FileInfo of a directory entry its listing typed as
// a directory, not stated: its name and the directory mode, nothing else.
type listedDir string

func (d listedDir) Name() string     { return string(d) }
func (listedDir) Size() int64        { return 0 }
func (listedDir) Mode() fs.FileMode  { return fs.ModeDir }
func (listedDir) ModTime() time.Time { return time.Time{} }
func (listedDir) IsDir() bool        { return true }
func (listedDir) Sys() any           { return nil }

// dirEntry is one entry of a directory listing: its name and its type
// (the type bits of fs.FileMode) as the listing gives them.
type dirEntry struct {
	name string
	typ  fs.FileMode
}

func (e dirEntry) Name() string      { return e.name }
func (e dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e dirEntry) Type() fs.FileMode { return e.typ }

// prefetcher reads directories ahead of a sequential walk with a few
// workers: the walk names the subdirectories it will enter (ahead), the
// workers read them (most recently named first, which is the walk's
// depth-first order) and the walk takes each result when it gets there
// (get), reading the directory itself when no worker has started on it.
// Only the reading is parallel; every decision stays in the walk, so the
// result of a walk does not depend on scheduling. The queue holds at most
// the directories named and not yet taken.
type prefetcher struct {
	ctx     context.Context
	w       *Workspace
	mu      sync.Mutex
	cond    *sync.Cond
	stack   []string
	loads   map[string]*dirLoad
	done    bool
	workers sync.WaitGroup
}

// walkWorkers is the number of goroutines reading directories ahead of a
// walk: reading is waiting on the file system more than computing, so a
// few more than the CPUs.
func walkWorkers() int { return min(16, max(4, 2*runtime.GOMAXPROCS(0))) }

func newPrefetcher(ctx context.Context, w *Workspace) *prefetcher {
	p := &prefetcher{ctx: ctx, w: w, loads: map[string]*dirLoad{}}
	p.cond = sync.NewCond(&p.mu)
	n := walkWorkers()
	p.workers.Add(n)
	for i := 0; i < n; i++ {
		go p.work()
	}
	return p
}

// work reads (and prepares) the most recently named directory until the
// walk stops.
func (p *prefetcher) work() {
	defer p.workers.Done()
	for {
		p.mu.Lock()
		for len(p.stack) == 0 && !p.done {
			p.cond.Wait()
		}
		if p.done {
			p.mu.Unlock()
			return
		}
		abs := p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		ld := p.loads[abs]
		p.mu.Unlock()
		if ld == nil || p.ctx.Err() != nil {
			continue
		}
		p.loadOnce(ld, abs)
	}
}

// loadOnce reads and prepares ld, the directory abs, unless that was done
// or is under way (then it waits for it).
func (p *prefetcher) loadOnce(ld *dirLoad, abs string) {
	ld.once.Do(func() {
		ld.load(abs)
		ld.prepare(p.w, abs, p)
	})
}

// ahead names a directory the walk will enter, and how it will walk it
// (the root and the ignore chain above it: its entries' facts are
// prepared for them).
func (p *prefetcher) ahead(abs string, with walkedWith) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || p.loads[abs] != nil {
		return
	}
	p.loads[abs] = &dirLoad{with: with}
	p.stack = append(p.stack, abs)
	p.cond.Signal()
}

// get returns the directory abs read, waiting for a worker that is reading
// it or reading it here (prepared for with, when no one named it before).
func (p *prefetcher) get(abs string, with walkedWith) *dirLoad {
	p.mu.Lock()
	ld := p.loads[abs]
	if ld == nil {
		ld = &dirLoad{with: with}
	} else {
		delete(p.loads, abs) // the worker keeps its pointer; the stack entry is skipped
	}
	p.mu.Unlock()
	p.loadOnce(ld, abs)
	return ld
}

// stop ends the workers and waits for them.
func (p *prefetcher) stop() {
	p.mu.Lock()
	p.done = true
	p.stack = nil
	p.loads = nil
	p.cond.Broadcast()
	p.mu.Unlock()
	p.workers.Wait()
}
