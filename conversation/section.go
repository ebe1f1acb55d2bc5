package conversation

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Section names of acode/sectionBudget, in display order.
const (
	SectionSystemPrompt        = "systemPrompt"
	SectionGoal                = "goal"
	SectionMemory              = "memory"
	SectionWorkingState        = "workingState"
	SectionConversationSummary = "conversationSummary"
	SectionRetrievedContext    = "retrievedContext"
	SectionRecentMessages      = "recentMessages"
	SectionScaffoldingReminder = "scaffoldingReminder"
)

// Sections lists the section names in display order.
var Sections = []string{
	SectionSystemPrompt, SectionGoal, SectionMemory, SectionWorkingState,
	SectionConversationSummary, SectionRetrievedContext, SectionRecentMessages,
	SectionScaffoldingReminder,
}

// DefaultSafety is the share of the context window a section budget
// allocates; the rest is a buffer for estimation error and the response.
const DefaultSafety = 0.8

// Budget levels, as in acode/budget (computed by budget.Level).
const (
	LevelNormal   = budget.LevelNormal
	LevelWarning  = budget.LevelWarning
	LevelCritical = budget.LevelCritical
)

// FallbackContextLimit is the window assumed for a model without a known
// context window (seed 002's default), with a warning.
const FallbackContextLimit = 32000

// DefaultRatios returns the default share of each section (they sum to 1).
func DefaultRatios() map[string]float64 {
	return map[string]float64{
		SectionSystemPrompt:        0.15,
		SectionGoal:                0.05,
		SectionMemory:              0.10,
		SectionWorkingState:        0.05,
		SectionConversationSummary: 0.15,
		SectionRetrievedContext:    0.10,
		SectionRecentMessages:      0.35,
		SectionScaffoldingReminder: 0.05,
	}
}

// SectionBudgetRequest is the params object of acode/sectionBudget.
// ContextLimit may be left 0 when Model names a model; a model without a
// known window gets [FallbackContextLimit] and a warning. Preset picks the
// sections and their default ratios and safety ([PresetDefault],
// [PresetTiers], [PresetCompressor]). Ratios override the preset's
// section by section (a section not named keeps its ratio); each must be
// in [0,1] and together they must sum to at most 1. Safety defaults to the
// preset's ([DefaultSafety] for the default preset) and must be in (0,1].
// Thresholds (optional, field by field) move the levels. SessionID ties
// the request to a session of a [Sessions] store (see
// [Sessions.SectionBudget]); SectionBudget itself ignores it.
type SectionBudgetRequest struct {
	ContextLimit int                `json:"contextLimit"`
	Safety       *float64           `json:"safety,omitempty"`
	Ratios       map[string]float64 `json:"ratios,omitempty"`
	Used         map[string]int     `json:"used,omitempty"`
	Model        string             `json:"model,omitempty"`
	Preset       string             `json:"preset,omitempty"`
	Thresholds   *ThresholdParams   `json:"thresholds,omitempty"`
	SessionID    string             `json:"sessionId,omitempty"`

	// Limits resolves Model when ContextLimit is 0; nil means
	// [DefaultContextLimits]. The server sets it from its configuration.
	Limits ContextLimits `json:"-"`
	// BaseThresholds are the thresholds a request's own override; the zero
	// value means budget.DefaultThresholds. The server sets them from
	// context.budget.warnings.
	BaseThresholds budget.Thresholds `json:"-"`
}

// ContextBudget holds the sections of the default (and compressor) preset
// as fields, the shape of the seeds' ContextBudget.
type ContextBudget struct {
	SystemPrompt        int `json:"systemPrompt"`
	Goal                int `json:"goal"`
	Memory              int `json:"memory"`
	WorkingState        int `json:"workingState"`
	ConversationSummary int `json:"conversationSummary"`
	RetrievedContext    int `json:"retrievedContext"`
	RecentMessages      int `json:"recentMessages"`
	ScaffoldingReminder int `json:"scaffoldingReminder"`
}

// SectionBudgetResult is the result of acode/sectionBudget. Total is
// floor(contextLimit·safety); each section gets floor(total·ratio), so the
// sections never sum to more than Total. The per-section numbers are in
// the Sections map and, for the default and compressor presets, also as
// top-level fields (the embedded [ContextBudget], nil and absent from the
// JSON under the tiers preset). Available, Remaining, Percent and Level
// describe Used; Available is never negative (an overrun is reported in
// Warnings). Hints say what a tool call may return with what is left of
// the section tool results go to.
type SectionBudgetResult struct {
	Model        string  `json:"model,omitempty"`
	ContextLimit int     `json:"contextLimit"`
	Safety       float64 `json:"safety"`
	Total        int     `json:"total"`

	*ContextBudget

	Preset              string             `json:"preset"`
	ContextLimitAssumed bool               `json:"contextLimitAssumed,omitempty"`
	Sections            map[string]int     `json:"sections"`
	Ratios              map[string]float64 `json:"ratios"`
	Used                map[string]int     `json:"used"`
	UsedTotal           int                `json:"usedTotal"`
	Available           map[string]int     `json:"available"`
	Remaining           int                `json:"remaining"`
	Percent             float64            `json:"percent"`
	Level               string             `json:"level"`
	Thresholds          budget.Thresholds  `json:"thresholds"`
	Hints               ToolHints          `json:"hints"`
	SessionID           string             `json:"sessionId,omitempty"`
	Warnings            []string           `json:"warnings"`
}

// SectionBudget computes acode/sectionBudget. Asking again with another
// contextLimit gives the same budget rescaled proportionally, which is how
// a client switches models (see also [Rescale]).
func SectionBudget(req SectionBudgetRequest) (*SectionBudgetResult, error) {
	p, err := lookupPreset(req.Preset)
	if err != nil {
		return nil, err
	}
	limit, assumed, warnings, err := contextLimit(req)
	if err != nil {
		return nil, err
	}
	safety, err := safetyOf(p, req.Safety)
	if err != nil {
		return nil, err
	}
	ratios, err := mergeRatios(p, req.Ratios)
	if err != nil {
		return nil, err
	}
	if err := checkUsed(p, ratios, req.Used); err != nil {
		return nil, err
	}
	th, err := resolveThresholds(req.Thresholds, req.BaseThresholds)
	if err != nil {
		return nil, err
	}

	total := floorTokens(float64(limit) * safety)
	res := &SectionBudgetResult{
		Model:               req.Model,
		ContextLimit:        limit,
		Safety:              safety,
		Total:               total,
		Preset:              p.name,
		ContextLimitAssumed: assumed,
		Sections:            make(map[string]int, len(p.sections)),
		Ratios:              ratios,
		Used:                map[string]int{},
		Available:           make(map[string]int, len(p.sections)),
		Thresholds:          th,
		SessionID:           req.SessionID,
		Warnings:            append([]string{}, warnings...),
	}
	res.allocate(p.sections, req.Used)
	if p.sections[0] == SectionSystemPrompt {
		res.ContextBudget = contextBudgetOf(res.Sections)
	}
	res.Remaining = max(total-res.UsedTotal, 0)
	if total > 0 {
		// Floored, so the percent never reads 80.0 while the level is normal.
		res.Percent = float64(floorTokens(float64(res.UsedTotal)*1000/float64(total))) / 10
	}
	res.Level = budget.Level(res.UsedTotal, total, th)
	if w := levelWarning(res.Level, res.UsedTotal, total, res.Percent, th, fmt.Sprintf("the %d-token budget", total)); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	res.Hints = Hints(min(res.Available[p.tools], res.Remaining), DefaultToolTokens, p.tools)
	return res, nil
}

// contextLimit is the request's context window: contextLimit, else the
// model's from the limit table, else [FallbackContextLimit] with a warning
// (assumed).
func contextLimit(req SectionBudgetRequest) (limit int, assumed bool, warnings []string, err error) {
	limit = req.ContextLimit
	switch {
	case limit < 0:
		return 0, false, nil, paramErrorf("contextLimit", "must be positive, got %d", limit)
	case limit == 0 && req.Model == "":
		return 0, false, nil, paramErrorf("contextLimit", "is required (or name a known model in \"model\")")
	case limit > 0:
		return limit, false, nil, nil
	}
	if l, ok := req.Limits.Lookup(req.Model); ok {
		return l, false, nil, nil
	}
	return FallbackContextLimit, true, []string{fmt.Sprintf(
		"model %q has no known context window: assuming %d tokens; pass contextLimit (or add the model to the context-limit table) for the real one",
		req.Model, FallbackContextLimit)}, nil
}

// safetyOf is the request's safety factor, else the preset's.
func safetyOf(p preset, safety *float64) (float64, error) {
	if safety == nil {
		return p.safety, nil
	}
	if s := *safety; math.IsNaN(s) || s <= 0 || s > 1 {
		return 0, paramErrorf("safety", "must be in (0,1], got %g (0.8 keeps a 20%% buffer)", s)
	}
	return *safety, nil
}

// checkUsed refuses a used count for a section the preset does not have,
// or a negative one.
func checkUsed(p preset, ratios map[string]float64, used map[string]int) error {
	for _, name := range sortedKeys(used) {
		if _, ok := ratios[name]; !ok {
			return paramErrorf("used."+name, "unknown section of preset %s; sections are %s", p.name, strings.Join(p.sections, ", "))
		}
		if used[name] < 0 {
			return paramErrorf("used."+name, "must not be negative, got %d", used[name])
		}
	}
	return nil
}

// allocate gives each section its share of res.Total, records what it
// uses and what is left, and warns of a section over its allocation.
func (res *SectionBudgetResult) allocate(sections []string, used map[string]int) {
	for _, name := range sections {
		alloc := floorTokens(float64(res.Total) * res.Ratios[name])
		res.Sections[name] = alloc
		u := used[name]
		res.Used[name] = u
		res.UsedTotal += u
		res.Available[name] = max(alloc-u, 0)
		if u > alloc {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"%s uses %d tokens, %d over its allocation of %d: compress it or raise ratios.%s",
				name, u, u-alloc, alloc, name))
		}
	}
}

// contextBudgetOf is the eight-section preset's allocation as a struct.
func contextBudgetOf(sections map[string]int) *ContextBudget {
	return &ContextBudget{
		SystemPrompt:        sections[SectionSystemPrompt],
		Goal:                sections[SectionGoal],
		Memory:              sections[SectionMemory],
		WorkingState:        sections[SectionWorkingState],
		ConversationSummary: sections[SectionConversationSummary],
		RetrievedContext:    sections[SectionRetrievedContext],
		RecentMessages:      sections[SectionRecentMessages],
		ScaffoldingReminder: sections[SectionScaffoldingReminder],
	}
}

// Rescale returns old's budget for a new context window, as when a client
// switches models: the same preset, safety and ratios over the new total,
// so every section scales proportionally (6,400 → 25,600 multiplies each
// by 4). Used tokens and thresholds are kept; Available, Percent, Level,
// Hints and Warnings are recomputed.
func Rescale(old *SectionBudgetResult, newContextLimit int) (*SectionBudgetResult, error) {
	if newContextLimit <= 0 {
		return nil, paramErrorf("contextLimit", "must be positive, got %d", newContextLimit)
	}
	th := old.Thresholds
	req := SectionBudgetRequest{
		ContextLimit:   newContextLimit,
		Safety:         &old.Safety,
		Ratios:         old.Ratios,
		Used:           old.Used,
		Model:          old.Model,
		Preset:         old.Preset,
		SessionID:      old.SessionID,
		BaseThresholds: th,
	}
	return SectionBudget(req)
}

// mergeRatios overlays custom ratios on the preset's and validates them.
func mergeRatios(p preset, custom map[string]float64) (map[string]float64, error) {
	ratios := p.ratios
	for _, name := range sortedKeys(custom) {
		r := custom[name]
		if _, ok := ratios[name]; !ok {
			return nil, paramErrorf("ratios."+name, "unknown section of preset %s; sections are %s", p.name, strings.Join(p.sections, ", "))
		}
		if math.IsNaN(r) || r < 0 || r > 1 {
			return nil, paramErrorf("ratios."+name, "must be in [0,1], got %g", r)
		}
		ratios[name] = r
	}
	sum := 0.0
	for _, r := range ratios {
		sum += r
	}
	if sum > 1+1e-9 {
		parts := make([]string, 0, len(p.sections))
		for _, name := range p.sections {
			parts = append(parts, fmt.Sprintf("%s %g", name, ratios[name]))
		}
		return nil, paramErrorf("ratios", "sum to %.4g, more than 1 (%s; sections not given keep their default): lower some ratios so the total is at most 1",
			sum, strings.Join(parts, ", "))
	}
	return ratios, nil
}

// floorTokens floors a token amount computed in floating point, absorbing
// representation error (0.29·100 is 28.999999999999996 in float64).
func floorTokens(x float64) int {
	return int(math.Floor(x + 1e-6))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
