package pack

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// latencyWindow is how many of the latest pack latencies the percentiles
// of [PackStats] are computed over.
const latencyWindow = 1024

// Recorder collects the statistics of the packs a process answered, for
// acode/packStats. The language server and the MCP server each record
// their packs in one; it is safe for concurrent use.
type Recorder struct {
	mu         sync.Mutex
	packs      int
	failed     int
	latencies  []time.Duration // ring of the latest latencyWindow
	next       int
	maxLatency time.Duration
	considered int
	included   int
	packed     int64
	available  int64
	dedup      budget.DedupStats
}

// Record adds one pack: its result, or its error (a failure, unless the
// pack was cancelled, which counts as neither), and how long it took.
func (r *Recorder) Record(res *Result, took time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			r.failed++
		}
		return
	}
	r.packs++
	if len(r.latencies) < latencyWindow {
		r.latencies = append(r.latencies, took)
	} else {
		r.latencies[r.next] = took
		r.next = (r.next + 1) % latencyWindow
	}
	r.maxLatency = max(r.maxLatency, took)
	r.considered += res.Stats.Chunks
	r.included += len(res.Included)
	r.packed += int64(res.TokenCount)
	r.available += int64(res.Budget.Available)
	r.dedup.Add(res.Dedup)
}

// PackStats is the result of acode/packStats.
type PackStats struct {
	Packs     int               `json:"packs"`
	Failed    int               `json:"failed"`
	LatencyMs LatencyMs         `json:"latencyMs"`
	Chunks    ChunkStats        `json:"chunks"`
	Tokens    TokenStats        `json:"tokens"`
	Dedup     budget.DedupStats `json:"dedup"`
	Cache     CacheSummary      `json:"cache"`
}

// LatencyMs are pack latencies in milliseconds: the percentiles over the
// latest 1,024 packs, the maximum over all.
type LatencyMs struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

// ChunkStats counts the chunks the packs considered (after chunking,
// before dedup) and included.
type ChunkStats struct {
	Considered int `json:"considered"`
	Included   int `json:"included"`
}

// TokenStats adds up the exact counts packed and the budgets available;
// Utilization is packed / available (0 with no pack).
type TokenStats struct {
	Packed      int64   `json:"packed"`
	Available   int64   `json:"available"`
	Utilization float64 `json:"utilization"`
}

// CacheSummary are the counters of the token-count caches; HitRate is
// hits / (hits + misses) (0 before any lookup).
type CacheSummary struct {
	Hits      uint64  `json:"hits"`
	Misses    uint64  `json:"misses"`
	Evictions uint64  `json:"evictions"`
	Entries   int     `json:"entries"`
	HitRate   float64 `json:"hitRate"`
}

// Snapshot returns the statistics so far, with the sum of the given
// count-cache counters.
func (r *Recorder) Snapshot(caches ...tokenizer.CacheStats) PackStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := PackStats{Packs: r.packs, Failed: r.failed, Dedup: r.dedup,
		Chunks: ChunkStats{Considered: r.considered, Included: r.included},
		Tokens: TokenStats{Packed: r.packed, Available: r.available}}
	if r.available > 0 {
		s.Tokens.Utilization = round4(float64(r.packed) / float64(r.available))
	}
	if n := len(r.latencies); n > 0 {
		sorted := slices.Clone(r.latencies)
		slices.Sort(sorted)
		s.LatencyMs = LatencyMs{P50: millis(percentile(sorted, 0.50)), P95: millis(percentile(sorted, 0.95)), Max: millis(r.maxLatency)}
	}
	for _, c := range caches {
		s.Cache.Hits += c.Hits
		s.Cache.Misses += c.Misses
		s.Cache.Evictions += c.Evictions
		s.Cache.Entries += c.Size
	}
	if lookups := s.Cache.Hits + s.Cache.Misses; lookups > 0 {
		s.Cache.HitRate = round4(float64(s.Cache.Hits) / float64(lookups))
	}
	return s
}

// percentile returns the nearest-rank percentile q of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	rank := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func round4(f float64) float64 { return float64(int64(f*1e4+0.5)) / 1e4 }
