package pack

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

// progressEvery is the longest a running stage goes without a report when
// its percentage has not moved.
const progressEvery = 250 * time.Millisecond

// meter turns the work done in a stage (files and bytes) into progress
// reports whose percentage moves from one stage's share to the next: by
// bytes, since a big file takes longer than a small one. It reports when
// the percentage moves, and otherwise at most every progressEvery, so an
// LSP client or a terminal is not flooded. Safe for concurrent use.
type meter struct {
	mu                sync.Mutex
	report            func(string, int)
	verb              string
	from, to          int
	files, totalFiles int
	bytes, totalBytes int64
	lastPct           int
	last              time.Time
}

// newMeter starts a stage that goes from pct from to pct to over
// totalFiles files of totalBytes bytes, and reports its start.
func newMeter(report func(string, int), verb string, from, to, totalFiles int, totalBytes int64) *meter {
	m := &meter{report: report, verb: verb, from: from, to: to, totalFiles: totalFiles, totalBytes: totalBytes, lastPct: -1}
	m.mu.Lock()
	m.send(from, time.Now())
	m.mu.Unlock()
	return m
}

// done records one more file of n bytes.
func (m *meter) done(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files++
	m.bytes += n
	frac := float64(m.files) / float64(max(1, m.totalFiles))
	if m.totalBytes > 0 {
		frac = float64(m.bytes) / float64(m.totalBytes)
	}
	pct := m.from + int(float64(m.to-m.from)*min(1, frac))
	now := time.Now()
	if pct != m.lastPct || now.Sub(m.last) >= progressEvery || m.files == m.totalFiles {
		m.send(pct, now)
	}
}

func (m *meter) send(pct int, now time.Time) {
	m.lastPct, m.last = pct, now
	m.report(fmt.Sprintf("%s %s of %s files (%s of %s)", m.verb, num(m.files), num(m.totalFiles), mb(m.bytes), mb(m.totalBytes)), pct)
}

func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", (n+1023)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// walkProgress returns a context under which the collector's walks report
// the files and bytes read so far, as "collecting sources: N files (X MB)
// read" at pct (the total is not known before the walk ends), at most every
// progressEvery.
func walkProgress(ctx context.Context, report func(string, int), pct int) context.Context {
	var last time.Time
	return collector.WithProgress(ctx, func(files int, bytes int64) {
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			report(fmt.Sprintf("collecting sources: %s files (%s) read", num(files), mb(bytes)), pct)
		}
	})
}
