package conversation

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestUsageLog(t *testing.T) {
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	l := &UsageLog{Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	if got := l.Stats(); got.Requests != 0 || got.AverageUtilization != 0 || got.Recent == nil {
		t.Errorf("empty Stats = %+v", got)
	}
	l.Record(&TrimResult{OriginalTokens: 500, FinalTokens: 500, MaxTokens: 1000}, 0)
	l.Record(&TrimResult{OriginalTokens: 3000, FinalTokens: 900, MaxTokens: 1000, Truncated: true, DroppedCount: 7}, 0)
	l.Record(&TrimResult{OriginalTokens: 100, FinalTokens: 100, MaxTokens: 1000}, 400)
	want := UsageStats{
		Requests: 3, TotalRequests: 3, Trimmed: 1, TrimmedShare: 0.3333, AverageUtilization: 0.55,
		Recent: []UsageEntry{
			{Time: clock.Add(-2 * time.Second), OriginalTokens: 500, FinalTokens: 500, MaxTokens: 1000},
			{Time: clock.Add(-time.Second), OriginalTokens: 3000, FinalTokens: 900, MaxTokens: 1000, Truncated: true, DroppedCount: 7},
			{Time: clock, OriginalTokens: 100, FinalTokens: 100, MaxTokens: 400},
		},
		Sessions: []SessionUsage{}, SectionHistory: []SectionUsage{},
	}
	if diff := cmp.Diff(want, l.Stats()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUsageLogKeepsLast100(t *testing.T) {
	var l UsageLog
	for i := 1; i <= 250; i++ {
		l.Record(&TrimResult{OriginalTokens: i, FinalTokens: i % 10, MaxTokens: 10, Truncated: i%2 == 0}, 0)
	}
	s := l.Stats()
	if s.Requests != UsageLogSize || s.TotalRequests != 250 || len(s.Recent) != UsageLogSize {
		t.Fatalf("Requests %d, TotalRequests %d, Recent %d", s.Requests, s.TotalRequests, len(s.Recent))
	}
	for i, e := range s.Recent {
		if e.OriginalTokens != 151+i {
			t.Fatalf("Recent[%d] is trim %d, want %d (oldest first)", i, e.OriginalTokens, 151+i)
		}
	}
	if s.Trimmed != 50 || s.TrimmedShare != 0.5 || s.AverageUtilization != 0.45 {
		t.Errorf("Trimmed %d, share %v, utilisation %v; want 50, 0.5, 0.45", s.Trimmed, s.TrimmedShare, s.AverageUtilization)
	}
}

func TestUsageLogConcurrent(t *testing.T) {
	var l UsageLog
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				l.Record(&TrimResult{FinalTokens: 1, MaxTokens: 2}, 0)
				_ = l.Stats()
			}
		}()
	}
	wg.Wait()
	if s := l.Stats(); s.TotalRequests != 400 || s.Requests != UsageLogSize || s.AverageUtilization != 0.5 {
		t.Errorf("Stats = %d/%d, %v", s.Requests, s.TotalRequests, s.AverageUtilization)
	}
}
