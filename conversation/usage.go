package conversation

import (
	"math"
	"sync"
	"time"
)

// UsageLogSize is how many trims a [UsageLog] keeps.
const UsageLogSize = 100

// UsageEntry is one trim in the usage log.
type UsageEntry struct {
	Time           time.Time `json:"time"`
	OriginalTokens int       `json:"originalTokens"`
	FinalTokens    int       `json:"finalTokens"`
	MaxTokens      int       `json:"maxTokens"`
	Truncated      bool      `json:"truncated"`
	DroppedCount   int       `json:"droppedCount"`
}

// UsageStats is the result of acode/usageStats, over the entries kept.
// TrimmedShare and AverageUtilization are fractions in [0,1]:
// the share of requests that had to be trimmed, and the mean of
// finalTokens/maxTokens. Recent lists the kept entries, oldest first.
// Sessions and SectionHistory come from a [Sessions] store (the server
// fills them in; [UsageLog.Stats] leaves them empty).
type UsageStats struct {
	Requests           int            `json:"requests"`
	TotalRequests      int            `json:"totalRequests"`
	Trimmed            int            `json:"trimmed"`
	TrimmedShare       float64        `json:"trimmedShare"`
	AverageUtilization float64        `json:"averageUtilization"`
	Recent             []UsageEntry   `json:"recent"`
	Sessions           []SessionUsage `json:"sessions"`
	SectionHistory     []SectionUsage `json:"sectionHistory"`
}

// UsageLog keeps the last [UsageLogSize] trims. The zero value is ready to
// use and safe for concurrent use.
type UsageLog struct {
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	mu      sync.Mutex
	entries []UsageEntry // ring buffer
	next    int          // where the next entry goes once full
	total   int          // entries ever recorded
}

// Record adds a trim result; maxTokens is the budget it was trimmed to
// (0 means r.MaxTokens).
func (l *UsageLog) Record(r *TrimResult, maxTokens int) {
	if r == nil {
		return
	}
	if maxTokens == 0 {
		maxTokens = r.MaxTokens
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	e := UsageEntry{
		Time:           now(),
		OriginalTokens: r.OriginalTokens,
		FinalTokens:    r.FinalTokens,
		MaxTokens:      maxTokens,
		Truncated:      r.Truncated,
		DroppedCount:   r.DroppedCount,
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total++
	if len(l.entries) < UsageLogSize {
		l.entries = append(l.entries, e)
		return
	}
	l.entries[l.next] = e
	l.next = (l.next + 1) % UsageLogSize
}

// Stats summarises the kept entries.
func (l *UsageLog) Stats() UsageStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := UsageStats{Requests: len(l.entries), TotalRequests: l.total, Recent: make([]UsageEntry, 0, len(l.entries)),
		Sessions: []SessionUsage{}, SectionHistory: []SectionUsage{}}
	s.Recent = append(s.Recent, l.entries[l.next:]...)
	s.Recent = append(s.Recent, l.entries[:l.next]...)
	util := 0.0
	for _, e := range s.Recent {
		if e.Truncated {
			s.Trimmed++
		}
		if e.MaxTokens > 0 {
			util += float64(e.FinalTokens) / float64(e.MaxTokens)
		}
	}
	if s.Requests > 0 {
		s.TrimmedShare = round4(float64(s.Trimmed) / float64(s.Requests))
		s.AverageUtilization = round4(util / float64(s.Requests))
	}
	return s
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
