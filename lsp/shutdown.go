package lsp

import (
	"context"
	"encoding/json"
)

// shutdown handles the shutdown request: background work stops and every
// later request is refused until exit (the rpc.Conn moved the session to
// rpc.StateShutdown before calling it). Requests already running finish.
func (s *Server) shutdown(_ context.Context, _ json.RawMessage) (any, error) {
	s.budget.stop()
	s.log.Info("shutdown")
	return nil, nil
}
