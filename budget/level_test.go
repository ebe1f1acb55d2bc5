package budget

import "testing"

func TestLevel(t *testing.T) {
	def := DefaultThresholds()
	custom := Thresholds{WarningPercent: 50, CriticalPercent: 75, MinRemainingTokens: 0}
	absolute := Thresholds{WarningPercent: 80, CriticalPercent: 90, MinRemainingTokens: 1000}
	tests := []struct {
		name        string
		used, total int
		th          Thresholds
		want        string
	}{
		{"nothing used", 0, 100, def, LevelNormal},
		{"79 percent", 79, 100, def, LevelNormal},
		{"80 percent starts the warning", 80, 100, def, LevelWarning},
		{"90 percent is still a warning", 90, 100, def, LevelWarning},
		{"over 90 percent", 91, 100, def, LevelCritical},
		{"79.99 percent", 7999, 10000, def, LevelNormal},
		{"90.01 percent", 9001, 10000, def, LevelCritical},
		{"over the total", 150, 100, def, LevelCritical},
		{"empty total, nothing used", 0, 0, def, LevelCritical},
		{"empty total, some used", 1, 0, def, LevelCritical},
		{"negative total", 0, -5, def, LevelCritical},
		// The absolute rule: fewer than 20,000 of 90,000 remaining.
		{"70,000 of 90,000: 20,000 left", 70000, 90000, def, LevelNormal},
		{"70,001 of 90,000: 19,999 left", 70001, 90000, def, LevelWarning},
		{"100K window: percent and absolute agree", 80000, 100000, def, LevelWarning},
		{"100K window, 79,999", 79999, 100000, def, LevelNormal},
		{"1M window: 80 percent comes first", 800000, 1000000, def, LevelWarning},
		{"1M window, 79 percent", 790000, 1000000, def, LevelNormal},
		{"budget smaller than the absolute rule: off", 100, 6553, def, LevelNormal},
		{"budget equal to the absolute rule: off", 1, 20000, def, LevelNormal},
		{"absolute rule off with 0", 70001, 90000, Thresholds{80, 90, 0}, LevelNormal},
		{"custom percents: 49", 49, 100, custom, LevelNormal},
		{"custom percents: 50", 50, 100, custom, LevelWarning},
		{"custom percents: 75", 75, 100, custom, LevelWarning},
		{"custom percents: 76", 76, 100, custom, LevelCritical},
		{"custom absolute: 1,000 left", 9000, 10000, absolute, LevelWarning},
		{"custom absolute: 999 left", 9001, 10000, absolute, LevelCritical},
		{"custom absolute: 2,000 left", 8000, 10000, absolute, LevelWarning},
		{"custom absolute: 999 left of 5,000", 4001, 5000, absolute, LevelWarning},
		{"custom absolute: 1,000 left of 5,000", 4000, 5000, absolute, LevelWarning},
		{"custom absolute: 1,001 left of 5,000", 3999, 5000, absolute, LevelNormal},
		{"warning equals critical", 60, 100, Thresholds{60, 60, 0}, LevelWarning},
		{"warning equals critical, over", 61, 100, Thresholds{60, 60, 0}, LevelCritical},
	}
	for _, tt := range tests {
		if got := Level(tt.used, tt.total, tt.th); got != tt.want {
			t.Errorf("%s: Level(%d, %d, %+v) = %s, want %s", tt.name, tt.used, tt.total, tt.th, got, tt.want)
		}
	}
}

func TestThresholdsValidate(t *testing.T) {
	tests := []struct {
		th    Thresholds
		field string // "" = valid
	}{
		{DefaultThresholds(), ""},
		{Thresholds{50, 50, 0}, ""},
		{Thresholds{100, 100, 5}, ""},
		{Thresholds{0, 90, 0}, "warningPercent"},
		{Thresholds{101, 90, 0}, "warningPercent"},
		{Thresholds{80, 0, 0}, "criticalPercent"},
		{Thresholds{80, 120, 0}, "criticalPercent"},
		{Thresholds{90, 80, 0}, "criticalPercent"},
		{Thresholds{80, 90, -1}, "minRemainingTokens"},
	}
	for _, tt := range tests {
		err := tt.th.Validate()
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", tt.th, err)
		case tt.field != "":
			te, ok := err.(*ThresholdError)
			if !ok || te.Field != tt.field {
				t.Errorf("%+v: error %v, want one on %s", tt.th, err, tt.field)
			}
		}
	}
}
