package lsp

import (
	"fmt"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// progressSeq numbers the progress tokens the server creates.
var progressSeq atomic.Int64

// progress reports window/workDoneProgress for one long operation. Reports
// that come before the client has accepted the token are coalesced: the
// latest one is sent once it has.
//
// Defect: ProgressToken marshals with a pointer receiver, so it encodes as
// {} when ProgressParams or WorkDoneProgressCreateParams are passed by
// value; they are always passed as pointers here.
type progress struct {
	c     *client
	token *protocol.ProgressToken
	title string

	mu      sync.Mutex
	ready   bool // the token may be used
	begun   bool
	ended   bool
	failed  bool
	lastMsg string // of the latest report
	lastPct int
	endMsg  string
}

// startProgress begins progress reporting. With a token from the request
// (workDoneToken) it is used at once; otherwise, when the client supports
// it, a token is created with window/workDoneProgress/create. It returns
// nil (a no-op reporter) when the client cannot show progress.
func (s *Server) startProgress(token *protocol.ProgressToken, title string) *progress {
	p := &progress{c: s.client, token: token, title: title, lastPct: -1}
	if token != nil {
		p.ready = true
		p.send()
		return p
	}
	if !s.clientCaps().workDoneProgress {
		return nil
	}
	p.token = protocol.NewProgressToken(fmt.Sprintf("acode-lsp/%d", progressSeq.Add(1)))
	s.spawn(func() {
		err := s.client.Call(s.ctx, protocol.MethodWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: *p.token}, nil)
		p.mu.Lock()
		defer p.mu.Unlock()
		if err != nil {
			s.log.Debug("progress token refused", zap.Error(err))
			p.failed = true
			return
		}
		p.ready = true
		p.sendLocked()
	})
	return p
}

// report records progress: a message and a percentage (negative: none).
func (p *progress) report(msg string, pct int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.lastMsg, p.lastPct = msg, pct
	p.sendLocked()
}

// end closes the progress with a final message.
func (p *progress) end(msg string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.endMsg = msg
	p.sendLocked()
}

// send sends what the client has not seen yet.
func (p *progress) send() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sendLocked()
}

// sendLocked sends what the client has not seen yet.
func (p *progress) sendLocked() {
	if !p.ready || p.failed {
		return
	}
	if !p.begun {
		p.begun = true
		begin := &protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: p.title}
		if p.lastPct >= 0 {
			begin.Percentage = uint32(p.lastPct)
		}
		begin.Message = p.lastMsg
		p.c.Notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: begin})
		if !p.ended {
			return
		}
	}
	if p.ended {
		p.c.Notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: &protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: p.endMsg}})
		p.failed = true // nothing more may be sent
		return
	}
	report := &protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Message: p.lastMsg}
	if p.lastPct >= 0 {
		report.Percentage = uint32(p.lastPct)
	}
	p.c.Notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: report})
}
