package conversation

import (
	"sort"
	"sync"
	"time"
	"unicode/utf8"
)

// Session store limits.
const (
	// MaxSessions is how many sessions a [Sessions] store keeps; the one
	// used least recently is forgotten first.
	MaxSessions = 64
	// SectionHistorySize is how many section-usage snapshots it keeps.
	SectionHistorySize = 100
	// maxSessionIDLen bounds a session id (bytes).
	maxSessionIDLen = 200
)

// Methods named in the section-usage history.
const (
	MethodSectionBudget     = "sectionBudget"
	MethodFitToolResult     = "fitToolResult"
	MethodTrimConversation  = "trimConversation"
	MethodCheckConversation = "checkConversation"
)

// Sessions tracks agent sessions across requests (seed 004's session
// budget, seed 002's budget history): per session, the last section
// allocation and the tokens used per section, updated by every request
// that carries the session's "sessionId":
//
//   - acode/sectionBudget: the sections named in "used" are set (the others
//     keep their count), and the allocation is remembered;
//   - acode/fitToolResult: a page's tokens are added to the section tool
//     results go to (retrievedContext, or toolResults under the tiers
//     preset), a history entry's to the history section
//     (conversationSummary, or history);
//   - acode/trimConversation: the trimmed list's size is the session's
//     conversation size, and the tool-results section starts again at 0
//     (the results fetched so far are now part of that list);
//   - acode/checkConversation: the list's size is the conversation size.
//
// It also keeps the last [SectionHistorySize] snapshots of section usage.
// The zero value is ready to use and safe for concurrent use.
type Sessions struct {
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	mu       sync.Mutex
	sessions map[string]*session
	clock    uint64 // LRU order
	history  []SectionUsage
	next     int
	recorded int
}

type session struct {
	preset       preset
	total        int
	alloc        map[string]int
	used         map[string]int
	conversation int
	calls        int
	last         time.Time
	tick         uint64
}

// SectionUsage is one snapshot of a session's section usage, after the
// request Method changed it.
type SectionUsage struct {
	Time      time.Time      `json:"time"`
	SessionID string         `json:"sessionId"`
	Method    string         `json:"method"`
	Preset    string         `json:"preset"`
	Total     int            `json:"total"`
	UsedTotal int            `json:"usedTotal"`
	Used      map[string]int `json:"used"`
}

// SectionState is a section of a session: its allocation (0 before the
// session's first acode/sectionBudget), the tokens used and what is left.
type SectionState struct {
	Allocated int `json:"allocated"`
	Used      int `json:"used"`
	Remaining int `json:"remaining"`
}

// SessionUsage is the state of one session in acode/usageStats.
type SessionUsage struct {
	SessionID          string                  `json:"sessionId"`
	Preset             string                  `json:"preset"`
	Total              int                     `json:"total"`
	UsedTotal          int                     `json:"usedTotal"`
	Remaining          int                     `json:"remaining"`
	Sections           map[string]SectionState `json:"sections"`
	ConversationTokens int                     `json:"conversationTokens"`
	Calls              int                     `json:"calls"`
	LastUsed           time.Time               `json:"lastUsed"`
}

// CheckSessionID validates a "sessionId" param ("" means none).
func CheckSessionID(id string) error {
	if len(id) > maxSessionIDLen || !utf8.ValidString(id) {
		return paramErrorf("sessionId", "must be valid UTF-8 of at most %d bytes (got %d bytes): use a short id such as a UUID", maxSessionIDLen, len(id))
	}
	return nil
}

func (s *Sessions) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// get returns the session id, creating it (default preset) when new. The
// caller holds s.mu.
func (s *Sessions) get(id string) *session {
	if s.sessions == nil {
		s.sessions = map[string]*session{}
	}
	ss := s.sessions[id]
	if ss == nil {
		if len(s.sessions) >= MaxSessions {
			oldest, tick := "", ^uint64(0)
			for k, v := range s.sessions {
				if v.tick < tick {
					oldest, tick = k, v.tick
				}
			}
			delete(s.sessions, oldest)
		}
		p, _ := lookupPreset("")
		ss = &session{preset: p, alloc: map[string]int{}, used: map[string]int{}}
		s.sessions[id] = ss
	}
	s.clock++
	ss.tick = s.clock
	ss.calls++
	ss.last = s.now()
	return ss
}

// record appends a snapshot of session id to the history and returns it.
// The caller holds s.mu.
func (s *Sessions) record(id, method string, ss *session) SectionUsage {
	u := SectionUsage{Time: ss.last, SessionID: id, Method: method, Preset: ss.preset.name, Total: ss.total, Used: map[string]int{}}
	for _, name := range ss.preset.sections {
		u.Used[name] = ss.used[name]
		u.UsedTotal += ss.used[name]
	}
	s.recorded++
	if len(s.history) < SectionHistorySize {
		s.history = append(s.history, u)
	} else {
		s.history[s.next] = u
		s.next = (s.next + 1) % SectionHistorySize
	}
	return u
}

// SectionBudget answers acode/sectionBudget for req's session: the
// session's earlier counts fill in the sections req.Used does not name.
// Without a session id it is [SectionBudget]. The second result is the
// snapshot recorded (zero without a session).
func (s *Sessions) SectionBudget(req SectionBudgetRequest) (*SectionBudgetResult, SectionUsage, error) {
	if err := CheckSessionID(req.SessionID); err != nil {
		return nil, SectionUsage{}, err
	}
	if req.SessionID == "" {
		res, err := SectionBudget(req)
		return res, SectionUsage{}, err
	}
	p, err := lookupPreset(req.Preset)
	if err != nil {
		return nil, SectionUsage{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var prev map[string]int
	if ss := s.sessions[req.SessionID]; ss != nil {
		prev = ss.used
	}
	used := make(map[string]int, len(p.sections))
	for _, name := range p.sections {
		if n, ok := prev[name]; ok && n > 0 {
			used[name] = n
		}
	}
	for k, v := range req.Used {
		used[k] = v // validated by SectionBudget
	}
	req.Used = used
	res, err := SectionBudget(req)
	if err != nil {
		return nil, SectionUsage{}, err
	}
	ss := s.get(req.SessionID)
	ss.preset, ss.total = p, res.Total
	ss.alloc = copyInts(res.Sections)
	ss.used = copyInts(res.Used)
	return res, s.record(req.SessionID, MethodSectionBudget, ss), nil
}

// RecordFit adds a fitToolResult answer to session id (page tokens to the
// tool-results section, history entries to the history section).
func (s *Sessions) RecordFit(id string, res *FitResult, mode string) SectionUsage {
	if id == "" || res == nil {
		return SectionUsage{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.get(id)
	section := ss.preset.tools
	if mode == ModeHistory {
		section = ss.preset.history
	}
	ss.used[section] += res.Tokens
	return s.record(id, MethodFitToolResult, ss)
}

// HistoryTokens returns the tokens of session id's history section, if
// the session exists.
func (s *Sessions) HistoryTokens(id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[id]
	if ss == nil {
		return 0, false
	}
	return ss.used[ss.preset.history], true
}

// RecordConversation records the size of session id's message list after
// a trim (trimmed true: the tool-results section starts again at 0) or a
// check.
func (s *Sessions) RecordConversation(id string, tokens int, trimmed bool) SectionUsage {
	if id == "" {
		return SectionUsage{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.get(id)
	ss.conversation = tokens
	method := MethodCheckConversation
	if trimmed {
		method = MethodTrimConversation
		delete(ss.used, ss.preset.tools)
	}
	return s.record(id, method, ss)
}

// Usage returns the sessions (most recently used first) and the section
// history (oldest first).
func (s *Sessions) Usage() ([]SessionUsage, []SectionUsage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SessionUsage, 0, len(s.sessions))
	ticks := map[string]uint64{}
	for id, ss := range s.sessions {
		u := SessionUsage{SessionID: id, Preset: ss.preset.name, Total: ss.total, Sections: map[string]SectionState{},
			ConversationTokens: ss.conversation, Calls: ss.calls, LastUsed: ss.last}
		for _, name := range ss.preset.sections {
			st := SectionState{Allocated: ss.alloc[name], Used: ss.used[name]}
			st.Remaining = max(st.Allocated-st.Used, 0)
			u.Sections[name] = st
			u.UsedTotal += st.Used
		}
		u.Remaining = max(u.Total-u.UsedTotal, 0)
		out = append(out, u)
		ticks[id] = ss.tick
	}
	sort.Slice(out, func(i, j int) bool { return ticks[out[i].SessionID] > ticks[out[j].SessionID] })
	hist := make([]SectionUsage, 0, len(s.history))
	hist = append(hist, s.history[s.next:]...)
	hist = append(hist, s.history[:s.next]...)
	return out, hist
}

func copyInts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
