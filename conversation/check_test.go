package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckConversation: seed 003's checkBudget, counted like a trim and
// never changing the messages.
func TestCheckConversation(t *testing.T) {
	c := words{}
	msgs := agentSession() // 1,632 tokens under the word counter
	total := ConversationTokens(c, msgs)
	if total != 1632 {
		t.Fatalf("the session costs %d tokens, the table expects 1632", total)
	}
	tests := []struct {
		name       string
		req        CheckRequest
		want       CheckResult
		hintTokens int
		warnings   []string
	}{
		{"fits with room", CheckRequest{MaxContextTokens: 4000, ReservedOutputTokens: 1000},
			CheckResult{MaxInputTokens: 3000, CurrentTokens: total, AvailableTokens: 3000 - total, WithinBudget: true,
				UtilizationPercent: 54, Level: LevelNormal},
			3000 - total, nil},
		{"exactly full", CheckRequest{MaxContextTokens: total + 10, ReservedOutputTokens: 10},
			CheckResult{MaxInputTokens: total, CurrentTokens: total, AvailableTokens: 0, WithinBudget: true,
				UtilizationPercent: 100, Level: LevelCritical},
			0, []string{"100.0% of the 1632-token input budget used"}},
		{"over", CheckRequest{MaxContextTokens: 1500, ReservedOutputTokens: 200},
			CheckResult{MaxInputTokens: 1300, CurrentTokens: total, AvailableTokens: 1300 - total, WithinBudget: false,
				UtilizationPercent: 126, Level: LevelCritical},
			0, []string{"125.5% of the 1300-token input budget used", "332 tokens over maxContextTokens 1500 − reservedOutputTokens 200: trim it"}},
		{"warning at 85 percent", CheckRequest{MaxContextTokens: 2020, ReservedOutputTokens: 100},
			CheckResult{MaxInputTokens: 1920, CurrentTokens: total, AvailableTokens: 1920 - total, WithinBudget: true,
				UtilizationPercent: 85, Level: LevelWarning},
			1920 - total, []string{"85.0% of the 1920-token input budget used, 288 tokens remaining: consider compressing"}},
		{"per-request thresholds", CheckRequest{MaxContextTokens: 4000, ReservedOutputTokens: 1000, Thresholds: &ThresholdParams{WarningPercent: ptr(50.0)}},
			CheckResult{MaxInputTokens: 3000, CurrentTokens: total, AvailableTokens: 3000 - total, WithinBudget: true,
				UtilizationPercent: 54, Level: LevelWarning},
			3000 - total, []string{"54.4% of the 3000-token input budget used"}},
		// No reserve: the hint keeps 15 % of the window for the response.
		{"no reserve: the hint reserves 15 percent", CheckRequest{MaxContextTokens: 10000},
			CheckResult{MaxInputTokens: 10000, CurrentTokens: total, AvailableTokens: 10000 - total, WithinBudget: true,
				UtilizationPercent: 16, Level: LevelNormal},
			10000 - total - 1500, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = msgs
			before, _ := json.Marshal(msgs)
			got, err := CheckConversation(context.Background(), c, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := json.Marshal(msgs); string(before) != string(after) {
				t.Fatal("the messages changed")
			}
			if want := min(tt.hintTokens, DefaultToolTokens, tt.req.MaxContextTokens/5); got.Hints.MaxTokens != want {
				t.Errorf("hints.maxTokens %d, want %d", got.Hints.MaxTokens, want)
			}
			wantReserve := tt.req.ReservedOutputTokens
			if wantReserve == 0 {
				wantReserve = tt.req.MaxContextTokens * 15 / 100
			}
			toolRoom := min(DefaultToolTokens, tt.req.MaxContextTokens/5)
			if want := min(wantReserve+toolRoom, tt.req.MaxContextTokens-1); got.Hints.TrimReservedOutputTokens != want {
				t.Errorf("hints.trimReservedOutputTokens %d, want %d", got.Hints.TrimReservedOutputTokens, want)
			}
			if want := !got.WithinBudget || got.Level == LevelCritical || got.Hints.MaxTokens < toolRoom; got.Hints.TrimNeeded != want {
				t.Errorf("hints.trimNeeded %v", got.Hints.TrimNeeded)
			}
			joined := strings.Join(got.Warnings, "\n")
			if len(got.Warnings) != len(tt.warnings) {
				t.Errorf("warnings %q, want %d", got.Warnings, len(tt.warnings))
			}
			for _, w := range tt.warnings {
				if !strings.Contains(joined, w) {
					t.Errorf("warnings %q lack %q", got.Warnings, w)
				}
			}
			tt.want.Messages = len(msgs)
			tt.want.Thresholds = got.Thresholds
			tt.want.Hints, tt.want.Warnings = got.Hints, got.Warnings
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckAgreesWithTrim: currentTokens is the trim's originalTokens, and
// withinBudget says whether a trim would change anything.
func TestCheckAgreesWithTrim(t *testing.T) {
	c := words{}
	for _, max := range []int{1500, 1634, 1635, 1636, 5000} {
		msgs := agentSession()
		chk, err := CheckConversation(context.Background(), c, CheckRequest{Messages: msgs, MaxContextTokens: max})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Trim(context.Background(), c, TrimRequest{Messages: msgs, MaxContextTokens: max})
		if err != nil {
			t.Fatal(err)
		}
		if chk.CurrentTokens != tr.OriginalTokens || chk.WithinBudget == tr.Truncated || chk.MaxInputTokens != tr.MaxTokens {
			t.Errorf("max %d: check %+v, trim original %d truncated %v", max, chk, tr.OriginalTokens, tr.Truncated)
		}
	}
}

func TestCheckInvalid(t *testing.T) {
	tests := []struct {
		name  string
		req   CheckRequest
		field string
	}{
		{"no window", CheckRequest{Messages: []Message{user("hi")}}, "maxContextTokens"},
		{"unknown model", CheckRequest{Model: "my-model"}, "maxContextTokens"},
		{"reserve eats the window", CheckRequest{MaxContextTokens: 100, ReservedOutputTokens: 100}, "reservedOutputTokens"},
		{"bad role", CheckRequest{MaxContextTokens: 100, Messages: []Message{{Role: "robot"}}}, "messages[0].role"},
		{"bad thresholds", CheckRequest{MaxContextTokens: 100, Thresholds: &ThresholdParams{WarningPercent: ptr(150.0)}}, "thresholds.warningPercent"},
	}
	for _, tt := range tests {
		_, err := CheckConversation(context.Background(), words{}, tt.req)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Field != tt.field {
			t.Errorf("%s: err %v, want a ParamError on %s", tt.name, err, tt.field)
		}
	}
}

// TestTrimMarkers: with markers: true, placeholders carry _truncated and
// _originalTokens (seed 003) after the message's own keys; by default (and
// with markers: false) they do not.
func TestTrimMarkers(t *testing.T) {
	var in []Message
	data := `[{"role":"system","content":"sys"},{"role":"user","content":"go"},
{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":"{}"}}]},
{"role":"tool","tool_call_id":"c1","content":"` + strings.Repeat("word ", 300) + `","x-trace":7},
{"role":"assistant","content":"done"}]`
	if err := json.Unmarshal([]byte(data), &in); err != nil {
		t.Fatal(err)
	}
	on := true
	res, err := Trim(context.Background(), words{}, TrimRequest{Messages: in, MaxContextTokens: 100, Markers: &on})
	if err != nil {
		t.Fatal(err)
	}
	got := marshalNoHTML(t, res.Messages[3])
	want := `{"role":"tool","tool_call_id":"c1","content":"[content truncated - 0 steps ago, 300 tokens]","x-trace":7,"_truncated":true,"_originalTokens":300}`
	if got != want {
		t.Errorf("placeholder\n%s\nwant\n%s", got, want)
	}
	if _, ok := res.Messages[1].Extra(MarkerTruncated); ok {
		t.Error("an untouched message is marked")
	}
	off := false
	for _, markers := range []*bool{nil, &off} {
		res, err = Trim(context.Background(), words{}, TrimRequest{Messages: in, MaxContextTokens: 100, Markers: markers})
		if err != nil {
			t.Fatal(err)
		}
		if got := marshalNoHTML(t, res.Messages[3]); strings.Contains(got, "_truncated") || !strings.Contains(got, "[content truncated") {
			t.Errorf("markers %v: %s", markers, got)
		}
	}
	// A message built in Go keeps its fields first.
	m := tool("c9", "x").WithExtra(MarkerTruncated, json.RawMessage("true"))
	if got := marshalNoHTML(t, m); got != `{"role":"tool","content":"x","tool_call_id":"c9","_truncated":true}` {
		t.Errorf("built message: %s", got)
	}
	// The input is not changed.
	if got := marshalNoHTML(t, in[3]); strings.Contains(got, "_truncated") {
		t.Errorf("input changed: %s", got)
	}
}
