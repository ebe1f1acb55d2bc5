package conversation

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

func TestSectionBudgetAllocations(t *testing.T) {
	tests := []struct {
		name string
		req  SectionBudgetRequest
		want map[string]int
		tot  int
	}{
		{
			// The seeds' 8K table: 6,400 tokens.
			name: "8K default ratios",
			req:  SectionBudgetRequest{ContextLimit: 8000},
			tot:  6400,
			want: map[string]int{"systemPrompt": 960, "goal": 320, "memory": 640, "workingState": 320,
				"conversationSummary": 960, "retrievedContext": 640, "recentMessages": 2240, "scaffoldingReminder": 320},
		},
		{
			name: "32K default ratios",
			req:  SectionBudgetRequest{ContextLimit: 32000},
			tot:  25600,
			want: map[string]int{"systemPrompt": 3840, "goal": 1280, "memory": 2560, "workingState": 1280,
				"conversationSummary": 3840, "retrievedContext": 2560, "recentMessages": 8960, "scaffoldingReminder": 1280},
		},
		{
			name: "128K default ratios",
			req:  SectionBudgetRequest{ContextLimit: 128000},
			tot:  102400,
			want: map[string]int{"systemPrompt": 15360, "goal": 5120, "memory": 10240, "workingState": 5120,
				"conversationSummary": 15360, "retrievedContext": 10240, "recentMessages": 35840, "scaffoldingReminder": 5120},
		},
		{
			// The seeds' comparison table: gpt-3.5-turbo at 4096 → 3276 / 327 / 1146.
			name: "4096 floors every section",
			req:  SectionBudgetRequest{ContextLimit: 4096},
			tot:  3276,
			want: map[string]int{"systemPrompt": 491, "goal": 163, "memory": 327, "workingState": 163,
				"conversationSummary": 491, "retrievedContext": 327, "recentMessages": 1146, "scaffoldingReminder": 163},
		},
		{
			name: "200K model from the table",
			req:  SectionBudgetRequest{Model: "claude-3-opus-20240229"},
			tot:  160000,
			want: map[string]int{"systemPrompt": 24000, "goal": 8000, "memory": 16000, "workingState": 8000,
				"conversationSummary": 24000, "retrievedContext": 16000, "recentMessages": 56000, "scaffoldingReminder": 8000},
		},
		{
			// The seeds' CODE_FOCUSED_RATIOS: recentMessages 2,880 of 6,400.
			name: "custom full ratios",
			req: SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{
				"systemPrompt": 0.10, "goal": 0.05, "memory": 0.05, "workingState": 0.10,
				"conversationSummary": 0.10, "retrievedContext": 0.10, "recentMessages": 0.45, "scaffoldingReminder": 0.05}},
			tot: 6400,
			want: map[string]int{"systemPrompt": 640, "goal": 320, "memory": 320, "workingState": 640,
				"conversationSummary": 640, "retrievedContext": 640, "recentMessages": 2880, "scaffoldingReminder": 320},
		},
		{
			name: "partial ratios keep the other defaults",
			req:  SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{"memory": 0.15, "conversationSummary": 0.10}},
			tot:  6400,
			want: map[string]int{"systemPrompt": 960, "goal": 320, "memory": 960, "workingState": 320,
				"conversationSummary": 640, "retrievedContext": 640, "recentMessages": 2240, "scaffoldingReminder": 320},
		},
		{
			name: "safety 0.7",
			req:  SectionBudgetRequest{ContextLimit: 100000, Safety: ptr(0.7)},
			tot:  70000,
			want: map[string]int{"systemPrompt": 10500, "goal": 3500, "memory": 7000, "workingState": 3500,
				"conversationSummary": 10500, "retrievedContext": 7000, "recentMessages": 24500, "scaffoldingReminder": 3500},
		},
		{
			name: "ratio with float error 0.29",
			req: SectionBudgetRequest{ContextLimit: 125, Ratios: map[string]float64{
				"recentMessages": 0.29, "systemPrompt": 0.21}},
			tot: 100,
			want: map[string]int{"systemPrompt": 21, "goal": 5, "memory": 10, "workingState": 5,
				"conversationSummary": 15, "retrievedContext": 10, "recentMessages": 29, "scaffoldingReminder": 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SectionBudget(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != tt.tot {
				t.Errorf("Total = %d, want %d", got.Total, tt.tot)
			}
			if diff := cmp.Diff(tt.want, got.Sections); diff != "" {
				t.Errorf("Sections (-want +got):\n%s", diff)
			}
			flat := map[string]int{
				"systemPrompt": got.SystemPrompt, "goal": got.Goal, "memory": got.Memory, "workingState": got.WorkingState,
				"conversationSummary": got.ConversationSummary, "retrievedContext": got.RetrievedContext,
				"recentMessages": got.RecentMessages, "scaffoldingReminder": got.ScaffoldingReminder,
			}
			if diff := cmp.Diff(tt.want, flat); diff != "" {
				t.Errorf("flat fields (-want +got):\n%s", diff)
			}
			sum := 0
			for _, v := range got.Sections {
				sum += v
			}
			if sum > got.Total {
				t.Errorf("sections sum to %d > total %d", sum, got.Total)
			}
		})
	}
}

func TestSectionBudgetUsedAndLevel(t *testing.T) {
	tests := []struct {
		name      string
		used      map[string]int
		available map[string]int
		percent   float64
		level     string
		warnings  int
	}{
		{
			name:    "nothing used",
			percent: 0, level: LevelNormal,
			available: map[string]int{"systemPrompt": 960, "goal": 320, "memory": 640, "workingState": 320,
				"conversationSummary": 960, "retrievedContext": 640, "recentMessages": 2240, "scaffoldingReminder": 320},
		},
		{
			name:    "some used",
			used:    map[string]int{"systemPrompt": 500, "recentMessages": 1500},
			percent: 31.2, level: LevelNormal,
			available: map[string]int{"systemPrompt": 460, "goal": 320, "memory": 640, "workingState": 320,
				"conversationSummary": 960, "retrievedContext": 640, "recentMessages": 740, "scaffoldingReminder": 320},
		},
		{
			name:    "79.98 percent is normal",
			used:    map[string]int{"recentMessages": 5119},
			percent: 79.9, level: LevelNormal, warnings: 1,
			available: map[string]int{"systemPrompt": 960, "goal": 320, "memory": 640, "workingState": 320,
				"conversationSummary": 960, "retrievedContext": 640, "recentMessages": 0, "scaffoldingReminder": 320},
		},
		{
			name:    "80 percent is a warning",
			used:    map[string]int{"systemPrompt": 960, "recentMessages": 2240, "memory": 640, "conversationSummary": 960, "retrievedContext": 320},
			percent: 80, level: LevelWarning, warnings: 1,
			available: map[string]int{"systemPrompt": 0, "goal": 320, "memory": 0, "workingState": 320,
				"conversationSummary": 0, "retrievedContext": 320, "recentMessages": 0, "scaffoldingReminder": 320},
		},
		{
			name:    "90 percent is still a warning",
			used:    map[string]int{"systemPrompt": 960, "recentMessages": 2240, "memory": 640, "conversationSummary": 960, "retrievedContext": 640, "goal": 320},
			percent: 90, level: LevelWarning, warnings: 1,
			available: map[string]int{"systemPrompt": 0, "goal": 0, "memory": 0, "workingState": 320,
				"conversationSummary": 0, "retrievedContext": 0, "recentMessages": 0, "scaffoldingReminder": 320},
		},
		{
			name:    "over 90 percent is critical, over-allocated section warned",
			used:    map[string]int{"recentMessages": 6000},
			percent: 93.7, level: LevelCritical, warnings: 2,
			available: map[string]int{"systemPrompt": 960, "goal": 320, "memory": 640, "workingState": 320,
				"conversationSummary": 960, "retrievedContext": 640, "recentMessages": 0, "scaffoldingReminder": 320},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SectionBudget(SectionBudgetRequest{ContextLimit: 8000, Used: tt.used})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.available, got.Available); diff != "" {
				t.Errorf("Available (-want +got):\n%s", diff)
			}
			if got.Percent != tt.percent || got.Level != tt.level {
				t.Errorf("Percent, Level = %v, %q; want %v, %q", got.Percent, got.Level, tt.percent, tt.level)
			}
			if len(got.Warnings) != tt.warnings {
				t.Errorf("Warnings = %q, want %d of them", got.Warnings, tt.warnings)
			}
		})
	}
}

// TestLevel moved to budget/level_test.go with budget.Level (the one level
// function of the server).

func TestSectionBudgetInvalid(t *testing.T) {
	tests := []struct {
		name  string
		req   SectionBudgetRequest
		field string
	}{
		{"no limit, no model", SectionBudgetRequest{}, "contextLimit"},
		{"negative limit", SectionBudgetRequest{ContextLimit: -1}, "contextLimit"},
		// An unknown model falls back to 32,000 (issue 16): TestSectionBudgetUnknownModel.
		{"unknown preset", SectionBudgetRequest{ContextLimit: 8000, Preset: "huge"}, "preset"},
		{"default section under tiers", SectionBudgetRequest{ContextLimit: 8000, Preset: PresetTiers, Used: map[string]int{"memory": 1}}, "used.memory"},
		{"tiers ratios over one", SectionBudgetRequest{ContextLimit: 8000, Preset: PresetTiers, Ratios: map[string]float64{"response": 0.5}}, "ratios"},
		{"warning percent zero", SectionBudgetRequest{ContextLimit: 8000, Thresholds: &ThresholdParams{WarningPercent: ptr(0.0)}}, "thresholds.warningPercent"},
		{"critical under warning", SectionBudgetRequest{ContextLimit: 8000, Thresholds: &ThresholdParams{CriticalPercent: ptr(70.0)}}, "thresholds.criticalPercent"},
		{"negative min remaining", SectionBudgetRequest{ContextLimit: 8000, Thresholds: &ThresholdParams{MinRemainingTokens: ptr(-1)}}, "thresholds.minRemainingTokens"},
		{"safety zero", SectionBudgetRequest{ContextLimit: 8000, Safety: ptr(0.0)}, "safety"},
		{"safety above one", SectionBudgetRequest{ContextLimit: 8000, Safety: ptr(1.5)}, "safety"},
		{"ratio negative", SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{"memory": -0.1}}, "ratios.memory"},
		{"ratio above one", SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{"goal": 1.2}}, "ratios.goal"},
		{"ratios sum above one", SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{"recentMessages": 0.45}}, "ratios"},
		{"unknown section", SectionBudgetRequest{ContextLimit: 8000, Ratios: map[string]float64{"notes": 0.01}}, "ratios.notes"},
		{"unknown used section", SectionBudgetRequest{ContextLimit: 8000, Used: map[string]int{"notes": 1}}, "used.notes"},
		{"negative used", SectionBudgetRequest{ContextLimit: 8000, Used: map[string]int{"memory": -1}}, "used.memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SectionBudget(tt.req)
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParamError", err)
			}
			if pe.Field != tt.field {
				t.Errorf("Field = %q, want %q (%v)", pe.Field, tt.field, err)
			}
		})
	}
}

func TestSectionBudgetRescale(t *testing.T) {
	b8, err := SectionBudget(SectionBudgetRequest{ContextLimit: 8000, Used: map[string]int{"memory": 600}})
	if err != nil {
		t.Fatal(err)
	}
	b32, err := Rescale(b8, 32000)
	if err != nil {
		t.Fatal(err)
	}
	if b32.Total != 4*b8.Total {
		t.Errorf("Total = %d, want %d", b32.Total, 4*b8.Total)
	}
	for _, name := range Sections {
		if b32.Sections[name] != 4*b8.Sections[name] {
			t.Errorf("%s = %d, want 4×%d", name, b32.Sections[name], b8.Sections[name])
		}
	}
	if b32.Available["memory"] != b32.Memory-600 {
		t.Errorf("Available.memory = %d, want %d", b32.Available["memory"], b32.Memory-600)
	}
	// Re-asking with the new limit is the same as rescaling.
	again, err := SectionBudget(SectionBudgetRequest{ContextLimit: 32000, Used: map[string]int{"memory": 600}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(again, b32); diff != "" {
		t.Errorf("re-ask vs Rescale (-want +got):\n%s", diff)
	}
}

func TestContextLimitsLookup(t *testing.T) {
	over := DefaultContextLimits()
	over["gpt-4o"] = 64000
	over["my-local"] = 32768
	tests := []struct {
		limits ContextLimits
		model  string
		want   int
		ok     bool
	}{
		{nil, "gpt-4o", 128000, true},
		{nil, "gpt-4o-2024-08-06", 128000, true},
		{nil, "GPT-4O-MINI", 128000, true},
		{nil, "gpt-4", 8192, true},
		{nil, "gpt-4-0613", 8192, true},
		{nil, "gpt-4-32k-0613", 32768, true},
		{nil, "gpt-4-turbo-preview", 128000, true},
		{nil, "gpt-4.1-mini", 1047576, true},
		{nil, "o1-mini", 128000, true},
		{nil, "o1-preview", 200000, true},
		{nil, "claude-sonnet-4-5", 200000, true},
		{nil, "unknown", 0, false},
		{nil, "", 0, false},
		{over, "gpt-4o", 64000, true},
		{over, "my-local-q4", 32768, true},
	}
	for _, tt := range tests {
		got, ok := tt.limits.Lookup(tt.model)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %d, %v; want %d, %v", tt.model, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := DefaultContextLimits().Lookup("my-local"); ok {
		t.Error("overriding a copy changed the defaults")
	}
}
