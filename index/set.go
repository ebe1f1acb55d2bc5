package index

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Set is the index of a workspace's roots: each file goes to the index of
// the root that holds it. It implements [pack.FileIndex]; a nil *Set is a
// valid empty index (every lookup misses).
type Set struct {
	idx []*Index // longest root first

	mu    sync.Mutex
	after time.Duration // AutoFlush
	timer *time.Timer
}

// AutoFlush makes the set flush by itself d after the last put (a server
// keeps its index current without a flush per request).
func (s *Set) AutoFlush(d time.Duration) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.after = d
	s.mu.Unlock()
}

func (s *Set) schedule() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.after <= 0 {
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(s.after, func() { _ = s.Flush() })
		return
	}
	s.timer.Reset(s.after)
}

var (
	_ pack.FileIndex     = (*Set)(nil)
	_ pack.SetIndex      = (*Set)(nil)
	_ pack.TermHashIndex = (*Set)(nil)

	_ collector.RefusedFiles = (*Set)(nil)
	_ collector.CleanTexts   = (*Set)(nil)
	_ collector.PlainPaths   = (*Set)(nil)
)

// OpenSet opens the index of each root (symlinks resolved). A root whose
// index cannot be opened (no cache directory, a read-only one) is left out
// and its error returned with the others; the set still serves the rest.
func OpenSet(roots []string, opt Options) (*Set, error) {
	if opt.Version == "" {
		opt.Version = DefaultVersion()
	}
	s := &Set{}
	var errs []string
	seen := map[string]bool{}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err == nil {
			if res, rerr := filepath.EvalSymlinks(abs); rerr == nil {
				abs = res
			}
		}
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		x, err := Open(abs, opt)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		s.idx = append(s.idx, x)
	}
	sort.SliceStable(s.idx, func(i, j int) bool { return len(s.idx[i].root) > len(s.idx[j].root) })
	if len(s.idx) > 0 && opt.Dir == "" { // only the default tree is ours to prune
		keep := map[string]bool{}
		for _, x := range s.idx {
			keep[x.dir] = true
		}
		prune(filepath.Dir(s.idx[0].dir), keep, globalMax)
	}
	if len(errs) > 0 {
		return s, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return s, nil
}

// of returns the index of the root holding abs, nil when none does.
func (s *Set) of(abs string) *Index {
	if s == nil {
		return nil
	}
	for _, x := range s.idx {
		if abs == x.root || strings.HasPrefix(abs, x.root) && len(abs) > len(x.root) && (abs[len(x.root)] == filepath.Separator || strings.HasSuffix(x.root, string(filepath.Separator))) {
			return x
		}
	}
	return nil
}

// Terms implements [pack.FileIndex].
func (s *Set) Terms(f collector.FileRef, terms []string) (pack.FileTerms, bool) {
	x := s.of(f.Abs)
	if x == nil {
		return pack.FileTerms{}, false
	}
	n, counts, ok := x.Terms(f.Abs, f.Info, terms)
	if !ok {
		x.noteRedacted(f.Abs, f.Info)
		return pack.FileTerms{}, false
	}
	if counts == nil {
		counts = map[string]int{}
	}
	return pack.FileTerms{Length: n, Counts: counts}, true
}

// TermRow is [Set.Terms] writing the counts into row, indexed as terms
// ([Index.TermRow]): what a pack's scan asks of an index that has it.
func (s *Set) TermRow(f collector.FileRef, terms []string, row []uint16) bool {
	x := s.of(f.Abs)
	if x == nil {
		return false
	}
	if !x.TermRow(f.Abs, f.Info, terms, row) {
		x.noteRedacted(f.Abs, f.Info)
		return false
	}
	return true
}

// PutTerms implements [pack.FileIndex].
func (s *Set) PutTerms(f collector.FileRef, content []byte, all map[string]int) {
	if x := s.of(f.Abs); x != nil {
		x.PutTerms(f.Abs, f.Info, content, all)
		s.schedule()
	}
}

// TermHasher implements [pack.TermHashIndex]: the term hash of the index
// of the root holding abs; nil when no root does.
func (s *Set) TermHasher(abs string) func([]byte) uint64 {
	x := s.of(abs)
	if x == nil || x.isRedacted(abs) {
		return nil
	}
	return x.TermHash
}

// PutTermHashes implements [pack.TermHashIndex].
func (s *Set) PutTermHashes(f collector.FileRef, content []byte, terms []pack.TermHash) {
	if x := s.of(f.Abs); x != nil {
		x.PutTermHashes(f.Abs, f.Info, content, terms)
		s.schedule()
	}
}

// Refused implements [collector.RefusedFiles]: what the index of the
// root holding abs remembers of its refusal (refused.go).
func (s *Set) Refused(abs string, fi fs.FileInfo) (collector.Refusal, bool) {
	if x := s.of(abs); x != nil {
		return x.Refused(abs, fi)
	}
	return collector.Refusal{}, false
}

// PutRefused implements [collector.RefusedFiles].
func (s *Set) PutRefused(abs string, fi fs.FileInfo, r collector.Refusal) {
	if x := s.of(abs); x != nil {
		x.PutRefused(abs, fi, r)
		s.schedule()
	}
}

// KnownPlain implements [collector.PlainPaths]: what the index of the
// root holding abs remembers of the listed path (plain.go).
func (s *Set) KnownPlain(abs, listed string) bool {
	if x := s.of(abs); x != nil {
		return x.KnownPlain(listed)
	}
	return false
}

// PutPlain implements [collector.PlainPaths].
func (s *Set) PutPlain(abs, listed string) {
	if x := s.of(abs); x != nil {
		x.PutPlain(listed)
		s.schedule()
	}
}

// KnownClean implements [collector.CleanTexts].
func (s *Set) KnownClean(abs string, text []byte) bool {
	if x := s.of(abs); x != nil {
		return x.KnownClean(abs, text)
	}
	return false
}

// Chunks implements [pack.FileIndex].
func (s *Set) Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	if x := s.of(f.Abs); x != nil {
		return x.Chunks(f.Abs, f.Info, content, key)
	}
	return nil, false
}

// PutChunks implements [pack.FileIndex].
func (s *Set) PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk) {
	if x := s.of(f.Abs); x != nil {
		x.PutChunks(f.Abs, f.Info, content, key, chunks)
		s.schedule()
	}
}

// PutSet implements [pack.SetIndex].
func (s *Set) PutSet(f collector.FileRef, content []byte, key string, set []chunker.Chunk) {
	if x := s.of(f.Abs); x != nil {
		x.PutSet(f.Abs, f.Info, content, key, set)
		s.schedule()
	}
}

// Set implements [pack.SetIndex].
func (s *Set) Set(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	if x := s.of(f.Abs); x != nil {
		return x.Set(f.Abs, f.Info, content, key)
	}
	return nil, false
}

// StatSets implements [pack.SetIndex].
func (s *Set) StatSets(f collector.FileRef, keys []string) ([][]chunker.Chunk, bool) {
	if x := s.of(f.Abs); x != nil {
		return x.StatSets(f.Abs, f.Info, keys)
	}
	return nil, false
}

// Forget implements [pack.FileIndex].
func (s *Set) Forget(abs string) {
	if x := s.of(abs); x != nil {
		x.Forget(abs)
	}
}

// Flush writes what each root's index holds pending.
func (s *Set) Flush() error {
	if s == nil {
		return nil
	}
	var first error
	for _, x := range s.idx {
		if err := x.Flush(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Close flushes and releases every root's index.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	s.after = 0
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	var first error
	for _, x := range s.idx {
		if err := x.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Stats adds up the roots' index statistics.
func (s *Set) Stats() Stats {
	var st Stats
	if s == nil {
		return st
	}
	for _, x := range s.idx {
		y := x.Stats()
		st.Segments += y.Segments
		st.Files += y.Files
		st.Terms += y.Terms
		st.Bytes += y.Bytes
		st.TermHits += y.TermHits
		st.TermMisses += y.TermMisses
		st.ChunkHits += y.ChunkHits
		st.ChunkMisses += y.ChunkMisses
		st.SetHits += y.SetHits
		st.SetMisses += y.SetMisses
		st.StatHits += y.StatHits
		st.StatMisses += y.StatMisses
	}
	return st
}

// probeSource is cut and split by DefaultVersion: a change in what the term
// splitter or the chunker make of it changes the version.
const probeSource = `package probe

// ParseHTTPRequest2 reads normalize_path and carts.
func ParseHTTPRequest2(r *Request) (*Result, error) {
	for i := 0; i < len(r.Items); i++ {
		r.total += r.Items[i].Price
	}
	return &Result{Total: r.total}, nil
}

type Service struct{ name string }

func (s *Service) Checkout() {}
`

var defaultVersion = sync.OnceValue(func() string {
	var b strings.Builder
	fmt.Fprintf(&b, "splitter %q; ", strings.Join(pack.Terms(probeSource), " "))
	count := func(s string) int { return len(s) }
	for _, opts := range []chunker.Options{{}, {PreferStructural: true, MaxTokens: 40, MinTokens: 5}} {
		cs, err := chunker.Split(context.Background(), "probe.go", []byte(probeSource), count, opts)
		if err != nil {
			fmt.Fprintf(&b, "chunker error; ")
			continue
		}
		for _, c := range cs {
			fmt.Fprintf(&b, "%d-%d/%d-%d %s %s %v %d|", c.StartLine, c.EndLine, c.StartByte, c.EndByte, c.Kind, c.Name, c.TopLevel, c.Tokens)
		}
	}
	rs, err := chunker.Outline(context.Background(), "probe.go", []byte(probeSource))
	fmt.Fprintf(&b, "outline %v %v; ", rs, err != nil)
	// Terms are kept only of files redaction leaves alone, and a term
	// entry vouches that its text is clean (Index.KnownClean): a change
	// of the rules invalidates them.
	fmt.Fprintf(&b, "redaction %016x; ", fnv64(fnvBasis, collector.RulesProbe()))
	return b.String()
})

// DefaultVersion is the version under which entries are stored: the
// index's own version and what the current term splitter and chunker make
// of a probe, so that a change in either invalidates the stored entries.
func DefaultVersion() string { return "idx1; " + defaultVersion() }

// globalMax caps the whole index directory (all roots): past it, the roots
// used longest ago are removed (prune.go).
const globalMax = 4 << 30

// prune removes the index directories of other roots under parent, least
// recently used first, while the whole exceeds max. It removes only what
// the index makes: directories named as rootKey names them that are this
// user's own (not a symlink, writable by no one else), and in them only
// regular files of this user named as segments or temporary files; a
// directory is then removed only if that left it empty. It never removes
// a tree, and never follows a link.
func prune(parent string, keep map[string]bool, max int64) {
	des, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	var roots []pruneRoot
	var total int64
	for _, de := range des {
		r, ok := ownRoot(parent, de)
		if !ok {
			continue
		}
		total += r.size
		roots = append(roots, r)
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].used < roots[j].used })
	for _, r := range roots {
		if total <= max && r.used != math.MinInt64 {
			return
		}
		if keep[r.dir] {
			continue
		}
		total -= clearRoot(r.dir)
		os.Remove(r.dir) // only when empty
	}
}

// pruneRoot is a root's index directory prune may remove.
type pruneRoot struct {
	dir  string
	used int64 // last use (modification time, ns); MinInt64: format 1
	size int64 // of its regular files
}

// ownRoot is the entry de of parent as a directory prune may remove: a
// directory named as rootKey names them, not a symlink, this user's own
// and writable by no one else; ok false for any other entry.
func ownRoot(parent string, de os.DirEntry) (_ pruneRoot, ok bool) {
	if !de.IsDir() || !IsRootDirName(de.Name()) {
		return pruneRoot{}, false // de.IsDir is false for a symlink to a directory
	}
	d := filepath.Join(parent, de.Name())
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() {
		return pruneRoot{}, false
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Geteuid() || fi.Mode().Perm()&0o022 != 0 {
		return pruneRoot{}, false
	}
	r := pruneRoot{dir: d, used: fi.ModTime().UnixNano()}
	if _, err := os.Lstat(filepath.Join(d, "root")); err == nil {
		// Written by format 1, which kept paths in plain text and term
		// hashes unkeyed: never read again, removed now.
		r.used = math.MinInt64
	}
	files, _ := os.ReadDir(d)
	for _, f := range files {
		if i, err := f.Info(); err == nil && i.Mode().IsRegular() {
			r.size += i.Size()
		}
	}
	return r, true
}

// clearRoot removes from the root index directory dir (checked by
// ownRoot) only this user's regular files named as segments or temporary
// files (or "root", written by format 1), by removeOwn, and returns the
// bytes removed.
func clearRoot(dir string) int64 {
	var removed int64
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		n := f.Name()
		if !IsFileName(n) {
			continue
		}
		p := filepath.Join(dir, n)
		if fi, err := os.Lstat(p); err == nil && removeOwn(p) {
			removed += fi.Size()
		}
	}
	return removed
}

// Usable reports whether at least one root's index is open.
func (s *Set) Usable() bool { return s != nil && len(s.idx) > 0 }
