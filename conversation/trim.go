package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Trim defaults, as in docs/design.md.
const (
	DefaultPreserveRecentTurns  = 4
	DefaultMaxAge               = 5
	DefaultSmallOutputThreshold = 100
)

// TrimRequest is the params object of acode/trimConversation. Pointer
// fields are optional and take the Default* values when nil.
// MaxContextTokens may be left 0 when Model names a model of the
// context-limit table.
type TrimRequest struct {
	Messages             []Message `json:"messages"`
	Model                string    `json:"model,omitempty"`
	MaxContextTokens     int       `json:"maxContextTokens"`
	ReservedOutputTokens int       `json:"reservedOutputTokens"`
	PreserveRecentTurns  *int      `json:"preserveRecentTurns,omitempty"`
	MaxAge               *int      `json:"maxAge,omitempty"`
	SmallOutputThreshold *int      `json:"smallOutputThreshold,omitempty"`
	PreserveErrors       *bool     `json:"preserveErrors,omitempty"`
	// Markers (default false) sets "_truncated": true and
	// "_originalTokens": N on each message replaced by a placeholder. Off
	// by default because providers reject unknown message fields
	// (Anthropic's "Extra inputs are not permitted", OpenAI's "Additional
	// properties are not allowed"): an agent that asks for them strips
	// them before sending.
	Markers *bool `json:"markers,omitempty"`
	// SessionID ties the trim to a session of a [Sessions] store; Trim
	// itself ignores it.
	SessionID string `json:"sessionId,omitempty"`
	// TokenizerFile names a Hugging Face tokenizer.json to count with
	// instead of the model's tokenizer; the server resolves it (Trim
	// counts with the Counter it is given).
	TokenizerFile string `json:"tokenizerFile,omitempty"`

	// Limits resolves Model when MaxContextTokens is 0; nil means
	// [DefaultContextLimits].
	Limits ContextLimits `json:"-"`
}

// TrimResult is the result of acode/trimConversation. FinalTokens is the
// exact cost ([ConversationTokens]) of Messages and never exceeds
// MaxTokens = maxContextTokens − reservedOutputTokens.
type TrimResult struct {
	Messages       []Message `json:"messages"`
	Truncated      bool      `json:"truncated"`
	DroppedCount   int       `json:"droppedCount"`
	OriginalTokens int       `json:"originalTokens"`
	FinalTokens    int       `json:"finalTokens"`
	MaxTokens      int       `json:"maxTokens"`
	// Placeholders counts tool outputs replaced by a placeholder.
	Placeholders int `json:"placeholders"`
}

// trimOptions is a validated TrimRequest.
type trimOptions struct {
	target, maxContext, reserved int
	preserveTurns                int
	maxAge                       int
	smallThreshold               int
	preserveErrors               bool
	markers                      bool
}

func (req *TrimRequest) options() (trimOptions, error) {
	o := trimOptions{
		maxContext:     req.MaxContextTokens,
		reserved:       req.ReservedOutputTokens,
		preserveTurns:  intOr(req.PreserveRecentTurns, DefaultPreserveRecentTurns),
		maxAge:         intOr(req.MaxAge, DefaultMaxAge),
		smallThreshold: intOr(req.SmallOutputThreshold, DefaultSmallOutputThreshold),
		preserveErrors: req.PreserveErrors == nil || *req.PreserveErrors,
		markers:        req.Markers != nil && *req.Markers,
	}
	switch {
	case o.maxContext < 0:
		return o, paramErrorf("maxContextTokens", "must be positive, got %d", o.maxContext)
	case o.maxContext == 0 && req.Model == "":
		return o, paramErrorf("maxContextTokens", "is required (or name a known model in \"model\")")
	case o.maxContext == 0:
		l, ok := req.Limits.Lookup(req.Model)
		if !ok {
			return o, paramErrorf("maxContextTokens", "is required: model %q has no known context limit", req.Model)
		}
		o.maxContext = l
	}
	switch {
	case o.reserved < 0:
		return o, paramErrorf("reservedOutputTokens", "must not be negative, got %d", o.reserved)
	case o.reserved >= o.maxContext:
		return o, paramErrorf("reservedOutputTokens", "is %d, which leaves nothing of maxContextTokens %d for the conversation: reserve less for the response",
			o.reserved, o.maxContext)
	case o.preserveTurns < 0:
		return o, paramErrorf("preserveRecentTurns", "must not be negative, got %d", o.preserveTurns)
	case o.maxAge < 0:
		return o, paramErrorf("maxAge", "must not be negative, got %d", o.maxAge)
	case o.smallThreshold < 0:
		return o, paramErrorf("smallOutputThreshold", "must not be negative, got %d", o.smallThreshold)
	}
	if err := checkMessages(req.Messages); err != nil {
		return o, err
	}
	o.target = o.maxContext - o.reserved
	return o, nil
}

// checkMessages refuses a message that failed to decode or has no known
// role, naming it by index.
func checkMessages(msgs []Message) error {
	for i, m := range msgs {
		if pe := m.Err(); pe != nil {
			return paramErrorf(fmt.Sprintf("messages[%d].%s", i, pe.Field), "%s", pe.Message)
		}
		switch m.Role {
		case RoleSystem, RoleDeveloper, RoleUser, RoleAssistant, RoleTool:
		case "":
			return paramErrorf(fmt.Sprintf("messages[%d].role", i), "is required (system, user, assistant or tool)")
		default:
			return paramErrorf(fmt.Sprintf("messages[%d].role", i), "unknown role %q (system, user, assistant or tool)", m.Role)
		}
	}
	return nil
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// Trim makes req.Messages fit maxContextTokens − reservedOutputTokens. It
// returns the list unchanged when it already fits; otherwise it runs the
// passes of docs/design.md in order and stops as soon as the list fits:
//
//  1. tool outputs older than maxAge assistant steps become the placeholder
//     "[content truncated - {age} steps ago, {tokens} tokens]", unless they
//     are small (under smallOutputThreshold tokens) or, with
//     preserveErrors, look like an error;
//  2. the remaining tool outputs become placeholders, oldest first;
//  3. the oldest non-system messages outside the last preserveRecentTurns
//     turns are dropped, an assistant tool call always together with its
//     tool results.
//
// A placeholder only replaces an output it is cheaper than. A turn ends
// with each assistant message and the tool results right after it (a user
// message and its answer, or one agent step); the messages after the last
// one form the current turn. If the list still does not fit, Trim
// returns an [*Error] with code [errcode.Budget] — never a list over
// budget. Invalid requests return a [*ParamError].
func Trim(ctx context.Context, c Counter, req TrimRequest) (*TrimResult, error) {
	o, err := req.options()
	if err != nil {
		return nil, err
	}
	t, err := newTrimmer(ctx, c, req.Messages, o)
	if err != nil {
		return nil, err
	}
	res := &TrimResult{OriginalTokens: t.total, MaxTokens: o.target}
	if t.total > o.target {
		if err := t.run(ctx); err != nil {
			return nil, err
		}
	}
	res.Messages = t.result()
	res.Truncated = t.placeholders > 0 || t.dropped > 0
	res.DroppedCount = t.dropped
	res.Placeholders = t.placeholders
	res.FinalTokens = ConversationTokens(c, res.Messages)
	if res.FinalTokens > o.target { // unreachable while costs are additive; the guard keeps the promise
		return nil, t.overflow(res.FinalTokens)
	}
	return res, nil
}

// trimmer holds one trim's working state: message costs, steps, units.
type trimmer struct {
	c     Counter
	msgs  []Message
	o     trimOptions
	cost  []int  // current cost of each message
	ctok  []int  // original content tokens of each message
	step  []int  // assistant step a message belongs to
	steps int    // number of assistant steps
	gone  []bool // dropped
	ph    []bool // replaced by a placeholder
	units []unit
	total int

	placeholders, dropped int
}

// unit is what pass 3 drops at once: one message, or an assistant tool
// call with all its tool results. turn is the newest turn of its messages.
type unit struct {
	members []int
	turn    int
	system  bool
}

func newTrimmer(ctx context.Context, c Counter, msgs []Message, o trimOptions) (*trimmer, error) {
	n := len(msgs)
	t := &trimmer{
		c: c, msgs: msgs, o: o,
		cost: make([]int, n), ctok: make([]int, n), step: make([]int, n),
		gone: make([]bool, n), ph: make([]bool, n),
		total: ListOverhead,
	}
	for i, m := range msgs {
		if err := checkCancel(ctx, i); err != nil {
			return nil, err
		}
		t.ctok[i] = ContentTokens(c, m.Content)
		t.cost[i] = MessageOverhead + t.ctok[i]
		for _, call := range m.ToolCalls {
			t.cost[i] += c.Count(call.Name) + c.Count(call.argumentsText()) + ToolCallOverhead
		}
		t.total += t.cost[i]
	}
	t.group()
	return t, nil
}

// group tags steps and builds the units and turns.
func (t *trimmer) group() {
	t.groupUnits()
	t.assignTurns()
}

// groupUnits tags each message with its assistant step and gathers the
// units: one message, or an assistant tool call with its results (matched
// by tool_call id, else the results right after the call).
func (t *trimmer) groupUnits() {
	callUnit := map[string]int{} // tool_call id → unit index
	stepOfUnit := map[int]int{}
	lastCaller := -1 // unit of the assistant call the current tool block answers
	for i, m := range t.msgs {
		calls := m.Role == RoleAssistant && len(m.ToolCalls) > 0
		if calls {
			t.steps++
		}
		t.step[i] = t.steps
		if m.Role == RoleTool {
			if u, ok := t.callerOf(m, callUnit, lastCaller); ok {
				t.units[u].members = append(t.units[u].members, i)
				t.step[i] = stepOfUnit[u]
				continue
			}
		}
		t.units = append(t.units, unit{members: []int{i}, system: m.IsSystem()})
		lastCaller = -1
		if calls {
			u := len(t.units) - 1
			lastCaller = u
			stepOfUnit[u] = t.steps
			for _, call := range m.ToolCalls {
				if call.ID != "" {
					callUnit[call.ID] = u
				}
			}
		}
	}
}

// callerOf finds the unit of the call a tool result answers: by its
// tool_call id, else the call the current block of results follows.
func (t *trimmer) callerOf(m Message, callUnit map[string]int, lastCaller int) (int, bool) {
	if m.ToolCallID != "" {
		if u, ok := callUnit[m.ToolCallID]; ok {
			return u, true
		}
	}
	return lastCaller, lastCaller >= 0
}

// assignTurns sets each unit's turn by position: a turn ends with an
// assistant message and the tool results right after it. A unit belongs to
// the newest turn any of its messages is in, so a late result keeps its
// call with it.
func (t *trimmer) assignTurns() {
	turn, open := 0, false
	posTurn := make([]int, len(t.msgs))
	for i, m := range t.msgs {
		if m.IsSystem() {
			continue
		}
		if open && m.Role != RoleTool {
			turn++
			open = false
		}
		posTurn[i] = turn
		if m.Role == RoleAssistant {
			open = true
		}
	}
	for k := range t.units {
		u := &t.units[k]
		for _, i := range u.members {
			u.turn = max(u.turn, posTurn[i])
		}
	}
}

func (t *trimmer) fits() bool { return t.total <= t.o.target }

// run applies the passes of [Trim] until the messages fit.
func (t *trimmer) run(ctx context.Context) error {
	if err := t.placeholdOld(ctx); err != nil {
		return err
	}
	if err := t.placeholdAll(ctx); err != nil || t.fits() {
		return err
	}
	t.dropOldest()
	if !t.fits() {
		return t.overflow(t.total)
	}
	return nil
}

// checkCancel checks ctx every 64 messages.
func checkCancel(ctx context.Context, i int) error {
	if i%64 != 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("conversation: trim: %w", err)
	}
	return nil
}

// placeholdOld is pass 1: tool outputs older than maxAge steps, except
// small ones and (with preserveErrors) errors.
func (t *trimmer) placeholdOld(ctx context.Context) error {
	for i, m := range t.msgs {
		if err := checkCancel(ctx, i); err != nil {
			return err
		}
		if m.Role != RoleTool || t.steps-t.step[i] <= t.o.maxAge || t.ctok[i] < t.o.smallThreshold {
			continue
		}
		if t.o.preserveErrors && looksLikeError(m.Content) {
			continue
		}
		t.placeholder(i)
	}
	return nil
}

// placeholdAll is pass 2: every remaining tool output, oldest first, until
// the messages fit.
func (t *trimmer) placeholdAll(ctx context.Context) error {
	for i, m := range t.msgs {
		if t.fits() {
			return nil
		}
		if err := checkCancel(ctx, i); err != nil {
			return err
		}
		if m.Role == RoleTool && !t.ph[i] {
			t.placeholder(i)
		}
	}
	return nil
}

// dropOldest is pass 3: drop the oldest units outside the preserved turns
// until the messages fit.
func (t *trimmer) dropOldest() {
	lastTurn := -1
	for _, u := range t.units {
		if !u.system {
			lastTurn = u.turn
		}
	}
	firstKept := lastTurn - t.o.preserveTurns + 1
	for _, u := range t.units {
		if t.fits() {
			return
		}
		if u.system || u.turn >= firstKept {
			continue
		}
		for _, i := range u.members {
			t.gone[i] = true
			t.total -= t.cost[i]
			t.dropped++
			if t.ph[i] {
				t.ph[i] = false
				t.placeholders--
			}
		}
	}
}

// placeholder replaces tool output i when the placeholder is cheaper.
func (t *trimmer) placeholder(i int) {
	if t.ph[i] {
		return
	}
	cost := MessageOverhead + t.c.Count(t.placeholderText(i))
	if cost >= t.cost[i] {
		return
	}
	t.total += cost - t.cost[i]
	t.cost[i] = cost
	t.ph[i] = true
	t.placeholders++
}

func (t *trimmer) placeholderText(i int) string {
	return fmt.Sprintf("[content truncated - %d steps ago, %d tokens]", t.steps-t.step[i], t.ctok[i])
}

func (t *trimmer) result() []Message {
	out := make([]Message, 0, len(t.msgs)-t.dropped)
	for i, m := range t.msgs {
		if t.gone[i] {
			continue
		}
		if t.ph[i] {
			m.Content = TextContent(t.placeholderText(i))
			if t.o.markers {
				m = m.WithExtra(MarkerTruncated, json.RawMessage("true"))
				m = m.WithExtra(MarkerOriginalTokens, json.RawMessage(strconv.Itoa(t.ctok[i])))
			}
		}
		out = append(out, m)
	}
	return out
}

// overflow builds the ACODE-CTX-003 error for a list that still costs
// current tokens.
func (t *trimmer) overflow(current int) *Error {
	system := 0
	for i, m := range t.msgs {
		if m.IsSystem() {
			system += t.cost[i]
		}
	}
	kept := current - system - ListOverhead
	msg := fmt.Sprintf("cannot fit the conversation in %d tokens (maxContextTokens %d − reservedOutputTokens %d): "+
		"after trimming it still needs %d tokens: %d in system messages, %d in the last %d turns (never dropped), %d for the list. "+
		"Shorten the system prompt, lower preserveRecentTurns, raise maxContextTokens or reserve less output, "+
		"or start a new session with a summary.",
		t.o.target, t.o.maxContext, t.o.reserved, current, system, kept, t.o.preserveTurns, ListOverhead)
	return &Error{
		Code:    errcode.Budget,
		Message: msg,
		Data: map[string]any{
			"code":          string(errcode.Budget),
			"currentTokens": current,
			"maxTokens":     t.o.target,
		},
	}
}

// errorWords are the markers of an error output (matched ignoring case).
var errorWords = []string{"error", "exception", "failed", "fatal", "cannot", "unable to"}

// looksLikeError reports whether content contains an error marker.
func looksLikeError(c Content) bool {
	if c.kind == contentParts {
		for _, p := range c.parts {
			if p.Type == "text" && containsErrorWord(p.Text) {
				return true
			}
		}
		return false
	}
	return containsErrorWord(c.text)
}

func containsErrorWord(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i] | 0x20 // ASCII lower case (harmless for other bytes: no marker starts with them)
		if b != 'e' && b != 'f' && b != 'c' && b != 'u' {
			continue
		}
		for _, w := range errorWords {
			if w[0] == b && hasPrefixFold(s[i:], w) {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with the lower-case ASCII word w,
// ignoring ASCII case.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		b := s[j]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != w[j] {
			return false
		}
	}
	return true
}
