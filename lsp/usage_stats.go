package lsp

import (
	"context"
	"encoding/json"
)

// usageStats handles acode/usageStats: statistics of the recent
// acode/trimConversation calls, the tracked sessions with their section
// usage, and the bounded history of section usage. It takes no params.
func (s *Server) usageStats(_ context.Context, _ json.RawMessage) (any, error) {
	st := s.usage.Stats()
	st.Sessions, st.SectionHistory = s.sessions.Usage()
	return st, nil
}
