package conversation

import (
	"sort"
	"strings"
)

// Presets of acode/sectionBudget ("preset" param).
const (
	// PresetDefault is seed 002's ContextBudget: eight sections over 80 %
	// of the window. "" means the same.
	PresetDefault = "default"
	// PresetTiers is seed 004's budget tiers: system 8K, history 12K, tool
	// results 40K, user message 10K, response 30K of a 100K target — 50 %
	// of a 200K window. The tiers scale with the window (the same shares
	// of floor(contextLimit·safety)).
	PresetTiers = "tiers"
	// PresetCompressor is seed 002's SmartCompressor: a target of 50 % of
	// the window of which memory gets 20 %, so memory is exactly
	// floor(0.2·floor(0.5·limit)); recent messages give up the extra 10 %
	// (35 % → 25 %), the other sections keep their default shares.
	PresetCompressor = "compressor"
)

// Section names of the tiers preset, in display order.
const (
	TierSystem      = "system"
	TierHistory     = "history"
	TierToolResults = "toolResults"
	TierUserMessage = "userMessage"
	TierResponse    = "response"
)

// preset is a named set of sections, their default ratios and safety, and
// which section holds tool results and the work history (for hints and
// session tracking).
type preset struct {
	name     string
	sections []string
	ratios   map[string]float64
	safety   float64
	tools    string // the section tool results go to
	history  string // the section history entries go to
}

var presets = map[string]preset{
	PresetDefault: {
		name: PresetDefault, sections: Sections, ratios: DefaultRatios(), safety: DefaultSafety,
		tools: SectionRetrievedContext, history: SectionConversationSummary,
	},
	PresetTiers: {
		name:     PresetTiers,
		sections: []string{TierSystem, TierHistory, TierToolResults, TierUserMessage, TierResponse},
		ratios: map[string]float64{
			TierSystem: 0.08, TierHistory: 0.12, TierToolResults: 0.40, TierUserMessage: 0.10, TierResponse: 0.30,
		},
		safety: 0.5, tools: TierToolResults, history: TierHistory,
	},
	PresetCompressor: {
		name: PresetCompressor, sections: Sections, ratios: compressorRatios(), safety: 0.5,
		tools: SectionRetrievedContext, history: SectionConversationSummary,
	},
}

func compressorRatios() map[string]float64 {
	r := DefaultRatios()
	r[SectionMemory] = 0.20
	r[SectionRecentMessages] = 0.25
	return r
}

// Presets lists the preset names.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for name := range presets {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// lookupPreset resolves a preset name ("" is the default).
func lookupPreset(name string) (preset, error) {
	if name == "" {
		name = PresetDefault
	}
	p, ok := presets[name]
	if !ok {
		return preset{}, paramErrorf("preset", "unknown preset %q; presets are %s", name, strings.Join(Presets(), ", "))
	}
	r := make(map[string]float64, len(p.ratios))
	for k, v := range p.ratios {
		r[k] = v
	}
	p.ratios = r
	return p, nil
}
