package pack

import (
	"context"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
)

type loggerKey struct{}

// coveredDetail is the detail of a chunk left out because every one of its
// lines is already included.
const coveredDetail = "every line is already included"

// WithLogger returns a context whose packs log to l. The language server
// and the MCP server pass a logger that carries the request id, so every
// line a request logs names it.
func WithLogger(ctx context.Context, l *zap.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// Logger returns the logger of ctx (see [WithLogger]), or a no-op logger.
func Logger(ctx context.Context) *zap.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*zap.Logger); ok && l != nil {
		return l
	}
	return zap.NewNop()
}

// factors are the parts of a chunk's score (docs/design.md#rule-5), kept for the
// debug log of its decision.
type factors struct {
	relevance, recency float64
}

// debug reports whether this pack logs its decisions.
func (p *pipeline) debug() bool {
	return Logger(p.ctx).Core().Enabled(zapcore.DebugLevel)
}

// logDecisions logs, at debug level, the stages with their timings and for
// every chunk that was ranked its decision with the factors of its score:
// paths, lines, counts and numbers only, never content.
func (p *pipeline) logDecisions(included, over, covered []*budget.Item) {
	if !p.debug() {
		return
	}
	log := Logger(p.ctx)
	fields := make([]zap.Field, 0, len(p.stats.Timings)+4)
	for _, t := range p.stats.Timings {
		fields = append(fields, zap.Duration(t.Stage, t.Duration))
	}
	fields = append(fields, zap.Int("sources", p.stats.Sources), zap.Int("chunks", p.stats.Chunks), zap.Int("candidates", p.stats.Candidates))
	log.Debug("pack stages", fields...)
	for _, it := range included {
		p.logChunk(log, it, "included", "")
	}
	for _, it := range over {
		p.logChunk(log, it, "excluded", "over_budget")
	}
	for _, it := range covered {
		p.logChunk(log, it, "excluded", "duplicate")
	}
	for _, x := range p.excluded {
		if x.Reason == "over_budget" || x.Detail == coveredDetail {
			continue // logged above with their factors
		}
		log.Debug("input excluded", zap.String("type", x.Type), zap.String("path", collector.EscapePath(x.Path)),
			zap.Int("startLine", x.StartLine), zap.Int("endLine", x.EndLine), zap.String("reason", x.Reason))
	}
}

func (p *pipeline) logChunk(log *zap.Logger, it *budget.Item, decision, reason string) {
	f := p.factors[it.Seq]
	name := it.Path
	if name == "" {
		name = "tool:" + it.Label
	}
	log.Debug("chunk "+decision, zap.String("path", collector.EscapePath(name)), zap.Int("startLine", it.StartLine), zap.Int("endLine", it.EndLine),
		zap.Int("tokens", it.Tokens), zap.Float64("score", it.Score), zap.Float64("relevance", f.relevance),
		zap.Float64("recency", f.recency), zap.Int("priority", it.Priority), zap.String("reason", reason))
}
