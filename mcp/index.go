package mcp

import (
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/pack"
)

// indexFlushDelay: the server writes what its packs put into the index this
// long after the last put.
const indexFlushDelay = 2 * time.Second

// indexFor returns the persistent workspace index of roots (docs/index.md),
// opening it when the roots changed; nil when it is off or cannot be
// opened. s.mu is held.
func (s *Server) indexFor(roots []string, log *zap.Logger) pack.FileIndex {
	if !s.opts.WorkspaceIndex {
		return nil
	}
	if s.index == nil || !slices.Equal(s.indexRoots, roots) {
		if s.index != nil {
			_ = s.index.Close() // a call still holding it only misses
		}
		set, err := index.OpenSet(roots, index.Options{})
		if err != nil {
			log.Info("workspace index not opened for every root", zap.Error(err))
		}
		set.AutoFlush(indexFlushDelay)
		s.index, s.indexRoots = set, slices.Clone(roots)
		// A running server keeps in memory the term tables the index
		// refuses, so that warm packs do not read those files again, and
		// the index's answers, so that they do not search it again.
		s.indexMemo = pack.KeptTerms(pack.MissedTerms(set))
	}
	if !s.index.Usable() {
		return nil
	}
	return s.indexMemo
}

// closeIndex flushes and closes the index at the end of the session.
func (s *Server) closeIndex() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index != nil {
		_ = s.index.Close()
		s.index, s.indexMemo = nil, nil
	}
}
