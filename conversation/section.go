package conversation

import (
	"fmt"
	"math"
	"sort"
	"strings"
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

// Budget levels, as in acode/budget.
const (
	LevelNormal   = "normal"   // under 80 % of the total used
	LevelWarning  = "warning"  // 80 % to 90 % inclusive
	LevelCritical = "critical" // over 90 %
)

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
// ContextLimit may be left 0 when Model names a model of the context-limit
// table. Ratios override the defaults section by section (a section not
// named keeps its default ratio); each must be in [0,1] and together they
// must sum to at most 1. Safety defaults to [DefaultSafety] and must be in
// (0,1].
type SectionBudgetRequest struct {
	ContextLimit int                `json:"contextLimit"`
	Safety       *float64           `json:"safety,omitempty"`
	Ratios       map[string]float64 `json:"ratios,omitempty"`
	Used         map[string]int     `json:"used,omitempty"`
	Model        string             `json:"model,omitempty"`

	// Limits resolves Model when ContextLimit is 0; nil means
	// [DefaultContextLimits]. The server sets it from its configuration.
	Limits ContextLimits `json:"-"`
}

// SectionBudgetResult is the result of acode/sectionBudget. Total is
// floor(contextLimit·safety); each section gets floor(total·ratio), so the
// sections never sum to more than Total. The per-section numbers appear
// both as top-level fields (the shape of the seeds' ContextBudget) and in
// the Sections map. Available, Percent and Level describe Used; Available
// is never negative (an overrun is reported in Warnings).
type SectionBudgetResult struct {
	Model        string  `json:"model,omitempty"`
	ContextLimit int     `json:"contextLimit"`
	Safety       float64 `json:"safety"`
	Total        int     `json:"total"`

	SystemPrompt        int `json:"systemPrompt"`
	Goal                int `json:"goal"`
	Memory              int `json:"memory"`
	WorkingState        int `json:"workingState"`
	ConversationSummary int `json:"conversationSummary"`
	RetrievedContext    int `json:"retrievedContext"`
	RecentMessages      int `json:"recentMessages"`
	ScaffoldingReminder int `json:"scaffoldingReminder"`

	Sections  map[string]int     `json:"sections"`
	Ratios    map[string]float64 `json:"ratios"`
	Used      map[string]int     `json:"used"`
	UsedTotal int                `json:"usedTotal"`
	Available map[string]int     `json:"available"`
	Percent   float64            `json:"percent"`
	Level     string             `json:"level"`
	Warnings  []string           `json:"warnings"`
}

// SectionBudget computes acode/sectionBudget. Asking again with another
// contextLimit gives the same budget rescaled proportionally, which is how
// a client switches models (see also [Rescale]).
func SectionBudget(req SectionBudgetRequest) (*SectionBudgetResult, error) {
	limit := req.ContextLimit
	switch {
	case limit < 0:
		return nil, paramErrorf("contextLimit", "must be positive, got %d", limit)
	case limit == 0 && req.Model == "":
		return nil, paramErrorf("contextLimit", "is required (or name a known model in \"model\")")
	case limit == 0:
		l, ok := req.Limits.Lookup(req.Model)
		if !ok {
			return nil, paramErrorf("contextLimit", "is required: model %q has no known context limit", req.Model)
		}
		limit = l
	}
	safety := DefaultSafety
	if req.Safety != nil {
		safety = *req.Safety
		if math.IsNaN(safety) || safety <= 0 || safety > 1 {
			return nil, paramErrorf("safety", "must be in (0,1], got %g (0.8 keeps a 20%% buffer)", safety)
		}
	}
	ratios, err := mergeRatios(req.Ratios)
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(req.Used) {
		if _, ok := ratios[name]; !ok {
			return nil, paramErrorf("used."+name, "unknown section; sections are %s", strings.Join(Sections, ", "))
		}
		if req.Used[name] < 0 {
			return nil, paramErrorf("used."+name, "must not be negative, got %d", req.Used[name])
		}
	}

	total := floorTokens(float64(limit) * safety)
	res := &SectionBudgetResult{
		Model:        req.Model,
		ContextLimit: limit,
		Safety:       safety,
		Total:        total,
		Sections:     make(map[string]int, len(Sections)),
		Ratios:       ratios,
		Used:         map[string]int{},
		Available:    make(map[string]int, len(Sections)),
		Warnings:     []string{},
	}
	for _, name := range Sections {
		alloc := floorTokens(float64(total) * ratios[name])
		res.Sections[name] = alloc
		used := req.Used[name]
		res.Used[name] = used
		res.UsedTotal += used
		res.Available[name] = max(alloc-used, 0)
		if used > alloc {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"%s uses %d tokens, %d over its allocation of %d: compress it or raise ratios.%s",
				name, used, used-alloc, alloc, name))
		}
	}
	res.SystemPrompt = res.Sections[SectionSystemPrompt]
	res.Goal = res.Sections[SectionGoal]
	res.Memory = res.Sections[SectionMemory]
	res.WorkingState = res.Sections[SectionWorkingState]
	res.ConversationSummary = res.Sections[SectionConversationSummary]
	res.RetrievedContext = res.Sections[SectionRetrievedContext]
	res.RecentMessages = res.Sections[SectionRecentMessages]
	res.ScaffoldingReminder = res.Sections[SectionScaffoldingReminder]

	if total > 0 {
		// Floored, so the percent never reads 80.0 while the level is normal.
		res.Percent = float64(floorTokens(float64(res.UsedTotal)*1000/float64(total))) / 10
	}
	res.Level = Level(res.UsedTotal, total)
	switch res.Level {
	case LevelWarning:
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%.1f%% of the %d-token budget used, %d tokens remaining: consider compressing the conversation",
			res.Percent, total, max(total-res.UsedTotal, 0)))
	case LevelCritical:
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%.1f%% of the %d-token budget used, %d tokens remaining: compress the conversation now (acode/trimConversation)",
			res.Percent, total, max(total-res.UsedTotal, 0)))
	}
	return res, nil
}

// Level classifies used tokens against a total: [LevelNormal] under 80 %,
// [LevelWarning] from 80 % to 90 % inclusive, [LevelCritical] above 90 %
// (or any use of an empty total).
func Level(used, total int) string {
	switch {
	case total <= 0 && used > 0:
		return LevelCritical
	case total <= 0, used*10 < total*8:
		return LevelNormal
	case used*10 <= total*9:
		return LevelWarning
	default:
		return LevelCritical
	}
}

// Rescale returns old's budget for a new context window, as when a client
// switches models: the same safety and ratios over the new total, so every
// section scales proportionally (6,400 → 25,600 multiplies each by 4). Used
// tokens are kept; Available, Percent, Level and Warnings are recomputed.
func Rescale(old *SectionBudgetResult, newContextLimit int) (*SectionBudgetResult, error) {
	if newContextLimit <= 0 {
		return nil, paramErrorf("contextLimit", "must be positive, got %d", newContextLimit)
	}
	req := SectionBudgetRequest{
		ContextLimit: newContextLimit,
		Safety:       &old.Safety,
		Ratios:       old.Ratios,
		Used:         old.Used,
		Model:        old.Model,
	}
	return SectionBudget(req)
}

// mergeRatios overlays custom ratios on the defaults and validates them.
func mergeRatios(custom map[string]float64) (map[string]float64, error) {
	ratios := DefaultRatios()
	for _, name := range sortedKeys(custom) {
		r := custom[name]
		if _, ok := ratios[name]; !ok {
			return nil, paramErrorf("ratios."+name, "unknown section; sections are %s", strings.Join(Sections, ", "))
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
		parts := make([]string, 0, len(Sections))
		for _, name := range Sections {
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
