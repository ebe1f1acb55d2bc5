package lsp

import (
	"context"
	"encoding/json"
)

// packStats handles acode/packStats (no params): the statistics of the
// packs since the server started (pack.Recorder) with the counters of the
// token-count caches of every encoding used.
func (s *Server) packStats(context.Context, json.RawMessage) (any, error) {
	return s.stats.Snapshot(s.conf.tokenizers.Stats()...), nil
}
