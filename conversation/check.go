package conversation

import (
	"context"
	"fmt"
	"math"

	"github.com/acode-lsp/acode-lsp/budget"
)

// CheckRequest is the params object of acode/checkConversation (seed 003's
// checkBudget): the messages and window of acode/trimConversation, the
// optional per-request thresholds, a session id and a tokenizer.json (as
// in [TrimRequest]).
type CheckRequest struct {
	Messages             []Message        `json:"messages"`
	Model                string           `json:"model,omitempty"`
	MaxContextTokens     int              `json:"maxContextTokens"`
	ReservedOutputTokens int              `json:"reservedOutputTokens"`
	Thresholds           *ThresholdParams `json:"thresholds,omitempty"`
	SessionID            string           `json:"sessionId,omitempty"`
	TokenizerFile        string           `json:"tokenizerFile,omitempty"`

	// Limits resolves Model when MaxContextTokens is 0; nil means
	// [DefaultContextLimits].
	Limits ContextLimits `json:"-"`
	// BaseThresholds as in [SectionBudgetRequest].
	BaseThresholds budget.Thresholds `json:"-"`
}

// CheckResult is the result of acode/checkConversation. MaxInputTokens is
// maxContextTokens − reservedOutputTokens; CurrentTokens is the exact cost
// of the messages ([ConversationTokens]); AvailableTokens is the
// difference (negative when over); UtilizationPercent is
// round(100·current/max) as in the seed. Level uses the thresholds on
// CurrentTokens of MaxInputTokens. Hints say what the next tool call may
// return (see [ToolHints]).
type CheckResult struct {
	MaxInputTokens     int               `json:"maxInputTokens"`
	CurrentTokens      int               `json:"currentTokens"`
	AvailableTokens    int               `json:"availableTokens"`
	WithinBudget       bool              `json:"withinBudget"`
	UtilizationPercent int               `json:"utilizationPercent"`
	Level              string            `json:"level"`
	Thresholds         budget.Thresholds `json:"thresholds"`
	Messages           int               `json:"messages"`
	Hints              ToolHints         `json:"hints"`
	SessionID          string            `json:"sessionId,omitempty"`
	Warnings           []string          `json:"warnings"`
}

// responseShare is the tiers preset's response tier as a share of the
// window (30,000 of 100,000 of 200,000): what hints keep for the response
// when a check reserved nothing.
const responseShare = 0.15

// toolShare is the tiers preset's tool-results tier as a share of the
// window (40,000 of 200,000): the most a check's hints offer one tool call
// in a small window.
const toolShare = 0.2

// CheckConversation measures a message list against its budget without
// changing it (acode/checkConversation). It validates the request like
// [Trim] and fails only on invalid params.
func CheckConversation(ctx context.Context, c Counter, req CheckRequest) (*CheckResult, error) {
	tr := TrimRequest{Messages: req.Messages, Model: req.Model, MaxContextTokens: req.MaxContextTokens,
		ReservedOutputTokens: req.ReservedOutputTokens, Limits: req.Limits}
	o, err := tr.options()
	if err != nil {
		return nil, err
	}
	th, err := resolveThresholds(req.Thresholds, req.BaseThresholds)
	if err != nil {
		return nil, err
	}
	current := ListOverhead
	for i, m := range req.Messages {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("conversation: check: %w", err)
			}
		}
		current += MessageTokens(c, m)
	}
	res := &CheckResult{
		MaxInputTokens:     o.target,
		CurrentTokens:      current,
		AvailableTokens:    o.target - current,
		WithinBudget:       current <= o.target,
		UtilizationPercent: int(math.Round(float64(current) * 100 / float64(o.target))),
		Level:              budget.Level(current, o.target, th),
		Thresholds:         th,
		Messages:           len(req.Messages),
		SessionID:          req.SessionID,
		Warnings:           []string{},
	}
	percent := float64(floorTokens(float64(current)*1000/float64(o.target))) / 10
	if w := levelWarning(res.Level, current, o.target, percent, th, fmt.Sprintf("the %d-token input budget", o.target)); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	if !res.WithinBudget {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"the conversation is %d tokens over maxContextTokens %d − reservedOutputTokens %d: trim it (acode/trimConversation) before the next model call",
			current-o.target, o.maxContext, o.reserved))
	}
	reserve, extra := o.reserved, 0
	if reserve == 0 {
		reserve = floorTokens(float64(o.maxContext) * responseShare)
		extra = reserve
	}
	toolRoom := max(min(DefaultToolTokens, floorTokens(float64(o.maxContext)*toolShare)), 1)
	res.Hints = Hints(res.AvailableTokens-extra, toolRoom, "")
	res.Hints.TrimNeeded = !res.WithinBudget || res.Level == LevelCritical || res.Hints.MaxTokens < toolRoom
	res.Hints.TrimReservedOutputTokens = min(reserve+toolRoom, o.maxContext-1)
	return res, nil
}
