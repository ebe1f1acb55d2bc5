package lsp

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// cancelParams is the params of $/cancelRequest, with the id kept raw.
//
// Defect: go.lsp.dev/protocol decodes CancelParams.ID into an interface{},
// where a numeric id becomes a float64, then matches it against int32 or
// string ids only, so a numeric id never cancels anything. The id is
// decoded here from its JSON text instead (see rawIDKey).
type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

// cancelRequest handles $/cancelRequest: the request is cancelled and
// answered -32800 at once; its handler sees its context cancelled.
func (s *Server) cancelRequest(_ context.Context, p *cancelParams) error {
	key, ok := rawIDKey(p.ID)
	if !ok {
		return &rpc.FieldError{Field: "id", Msg: "must be an integer or a string"}
	}
	if s.calls.cancel(key) {
		s.log.Debug("request cancelled", zap.Stringer("id", key))
	} else {
		s.log.Debug("cancel for a request not in flight", zap.Stringer("id", key))
	}
	return nil
}
