package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/pack"
)

// previewContext handles acode/previewContext: the params of
// acode/packContext → what the pack would include and exclude, without
// formatting it (pack.Engine.Preview). Previews are not counted in
// acode/packStats.
func (s *Server) previewContext(ctx context.Context, p *packParams) (*pack.Preview, error) {
	e := s.conf.env()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	req, err := p.request()
	if err != nil {
		return nil, err
	}
	return e.sess.Preview(ctx, req, s.openDocs())
}
