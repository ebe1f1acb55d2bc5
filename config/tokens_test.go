package config

import (
	"strings"
	"testing"
)

func TestParseTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		bad  bool
	}{
		{in: "8000", want: 8000},
		{in: "8k", want: 8000},
		{in: "8K", want: 8000},
		{in: "1.5m", want: 1500000},
		{in: "2M", want: 2000000},
		{in: " 16_000 ", want: 16000},
		{in: "16,000", want: 16000},
		{in: "0.5k", want: 500},
		{in: "0", want: 0},
		{in: "", bad: true},
		{in: "k", bad: true},
		{in: "8q", bad: true},
		{in: "-8k", bad: true},
		{in: "1.0005k", bad: true},
		{in: "1e3", bad: true},
		{in: "0x10", bad: true},
		{in: "NaN", bad: true},
		{in: "Inf", bad: true},
		{in: "2000m", bad: true},
		{in: "1.5", bad: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTokens(tc.in)
			if tc.bad {
				if err == nil {
					t.Fatalf("ParseTokens(%q) = %d, want an error", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseTokens(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestDecodeTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		bad  bool
	}{
		{in: `8000`, want: 8000},
		{in: `"8k"`, want: 8000},
		{in: `"1.5m"`, want: 1500000},
		{in: `-5`, want: -5},
		{in: `null`, bad: true},
		{in: `8000.5`, bad: true},
		{in: `true`, bad: true},
		{in: `{}`, bad: true},
		{in: `"lots"`, bad: true},
		{in: `1e12`, bad: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := DecodeTokens([]byte(tc.in))
			if tc.bad {
				if err == nil {
					t.Fatalf("DecodeTokens(%s) = %d, want an error", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("DecodeTokens(%s) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestWithOverridesTokens(t *testing.T) {
	c, err := Default().WithOverrides([]byte(`{"budget": {"totalTokens": "32k", "systemReserve": "1.5k", "responseReserve": 500}}`))
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Context.Budget; b.TotalTokens != 32000 || b.SystemPromptReserve != 1500 || b.ResponseReserve != 500 {
		t.Errorf("budget = %+v, want 32000/1500/500", b)
	}
	_, err = Default().WithOverrides([]byte(`{"budget": {"totalTokens": "lots"}}`))
	if err == nil || !strings.Contains(err.Error(), "acode.budget.totalTokens") || !strings.Contains(err.Error(), "not a number of tokens") {
		t.Errorf("err = %v, want one naming acode.budget.totalTokens", err)
	}
}
