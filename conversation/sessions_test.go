package conversation

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSessionsTrackSections: a session's section counts carry over between
// requests, fit pages and history entries land in their sections, a trim
// empties the tool-results section, and usage shows used/remaining.
func TestSessionsTrackSections(t *testing.T) {
	var s Sessions
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { at = at.Add(time.Second); return at }

	// gpt-4o: 102,400 total; retrievedContext 10,240, conversationSummary 15,360.
	res, _, err := s.SectionBudget(SectionBudgetRequest{Model: "gpt-4o", SessionID: "a", Used: map[string]int{SectionSystemPrompt: 3000}})
	if err != nil {
		t.Fatal(err)
	}
	if res.UsedTotal != 3000 || res.Hints.MaxTokens != 8000 {
		t.Fatalf("first call: used %d hints %d", res.UsedTotal, res.Hints.MaxTokens)
	}
	s.RecordFit("a", &FitResult{Tokens: 6000}, ModePage)
	s.RecordFit("a", &FitResult{Tokens: 120}, ModeHistory)
	if n, ok := s.HistoryTokens("a"); !ok || n != 120 {
		t.Errorf("HistoryTokens = %d, %v", n, ok)
	}
	// The next call names only the goal; the rest comes from the session.
	res, snap, err := s.SectionBudget(SectionBudgetRequest{Model: "gpt-4o", SessionID: "a", Used: map[string]int{SectionGoal: 200}})
	if err != nil {
		t.Fatal(err)
	}
	wantUsed := map[string]int{SectionSystemPrompt: 3000, SectionGoal: 200, SectionRetrievedContext: 6000, SectionConversationSummary: 120,
		SectionMemory: 0, SectionWorkingState: 0, SectionRecentMessages: 0, SectionScaffoldingReminder: 0}
	if diff := cmp.Diff(wantUsed, res.Used); diff != "" {
		t.Errorf("used (-want +got):\n%s", diff)
	}
	if res.Available[SectionRetrievedContext] != 4240 || res.Hints.MaxTokens != 4240 {
		t.Errorf("retrievedContext available %d, hints %d; want 4240", res.Available[SectionRetrievedContext], res.Hints.MaxTokens)
	}
	if snap.Method != MethodSectionBudget || snap.UsedTotal != 9320 || snap.Total != 102400 {
		t.Errorf("snapshot %+v", snap)
	}
	// A trim folds the tool results into the conversation.
	s.RecordConversation("a", 50000, true)
	s.RecordConversation("b", 7, false) // another session, checked only
	sessions, hist := s.Usage()
	if len(sessions) != 2 || sessions[0].SessionID != "b" || sessions[1].SessionID != "a" {
		t.Fatalf("sessions %+v", sessions)
	}
	a := sessions[1]
	if a.ConversationTokens != 50000 || a.Calls != 5 || a.Total != 102400 || a.UsedTotal != 3320 || a.Remaining != 102400-3320 ||
		a.Sections[SectionRetrievedContext] != (SectionState{Allocated: 10240, Remaining: 10240}) ||
		a.Sections[SectionSystemPrompt] != (SectionState{Allocated: 15360, Used: 3000, Remaining: 12360}) {
		t.Errorf("session a %+v", a)
	}
	var methods []string
	for _, h := range hist {
		methods = append(methods, h.SessionID+":"+h.Method)
	}
	want := "a:sectionBudget a:fitToolResult a:fitToolResult a:sectionBudget a:trimConversation b:checkConversation"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("history %s, want %s", got, want)
	}
	// Without a session nothing is recorded.
	if _, snap, err := s.SectionBudget(SectionBudgetRequest{Model: "gpt-4o"}); err != nil || snap.Method != "" {
		t.Errorf("no session: %+v %v", snap, err)
	}
	if _, h := s.Usage(); len(h) != len(hist) {
		t.Errorf("a request without a session was recorded")
	}
}

// TestSessionsSwitchPreset: switching presets keeps only the sections the
// new preset has.
func TestSessionsSwitchPreset(t *testing.T) {
	var s Sessions
	if _, _, err := s.SectionBudget(SectionBudgetRequest{Model: "o3", SessionID: "x", Used: map[string]int{SectionMemory: 900}}); err != nil {
		t.Fatal(err)
	}
	res, _, err := s.SectionBudget(SectionBudgetRequest{Model: "o3", SessionID: "x", Preset: PresetTiers, Used: map[string]int{TierSystem: 5000}})
	if err != nil {
		t.Fatal(err)
	}
	if res.UsedTotal != 5000 || res.Sections[TierToolResults] != 40000 {
		t.Errorf("tiers after default: used %v sections %v", res.Used, res.Sections)
	}
	s.RecordFit("x", &FitResult{Tokens: 1000}, ModePage)
	sessions, _ := s.Usage()
	if got := sessions[0].Sections[TierToolResults]; got != (SectionState{Allocated: 40000, Used: 1000, Remaining: 39000}) {
		t.Errorf("toolResults %+v", got)
	}
}

// TestSessionsBounded: the store keeps MaxSessions sessions and
// SectionHistorySize snapshots, forgetting the oldest.
func TestSessionsBounded(t *testing.T) {
	var s Sessions
	for i := 0; i < MaxSessions+10; i++ {
		s.RecordConversation(fmt.Sprintf("s%d", i), i, false)
		s.RecordConversation("keep", i, false) // used all along: never the oldest
	}
	sessions, hist := s.Usage()
	if len(sessions) != MaxSessions || len(hist) != SectionHistorySize {
		t.Fatalf("%d sessions, %d snapshots", len(sessions), len(hist))
	}
	ids := map[string]bool{}
	for _, u := range sessions {
		ids[u.SessionID] = true
	}
	if !ids["keep"] || ids["s0"] || !ids[fmt.Sprintf("s%d", MaxSessions+9)] {
		t.Errorf("kept %v", ids)
	}
	last := hist[len(hist)-1]
	if last.SessionID != "keep" || last.Method != MethodCheckConversation {
		t.Errorf("newest snapshot %+v", last)
	}
}

func TestSessionIDInvalid(t *testing.T) {
	var s Sessions
	for _, id := range []string{strings.Repeat("x", 201), "bad\xff"} {
		_, _, err := s.SectionBudget(SectionBudgetRequest{ContextLimit: 8000, SessionID: id})
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Field != "sessionId" {
			t.Errorf("id of %d bytes: %v", len(id), err)
		}
	}
}
