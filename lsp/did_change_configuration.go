package lsp

import (
	"context"
	"encoding/json"
)

// didChangeConfigurationParams keeps the settings raw: their "acode"
// section is decoded by the config package, which reports bad values.
type didChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// didChangeConfiguration handles workspace/didChangeConfiguration. The
// "acode" section overrides the configuration file; clients that send no
// settings (the pull model) are asked with workspace/configuration.
func (s *Server) didChangeConfiguration(_ context.Context, p *didChangeConfigurationParams) error {
	section := editorSection(p.Settings)
	if section == nil {
		if s.clientCaps().configuration {
			s.spawn(func() { s.pullSettings(s.ctx) })
		}
		return nil
	}
	s.conf.setEditorSettings(section)
	return nil
}
