package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/index"
)

// runClearCache implements `acode-lsp clear-cache [PATH]` (seed 000,
// scenario 7): it removes the persistent workspace index of the workspace
// around PATH (default .), or with --all of every workspace, from the
// user's cache directory (docs/index.md). The token-count cache lives in
// memory only and goes with the process. It deletes as the index's own
// prune does (docs/index.md "What it deletes"): only regular files of this
// user named as the index names its files, in directories that are real
// directories of this user writable by no one else, one file at a time,
// never through a link and never a tree; anything else is left where it is
// and counted. The (then empty) directories stay, for a server that has
// the index open. Exit codes: 0 cleared (or nothing to clear), 1 a directory
// that cannot be trusted, 2 usage.
func runClearCache(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("clear-cache", flag.ContinueOnError)
	root := fs.String("root", "", "workspace root `DIR` (default: the nearest directory up from PATH with .agent/config.yml or .git)")
	all := fs.Bool("all", false, "clear the index of every workspace, not only this one")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp clear-cache [PATH] [flags]\n\nRemoves the workspace index acode-lsp keeps in the user's cache directory for\nthe workspace around PATH (default .). The next pack rebuilds it.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, interleave(fs, args), stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "acode-lsp clear-cache: give one PATH (or --root DIR, or --all)")
		return 2
	}
	base, err := indexBase()
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp clear-cache: %v\n", err)
		return 1
	}
	var dirs []string
	if *all {
		if dirs, err = indexDirs(base); err != nil {
			fmt.Fprintf(stderr, "acode-lsp clear-cache: %v\n", err)
			return 1
		}
	} else {
		ws, code := clearRoot(fs, *root, stderr)
		if code != 0 {
			return code
		}
		dir, err := index.Dir(ws)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp clear-cache: %v\n", err)
			return 1
		}
		dirs = []string{filepath.Join(base, filepath.Base(dir))}
		fmt.Fprintf(stdout, "workspace %s\n", ws)
	}
	return clearDirs(ctx, base, dirs, stdout, stderr)
}

// clearRoot returns the workspace root whose index to clear, with its
// symlinks resolved as the index resolves them (index.OpenSet).
func clearRoot(fs *flag.FlagSet, root string, stderr io.Writer) (string, int) {
	ws := root
	if ws == "" {
		start := "."
		if fs.NArg() == 1 {
			start = fs.Arg(0)
		}
		fi, err := os.Stat(start)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp clear-cache: %s: %v\n", start, unwrapPathErr(err))
			return "", 2
		}
		if !fi.IsDir() {
			start = filepath.Dir(start)
		}
		ws = findRoot(start)
	}
	fi, err := os.Stat(ws)
	if err != nil || !fi.IsDir() {
		why := "is not a directory"
		if err != nil {
			why = unwrapPathErr(err).Error()
		}
		return "", flagError(stderr, "clear-cache", "root", ws, why)
	}
	resolved, err := filepath.EvalSymlinks(absOr(ws))
	if err != nil {
		return "", flagError(stderr, "clear-cache", "root", ws, unwrapPathErr(err).Error())
	}
	return resolved, 0
}

// clearDirs clears each index directory below base and reports what it
// removed and what it left.
func clearDirs(ctx context.Context, base string, dirs []string, stdout, stderr io.Writer) int {
	var sum clearStats
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			fmt.Fprintln(stderr, "acode-lsp clear-cache: interrupted")
			return exitCode(err)
		}
		st, err := clearIndexDir(base, d)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp clear-cache: %v\n", err)
			return 1
		}
		sum.add(st)
	}
	if sum.files == 0 && sum.left == 0 {
		fmt.Fprintf(stdout, "nothing to clear: no index in %s\n", base)
		return 0
	}
	fmt.Fprintf(stdout, "removed %d index files (%s) from %s\n", sum.files, mb(sum.bytes), base)
	if sum.left > 0 {
		fmt.Fprintf(stdout, "left %d entries acode-lsp did not make (links, directories, other files or other users' files); look at them yourself\n", sum.left)
	}
	return 0
}

// clearStats counts what clearing removed and left.
type clearStats struct {
	files, left int
	bytes       int64
}

func (s *clearStats) add(o clearStats) {
	s.files, s.left, s.bytes = s.files+o.files, s.left+o.left, s.bytes+o.bytes
}

// indexBase is the directory holding every workspace's index:
// os.UserCacheDir()/acode-lsp/index (docs/index.md "Where it is"), the
// cache directory's own symlinks resolved (a user's ~/.cache may be a link
// of theirs), the two directories below it not.
func indexBase() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w", err)
	}
	if r, err := filepath.EvalSymlinks(c); err == nil {
		c = r
	}
	return filepath.Join(c, "acode-lsp", "index"), nil
}

// indexDirs lists the directories of every workspace's index under base:
// entries named as the index names them ([0-9a-f]{16}); the checks come
// later, per directory.
func indexDirs(base string) ([]string, error) {
	if err := trustedDir(filepath.Dir(base)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if err := trustedDir(base); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	des, err := os.ReadDir(base)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if index.IsRootDirName(de.Name()) {
			out = append(out, filepath.Join(base, de.Name()))
		}
	}
	return out, nil
}

// errNotOurDir: a directory under the cache that the index did not make.
var errNotOurDir = errors.New("not acode-lsp's directory")

// mb formats a byte count for people.
func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// clearIndexDir removes the index files of one workspace's directory dir
// (below base); base and the directory above it must be trusted as dir is.
// dir itself stays: a language server or MCP server running on the
// workspace keeps its index open and writes its next segment there (a
// removed directory would make every later write fail until a restart);
// the segments it had open it drops when it sees them gone.
func clearIndexDir(base, dir string) (clearStats, error) {
	var st clearStats
	for _, d := range []string{filepath.Dir(base), base, dir} {
		if err := trustedDir(d); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return st, nil
			}
			return st, fmt.Errorf("%w; nothing removed", err)
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return st, err
	}
	for _, de := range des {
		p := filepath.Join(dir, de.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !index.IsFileName(de.Name()) || !fi.Mode().IsRegular() || !ownedByUser(fi) {
			st.left++
			continue
		}
		// dir is this user's and writable by no one else: the file checked
		// is the file removed, and Remove unlinks a name, never a target.
		if os.Remove(p) == nil {
			st.files++
			st.bytes += fi.Size()
		}
	}
	return st, nil
}

// trustedDir checks that d is a real directory (not a link: it is never
// followed), owned by this user and writable by no one else.
func trustedDir(d string) error {
	fi, err := os.Lstat(d)
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, which clear-cache does not follow (%w)", d, errNotOurDir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory (%w)", d, errNotOurDir)
	case !ownedByUser(fi):
		return fmt.Errorf("%s belongs to another user (%w)", d, errNotOurDir)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s is writable by others (mode %04o) (%w)", d, fi.Mode().Perm(), errNotOurDir)
	}
	return nil
}
