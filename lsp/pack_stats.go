package lsp

import (
	"context"
	"encoding/json"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// packStats handles acode/packStats (no params): the statistics of the
// packs since the server started (pack.Recorder) with the counters of the
// token-count caches of every encoding used.
func (s *Server) packStats(context.Context, json.RawMessage) (any, error) {
	return s.stats.Snapshot(s.conf.cacheStats()...), nil
}

// cacheStats returns the counters of the count cache of each encoding.
func (c *configState) cacheStats() []tokenizer.CacheStats {
	c.tokMu.Lock()
	defer c.tokMu.Unlock()
	out := make([]tokenizer.CacheStats, 0, len(c.tokenizers))
	for _, t := range c.tokenizers {
		out = append(out, t.Stats())
	}
	return out
}
