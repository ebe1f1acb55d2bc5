package collector

import (
	"os"
	"path/filepath"
)

// Default ignores (docs/design.md#rule-9): where no .gitignore is in force,
// dependency and build trees are still left out, so that a folder without
// one (a tarball, a fresh npm project, an installed toolchain) is not packed
// with its node_modules. A .gitignore in force — the repository's
// info/exclude or any .gitignore from the repository top down to the
// directory — says what the project ignores, and then these defaults do not
// apply. Options.NoIgnoreDefaults (context.ignore_defaults: false) turns
// them off; a context.exclude negation ("!build/") lets one in.

// defaultIgnoredDirs are always dependency, cache or VCS trees.
var defaultIgnoredDirs = map[string]bool{
	"node_modules": true, ".venv": true, "__pycache__": true, ".next": true,
	// VCS folders (.git is never walked at all).
	".hg": true, ".svn": true, ".bzr": true, "_darcs": true, "CVS": true, ".jj": true,
}

// goPackageDirs are build output or vendored dependencies outside a Go
// module, but inside one they are source: a module's vendor directory holds
// the dependencies the go command builds from, and Go packages are named
// build, dist or coverage (Go's own go/build, cmd/dist, runtime/coverage);
// the go command writes no build tree into a module.
var goPackageDirs = map[string]bool{
	"vendor": true, "dist": true, "build": true, "target": true, "coverage": true,
}

// defaultIgnored reports whether the directory abs is a default ignore,
// and why. It is asked only where no .gitignore is in force.
func (w *Workspace) defaultIgnored(abs string) (bool, string) {
	if w.noDefaults {
		return false, ""
	}
	name := filepath.Base(abs)
	switch {
	case defaultIgnoredDirs[name]:
	case goPackageDirs[name] && !w.inGoModule(filepath.Dir(abs)):
	default:
		return false, ""
	}
	return true, "is a dependency or build tree, ignored by default where no .gitignore is in force (context.ignore_defaults: false lets it in)"
}

// inGoModule reports whether dir or a directory above it holds a go.mod.
// Answers are cached per directory for the workspace's life (a go.mod
// added later is seen by a new workspace, as after a config reload).
func (w *Workspace) inGoModule(dir string) bool {
	var asked []string
	found := false
	for d := dir; ; {
		w.mu.Lock()
		known, ok := w.goMod[d]
		w.mu.Unlock()
		if ok {
			found = known
			break
		}
		asked = append(asked, d)
		if info, err := os.Lstat(filepath.Join(d, "go.mod")); err == nil && info.Mode().IsRegular() {
			found = true
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	w.mu.Lock()
	for _, d := range asked {
		w.goMod[d] = found
	}
	w.mu.Unlock()
	return found
}
