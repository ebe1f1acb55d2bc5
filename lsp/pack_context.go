package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/wire"
	"github.com/acode-lsp/acode-lsp/pack"
)

// packParams is the params of acode/packContext (and acode/previewContext):
// the request of docs/design.md plus the LSP work-done token a client may
// pass.
type packParams struct {
	packRequest
	WorkDoneToken *protocol.ProgressToken
}

// packRequest is the JSON of an acode/packContext request; [packRequest.request]
// converts it to the pipeline's pack.Request.
type packRequest struct {
	Query            string                  `json:"query,omitempty"`
	Model            string                  `json:"model,omitempty"`
	Encoding         string                  `json:"encoding,omitempty"`
	Budget           *config.BudgetOverrides `json:"budget,omitempty"`
	IncludeOpenFiles *bool                   `json:"includeOpenFiles,omitempty"` // nil means true
	Search           *searchParams           `json:"search,omitempty"`
	Sources          []wire.Source           `json:"sources,omitempty"`
	Template         string                  `json:"template,omitempty"`
	Format           string                  `json:"format,omitempty"`
}

// searchParams is the "search" of acode/packContext.
type searchParams struct {
	Pattern      string `json:"pattern"`
	MaxResults   int    `json:"maxResults,omitempty"`
	Regex        bool   `json:"regex,omitempty"`
	ContextLines *int   `json:"contextLines,omitempty"`
}

// request converts the params to the pipeline's request: URIs to paths,
// LSP ranges to 1-based lines (wire.Sources); what does not convert is a
// *pack.ParamError naming the field.
func (p *packRequest) request() (pack.Request, error) {
	srcs, err := wire.Sources(p.Sources)
	if err != nil {
		return pack.Request{}, err
	}
	req := pack.Request{Query: p.Query, Model: p.Model, Encoding: p.Encoding, Budget: p.Budget,
		IncludeOpenFiles: p.IncludeOpenFiles, Sources: srcs, Template: p.Template, Format: p.Format}
	if sp := p.Search; sp != nil {
		req.Search = &pack.Search{Pattern: sp.Pattern, MaxResults: sp.MaxResults, Regex: sp.Regex, ContextLines: sp.ContextLines}
	}
	return req, nil
}

// UnmarshalJSON decodes the request and the token separately, so that a
// field that does not decode is named by its JSON path ("sources[0].uri"),
// not by its Go path through the embedded struct.
func (p *packParams) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &p.packRequest); err != nil {
		return err
	}
	var tok struct {
		WorkDoneToken *protocol.ProgressToken `json:"workDoneToken"`
	}
	if err := json.Unmarshal(data, &tok); err != nil {
		return err
	}
	p.WorkDoneToken = tok.WorkDoneToken
	return nil
}

// packContext handles acode/packContext: the pipeline packs the sources,
// the open documents (includeOpenFiles) and the workspace search into one
// context under the budget. Progress is reported with
// window/workDoneProgress when the pack searches the workspace.
func (s *Server) packContext(ctx context.Context, p *packParams) (*pack.Result, error) {
	e := s.conf.env()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	defer s.returnMemory() // after the pack's garbage is unreachable

	// Only a search walks the workspace; other packs are quick and show no
	// progress.
	var prog *progress
	var report func(msg string, pct int)
	if p.Search != nil {
		prog = s.startProgress(p.WorkDoneToken, "acode: packing context")
		report = prog.report
	}
	start := time.Now()
	var res *pack.Result
	req, err := p.request()
	if err == nil {
		res, err = e.sess.Pack(ctx, req, s.openDocs(), report)
	}
	s.stats.Record(res, time.Since(start), err)
	if prog != nil {
		if err != nil {
			prog.end("failed")
		} else {
			prog.end("done")
		}
	}
	if err != nil {
		return nil, err
	}
	pack.Logger(ctx).Info("packed", zap.Int("tokens", res.TokenCount), zap.Int("included", len(res.Included)), zap.Int("excluded", len(res.Excluded)))
	return res, nil
}

// openDocs lists the open documents that are files, for the pipeline.
func (s *Server) openDocs() []pack.OpenDoc {
	docs := s.docs.all()
	open := make([]pack.OpenDoc, 0, len(docs))
	for _, d := range docs {
		if d.Path == "" {
			continue
		}
		open = append(open, pack.OpenDoc{AbsPath: d.Path, Version: d.Version, Modified: d.Modified})
	}
	return open
}
