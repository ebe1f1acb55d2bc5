package lsp

import (
	"context"
	"encoding/json"
)

// usageStats handles acode/usageStats: statistics of the recent
// acode/trimConversation calls of this session. It takes no params.
func (s *Server) usageStats(_ context.Context, _ json.RawMessage) (any, error) {
	return s.usage.Stats(), nil
}
