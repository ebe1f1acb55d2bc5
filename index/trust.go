package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Directories (docs/index.md "What is trusted"). The index reads and
// deletes files only in directories it can trust: made by this user, not
// writable by anyone else, reached through no link another user could
// have planted. A cache directory that is shared (mode 1777, say) is fine
// as a parent, as long as the subdirectory acode-lsp keeps there is this
// user's own; where it is not, the index is off.

// errUntrusted marks a directory or file the index will not use.
var errUntrusted = errors.New("index: not trusted")

// trustedParent makes dir (with its parents) when it is missing, resolves
// its symlinks and checks the result and each directory above it: owned by
// this user or by root, and writable by others only with the sticky bit
// (so no one else can rename what this user keeps there). It returns the
// resolved path, under which every path the index uses is built.
func trustedParent(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%w: %q is not absolute", errUntrusted, dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	res, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("index: %w", err)
	}
	for p := res; ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		if err != nil {
			return "", fmt.Errorf("index: %w", err)
		}
		if err := parentOK(p, fi); err != nil {
			return "", err
		}
		if q := filepath.Dir(p); q == p {
			break
		}
	}
	return res, nil
}

// ownDir makes dir (mode 0700) when it is missing and checks that it is a
// directory, not a symlink, owned by this user and writable by no one else.
func ownDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("index: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symlink", errUntrusted, dir)
	case !fi.IsDir():
		return fmt.Errorf("%w: %s is not a directory", errUntrusted, dir)
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Geteuid() {
		return fmt.Errorf("%w: %s belongs to uid %d, not to this user (uid %d); remove it or set XDG_CACHE_HOME to a directory of your own", errUntrusted, dir, uid, os.Geteuid())
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%w: %s is writable by others (mode %04o); chmod 700 it", errUntrusted, dir, fi.Mode().Perm())
	}
	return nil
}

// ownDirs applies ownDir to each of names below base in turn and returns
// the deepest.
func ownDirs(base string, names ...string) (string, error) {
	d := base
	for _, n := range names {
		d = filepath.Join(d, n)
		if err := ownDir(d); err != nil {
			return "", err
		}
	}
	return d, nil
}

// ownRegular reports whether fi is a regular file owned by this user (the
// only kind the index opens or deletes).
func ownRegular(fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() {
		return false
	}
	uid, ok := ownerOf(fi)
	return !ok || uid == os.Geteuid()
}

// parentOK checks one directory on the way to the index.
func parentOK(p string, fi fs.FileInfo) error {
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", errUntrusted, p)
	}
	uid, ok := ownerOf(fi)
	if !ok {
		return nil
	}
	if uid != os.Geteuid() && uid != 0 {
		return fmt.Errorf("%w: %s belongs to uid %d, neither this user (uid %d) nor root", errUntrusted, p, uid, os.Geteuid())
	}
	if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("%w: %s is writable by others without the sticky bit (mode %04o)", errUntrusted, p, fi.Mode().Perm())
	}
	return nil
}
