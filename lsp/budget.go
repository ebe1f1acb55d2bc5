package lsp

import (
	"context"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
)

// budgetStatusResult is the payload of acode/budget and the result of
// acode/budgetStatus, with exactly the fields of docs/design.md. Level comes
// from budget.Level with the configured thresholds
// (context.budget.warnings); editors show the level the server sends and
// compute none of their own.
type budgetStatusResult struct {
	Model     string  `json:"model"`
	Encoding  string  `json:"encoding"`
	Exact     bool    `json:"exact"`
	Total     int     `json:"total"`
	Available int     `json:"available"`
	Used      int     `json:"used"`
	Percent   float64 `json:"percent"`
	Level     string  `json:"level"`
	OpenFiles int     `json:"openFiles"`
	// Thresholds are where the levels start (context.budget.warnings), so
	// the editors' level labels say the configured percentages.
	Thresholds budget.Thresholds `json:"thresholds"`
	// Estimate is rule 1's estimate object when the counts are not exact.
	Estimate *tokenizer.Estimate `json:"estimate,omitempty"`
}

// currentBudget computes the budget now: used is the sum of the exact token
// counts of the open documents under the current model (each version is
// counted once, see countCache).
func (s *Server) currentBudget(ctx context.Context) (*budgetStatusResult, error) {
	e := s.conf.env()
	docs := s.docs.all()
	used := 0
	for _, doc := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		used += s.counts.get(doc, e.tok)
	}
	available := e.cfg.Available()
	th := e.cfg.Context.Budget.Warnings.Thresholds()
	return &budgetStatusResult{
		Model:      e.model,
		Encoding:   e.tok.Encoding(),
		Exact:      e.exact(),
		Total:      e.cfg.Context.Budget.TotalTokens,
		Available:  available,
		Used:       used,
		Percent:    percentOf(used, available),
		Level:      budget.Level(used, available, th),
		OpenFiles:  len(docs),
		Thresholds: th,
		Estimate:   tokenizer.EstimateOf(e.tok),
	}, nil
}

// budgetNotifier sends acode/budget after the open documents or the
// configuration changed, once things have been quiet for delay.
type budgetNotifier struct {
	s     *Server
	delay time.Duration

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool

	run sync.Mutex // one computation at a time, so notifications stay in order
}

// newBudgetNotifier returns a notifier that waits delay after the last trigger.
func newBudgetNotifier(s *Server, delay time.Duration) *budgetNotifier {
	return &budgetNotifier{s: s, delay: delay}
}

// trigger (re)starts the quiet period.
func (b *budgetNotifier) trigger() {
	b.s.whatif.trigger() // the what-if lenses change with the same events
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	if b.timer == nil {
		b.timer = time.AfterFunc(b.delay, b.fire)
		return
	}
	b.timer.Reset(b.delay)
}

// fire computes the budget and sends it. Each computation reads the state
// at the time it runs, so the last notification is always current.
func (b *budgetNotifier) fire() {
	b.s.spawn(func() {
		b.run.Lock()
		defer b.run.Unlock()
		b.mu.Lock()
		stopped := b.stopped
		b.mu.Unlock()
		if stopped {
			return
		}
		st, err := b.s.currentBudget(b.s.ctx)
		if err != nil {
			return // the server is stopping
		}
		b.s.client.Notify(methodBudget, st)
	})
}

// stop ends notifications (shutdown, exit).
func (b *budgetNotifier) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
	}
}
