package conversation

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
)

// TestPresetTiers: seed 004's tiers are exact at a 200K window (total
// 100,000) and scale with the window.
func TestPresetTiers(t *testing.T) {
	tests := []struct {
		name string
		req  SectionBudgetRequest
		want map[string]int
	}{
		{"Claude 200K: the seed's numbers", SectionBudgetRequest{Model: "claude-sonnet-4-5", Preset: PresetTiers},
			map[string]int{"system": 8000, "history": 12000, "toolResults": 40000, "userMessage": 10000, "response": 30000}},
		{"contextLimit 200000", SectionBudgetRequest{ContextLimit: 200000, Preset: PresetTiers},
			map[string]int{"system": 8000, "history": 12000, "toolResults": 40000, "userMessage": 10000, "response": 30000}},
		{"gpt-4o 128K scales", SectionBudgetRequest{Model: "gpt-4o", Preset: PresetTiers},
			map[string]int{"system": 5120, "history": 7680, "toolResults": 25600, "userMessage": 6400, "response": 19200}},
		{"safety 1 of 100K: the tiers as tokens", SectionBudgetRequest{ContextLimit: 100000, Safety: ptr(1.0), Preset: PresetTiers},
			map[string]int{"system": 8000, "history": 12000, "toolResults": 40000, "userMessage": 10000, "response": 30000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := SectionBudget(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Sections); diff != "" {
				t.Errorf("sections (-want +got):\n%s", diff)
			}
			if res.Preset != PresetTiers || res.ContextBudget != nil || res.Hints.Section != TierToolResults {
				t.Errorf("preset %q, ContextBudget %v, hints section %q", res.Preset, res.ContextBudget, res.Hints.Section)
			}
			raw, _ := json.Marshal(res)
			if strings.Contains(string(raw), `"systemPrompt"`) || !strings.Contains(string(raw), `"toolResults"`) {
				t.Errorf("JSON carries the default sections' fields: %s", raw)
			}
		})
	}
}

// TestPresetCompressorMemoryFormula: seed 002's SmartCompressor memory,
// floor(0.2·floor(0.5·limit)), is the compressor preset's memory section
// for every window.
func TestPresetCompressorMemoryFormula(t *testing.T) {
	limits := []int{1, 2, 9, 10, 11, 4097, 8000, 8192, 16385, 32000, 32768, 100000, 128000, 200000, 400000, 1047576, 2097152}
	for l := 12345; l < 2000000; l += 99991 {
		limits = append(limits, l)
	}
	for _, limit := range limits {
		res, err := SectionBudget(SectionBudgetRequest{ContextLimit: limit, Preset: PresetCompressor})
		if err != nil {
			t.Fatal(err)
		}
		want := (limit / 2) * 2 / 10 // floor(0.2·floor(0.5·limit)) in integers
		if res.Memory != want || res.Sections[SectionMemory] != want || res.Total != limit/2 {
			t.Errorf("limit %d: memory %d (total %d), want %d (total %d)", limit, res.Memory, res.Total, want, limit/2)
		}
		sum := 0
		for _, v := range res.Sections {
			sum += v
		}
		if sum > res.Total {
			t.Errorf("limit %d: sections sum to %d > total %d", limit, sum, res.Total)
		}
	}
}

// TestSectionBudgetUnknownModel: a model without a known window gets
// 32,000 tokens and a warning, not an error.
func TestSectionBudgetUnknownModel(t *testing.T) {
	res, err := SectionBudget(SectionBudgetRequest{Model: "my-local-model"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ContextLimit != FallbackContextLimit || !res.ContextLimitAssumed || res.Total != 25600 || res.RecentMessages != 8960 {
		t.Errorf("limit %d assumed %v total %d recentMessages %d", res.ContextLimit, res.ContextLimitAssumed, res.Total, res.RecentMessages)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `"my-local-model" has no known context window: assuming 32000 tokens`) {
		t.Errorf("warnings %q", res.Warnings)
	}
	known, err := SectionBudget(SectionBudgetRequest{Model: "gpt-4o"})
	if err != nil || known.ContextLimitAssumed || len(known.Warnings) != 0 {
		t.Errorf("known model: %+v, %v", known, err)
	}
}

// TestSectionBudgetThresholds: the levels follow the request's thresholds
// over the server's (BaseThresholds) over the defaults.
func TestSectionBudgetThresholds(t *testing.T) {
	tests := []struct {
		name    string
		limit   int
		used    int // recentMessages
		base    budget.Thresholds
		th      *ThresholdParams
		level   string
		warning string
	}{
		{"default: 50 percent", 128000, 51200, budget.Thresholds{}, nil, LevelNormal, ""},
		{"request: warning from 50 percent", 128000, 51200, budget.Thresholds{}, &ThresholdParams{WarningPercent: ptr(50.0)}, LevelWarning, "50.0% of the 102400-token budget used"},
		{"base: critical from 40 percent", 128000, 51200, budget.Thresholds{WarningPercent: 30, CriticalPercent: 40, MinRemainingTokens: 0}, nil, LevelCritical, "compress the conversation now"},
		{"request overrides one base field", 128000, 51200, budget.Thresholds{WarningPercent: 30, CriticalPercent: 40}, &ThresholdParams{CriticalPercent: ptr(95.0)}, LevelWarning, "consider compressing"},
		// 102,400 total, 83,000 used: 81 percent and 19,400 left.
		{"default at 81 percent", 128000, 83000, budget.Thresholds{}, nil, LevelWarning, "81.0%"},
		// 25,600 total (32K): 5,601 used leaves 19,999 < 20,000.
		{"absolute rule at 32K", 32000, 5601, budget.Thresholds{}, nil, LevelWarning, "fewer than 20000 tokens remaining (19999 of the 25600-token budget)"},
		{"absolute rule at 32K, exactly 20,000 left", 32000, 5600, budget.Thresholds{}, nil, LevelNormal, ""},
		{"absolute rule off per request", 32000, 5601, budget.Thresholds{}, &ThresholdParams{MinRemainingTokens: ptr(0)}, LevelNormal, ""},
		{"absolute rule off under 20,000 (8K)", 8000, 100, budget.Thresholds{}, nil, LevelNormal, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := SectionBudget(SectionBudgetRequest{ContextLimit: tt.limit, Ratios: map[string]float64{
				SectionRecentMessages: 1, SectionSystemPrompt: 0, SectionGoal: 0, SectionMemory: 0, SectionWorkingState: 0,
				SectionConversationSummary: 0, SectionRetrievedContext: 0, SectionScaffoldingReminder: 0,
			}, Used: map[string]int{SectionRecentMessages: tt.used}, Thresholds: tt.th, BaseThresholds: tt.base})
			if err != nil {
				t.Fatal(err)
			}
			if res.Level != tt.level {
				t.Errorf("level %s, want %s (thresholds %+v)", res.Level, tt.level, res.Thresholds)
			}
			joined := strings.Join(res.Warnings, "\n")
			if tt.warning == "" && len(res.Warnings) != 0 || !strings.Contains(joined, tt.warning) {
				t.Errorf("warnings %q, want %q", res.Warnings, tt.warning)
			}
		})
	}
}

// TestSectionBudgetHints: the hints come from what is left of the section
// tool results go to, capped at the per-tool default.
func TestSectionBudgetHints(t *testing.T) {
	tests := []struct {
		name      string
		req       SectionBudgetRequest
		maxTokens int
		remaining int
		files     int
		text      string
	}{
		// 102,400 · 10 % = 10,240 for retrievedContext: the default 8,000 caps it.
		{"gpt-4o, nothing used", SectionBudgetRequest{Model: "gpt-4o"}, 8000, 10240, 200, "budget allows ~200 files"},
		{"gpt-4o, 6,240 used", SectionBudgetRequest{Model: "gpt-4o", Used: map[string]int{SectionRetrievedContext: 6240}}, 4000, 4000, 100, "budget allows ~100 files"},
		{"tool section full", SectionBudgetRequest{Model: "gpt-4o", Used: map[string]int{SectionRetrievedContext: 20000}}, 0, 0, 0, "budget allows ~0 files"},
		// The whole budget caps the section: 102,400 − 100,000 = 2,400 left.
		{"budget nearly spent elsewhere", SectionBudgetRequest{Model: "gpt-4o", Used: map[string]int{SectionRecentMessages: 100000}}, 2400, 2400, 60, "budget allows ~60 files"},
		{"tiers at 200K", SectionBudgetRequest{Model: "o3", Preset: PresetTiers, Used: map[string]int{TierToolResults: 36000}}, 4000, 4000, 100, "budget allows ~100 files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := SectionBudget(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			h := res.Hints
			if h.MaxTokens != tt.maxTokens || h.Remaining != tt.remaining || h.Tools[ToolProjectFiles].Items != tt.files || h.Tools[ToolProjectFiles].Text != tt.text {
				t.Errorf("hints %+v", h)
			}
		})
	}
}

func TestHintsText(t *testing.T) {
	h := Hints(20000, 0, SectionRetrievedContext)
	want := "Budget allows ~8,000 tokens per tool call (20,000 tokens left for tool results): ~200 files, ~57 search matches, ~800 lines of a file, ~32 diff hunks, ~133 commits."
	if h.Text != want {
		t.Errorf("text\n%s\nwant\n%s", h.Text, want)
	}
	if got := h.Tools[ToolSearchContent].Text; got != "~8,000 tokens of search results (~57 matches)" {
		t.Errorf("search hint %q", got)
	}
	if h := Hints(-5, 0, ""); h.MaxTokens != 0 || h.Remaining != 0 || !strings.Contains(h.Text, "No budget left") {
		t.Errorf("no budget: %+v", h)
	}
	if h := Hints(50, 0, ""); h.Tools[ToolProjectFiles].Text != "budget allows ~1 file" || h.Tools[ToolSearchContent].Text != "~50 tokens of search results (~0 matches)" {
		t.Errorf("singular: %+v", h.Tools)
	}
	if h := Hints(20000, 1638, ""); h.MaxTokens != 1638 {
		t.Errorf("per-call cap: %+v", h)
	}
	if got := thousands(-1234567); got != "-1,234,567" {
		t.Errorf("thousands = %s", got)
	}
}
