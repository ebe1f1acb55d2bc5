package collector

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// DefaultMaxFileSize is the size cap of files walked and packed when
// Options.MaxFileSize is zero.
const DefaultMaxFileSize int64 = 1 << 20

// Overlay gives the text of documents open in the editor, which is preferred
// over the disk. Keys are absolute paths.
type Overlay interface {
	Open(absPath string) (text string, modTime time.Time, ok bool)
}

// Options configures a Workspace.
type Options struct {
	// Roots are the workspace roots; the first is the primary one, against
	// which relative paths are resolved. Relative roots are made absolute.
	Roots []string
	// Exclude holds context.exclude globs in gitignore syntax ("**/gen/**",
	// "*.min.js", "!keep.min.js"), relative to each root.
	Exclude []string
	// MaxFileSize caps the size of a file let in; 0 means
	// DefaultMaxFileSize (1 MiB).
	MaxFileSize int64
	// Overlay, when set, supplies the text of open documents.
	Overlay Overlay
	// FollowSymlinks makes walks follow symlinks whose targets stay inside a
	// root (loops are detected). When false such symlinks are excluded as
	// ignored. Symlinks that leave the roots are always excluded.
	FollowSymlinks bool
	// Logger receives debug entries for exclusions (escaped path, reason and
	// size only); nil means no logging.
	Logger *zap.Logger
	// NoIgnoreDefaults lets dependency and build trees in where no
	// .gitignore is in force (config context.ignore_defaults: false); by
	// default they are ignored (docs/design.md#rule-9, ignore_defaults.go).
	NoIgnoreDefaults bool
}

// Workspace applies the rules of what may enter a context to the files under
// a set of roots. It is safe for concurrent use.
type Workspace struct {
	roots   []*root
	maxSize int64
	overlay Overlay
	follow  bool
	log     *zap.Logger

	noDefaults bool // Options.NoIgnoreDefaults

	mu          sync.Mutex
	ignoreCache map[string]cachedIgnore
	goMod       map[string]bool // directories known to hold (or not) a go.mod

	lists listings // results of List kept across calls (listings.go); off by default

	refused RefusedFiles // refusals remembered across processes (refused.go); nil: none
	clean   CleanTexts   // texts known clean (refused.go); nil: none
	plain   PlainPaths   // listed paths known plain (plainpaths.go); nil: none
}

// root is one resolved workspace root.
type root struct {
	abs      string      // absolute, symlinks resolved
	prefix   string      // display prefix of paths ("" for the primary root)
	chain    ignoreChain // ignore lists in force above the root
	excludes *ignoreList // context.exclude, relative to abs
}

// New validates the roots (they must exist and be directories), resolves
// them with filepath.EvalSymlinks and compiles the exclude globs. .gitignore
// files are read during walks and re-read when they change.
func New(opts Options) (*Workspace, error) {
	if len(opts.Roots) == 0 {
		return nil, errors.New("collector: no workspace root")
	}
	if opts.MaxFileSize < 0 {
		return nil, fmt.Errorf("collector: MaxFileSize %d is negative", opts.MaxFileSize)
	}
	w := &Workspace{
		maxSize:     opts.MaxFileSize,
		overlay:     opts.Overlay,
		follow:      opts.FollowSymlinks,
		log:         opts.Logger,
		noDefaults:  opts.NoIgnoreDefaults,
		ignoreCache: map[string]cachedIgnore{},
		goMod:       map[string]bool{},
	}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}
	if w.log == nil {
		w.log = zap.NewNop()
	}
	seen := map[string]bool{}
	for i, r := range opts.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("collector: root %s: %w", EscapePath(r), err)
		}
		resolved, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("collector: root %s: %w", EscapePath(r), err)
		}
		info, err := os.Stat(resolved)
		if err != nil {
			return nil, fmt.Errorf("collector: root %s: %w", EscapePath(r), err)
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("collector: root %s is not a directory", EscapePath(r))
		}
		if seen[resolved] {
			continue
		}
		seen[resolved] = true
		rt := &root{abs: resolved}
		if i > 0 {
			rt.prefix = filepath.Base(resolved)
		}
		w.roots = append(w.roots, rt)
	}
	for _, rt := range w.roots {
		if len(opts.Exclude) > 0 {
			list, bad := compileIgnore(rt.abs, excludeOrigin, opts.Exclude)
			if len(bad) > 0 {
				return nil, fmt.Errorf("collector: context.exclude pattern %q is not a valid glob", bad[0])
			}
			rt.excludes = list
		}
		rt.chain = w.repoChain(rt.abs)
	}
	return w, nil
}

// Rel returns the workspace-relative slash path for an absolute path and
// whether it is inside a root, after resolving symlinks (for a path that
// does not exist, those of its nearest existing ancestor). The primary root
// itself is "."; paths of a secondary root are prefixed with the root's base
// name.
func (w *Workspace) Rel(abs string) (rel string, inside bool) {
	resolved, err := resolve(w.absPath(abs))
	if err != nil {
		return "", false
	}
	return w.relResolved(resolved)
}

// relResolved is Rel for a path whose symlinks are already resolved.
func (w *Workspace) relResolved(resolved string) (string, bool) {
	r, rel := w.locate(resolved)
	if r == nil {
		return "", false
	}
	return r.display(rel), true
}

// display prefixes rel with the root's prefix.
func (r *root) display(rel string) string {
	switch {
	case r.prefix == "":
		return rel
	case rel == ".":
		return r.prefix
	default:
		return r.prefix + "/" + rel
	}
}

// locate returns the first root containing the resolved path and the path
// relative to it, or nil.
func (w *Workspace) locate(resolved string) (*root, string) {
	for _, r := range w.roots {
		if rel, ok := relSlash(r.abs, resolved); ok {
			return r, rel
		}
	}
	return nil, ""
}

// absPath makes p absolute against the primary root and cleans it.
func (w *Workspace) absPath(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(w.roots[0].abs, filepath.FromSlash(p))
}

// shown is the Path of an exclusion: workspace-relative when the path is
// inside a root, else the absolute path as given.
func (w *Workspace) shown(abs string) string {
	if rel, ok := w.Rel(abs); ok {
		return rel
	}
	if r, rel := w.locate(abs); r != nil {
		return r.display(rel) // unresolvable (a dangling symlink), but lexically inside
	}
	return abs
}

// resolve evaluates the symlinks of an absolute path. For a path that does
// not exist, the nearest existing ancestor is resolved and the rest joined
// to it, so new (overlay-only) files can be located.
func resolve(abs string) (string, error) {
	resolved, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return resolved, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if _, lerr := os.Lstat(abs); lerr == nil {
		return "", err // a dangling symlink
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return "", err
	}
	p, perr := resolve(parent)
	if perr != nil {
		return "", perr
	}
	return filepath.Join(p, filepath.Base(abs)), nil
}

// exclude builds an exclusion and logs it (path, reason and size only).
func (w *Workspace) exclude(t SourceType, path string, reason Reason, detail string, size int64) *Exclusion {
	path = DisplayPath(path)
	w.log.Debug("collector: excluded",
		zap.String("path", EscapePath(path)),
		zap.String("reason", string(reason)),
		zap.Int64("size", size))
	return &Exclusion{Type: t, Path: path, Reason: reason, Detail: detail, Size: size}
}

// describeErr is a short Detail for a file system error.
func describeErr(err error) string {
	switch {
	case errors.Is(err, errChanged):
		return "changed while being read"
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		if strings.Contains(pe.Err.Error(), "too many levels of symbolic links") {
			return "symlink loop"
		}
		return pe.Err.Error()
	}
	if strings.Contains(err.Error(), "too many links") {
		return "symlink loop"
	}
	return err.Error()
}
