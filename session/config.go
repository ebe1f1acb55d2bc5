package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/config"
)

// LoadConfig returns the configuration of a workspace and the file it came
// from ("" for the defaults): explicit when a door names a file (the
// command line's --config), else .agent/config.yml of root, or with
// upward the nearest one from root up (the command line's rule: a pack of
// a subdirectory uses its project's config). The language server and the
// MCP server use the first root's file, not upward, and watch it.
func LoadConfig(root, explicit string, upward bool) (config.Config, string, error) {
	path := explicit
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return config.Default(), path, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
	} else if root != "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			return config.Default(), "", err
		}
		p, ok := config.Discover(abs, upward)
		if !ok {
			return config.Default(), "", nil
		}
		path = p
	} else {
		return config.Default(), "", nil
	}
	cfg, err := config.Load(path)
	if err != nil {
		return config.Default(), path, err
	}
	return cfg, path, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
