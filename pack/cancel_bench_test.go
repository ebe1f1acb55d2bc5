//go:build unix

package pack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// BenchmarkPackCancel measures how long a pack takes to return after its
// context is cancelled (issue 24 item 4: "cancelled within 100 ms"). For
// each input it first runs one pack to completion to learn where its
// stages fall in time (Stats.Timings), then for each stage cancels cold
// packs (a new count cache and chunk cache each time) at several points
// spread over that stage, and reports the time from cancel() to Pack's
// return: cancel-max-ms and cancel-p50-ms in wall time, and
// cancel-cpu-max-ms, the most CPU time the process spent from a cancel to
// the return (the work done after the cancel: on a loaded machine, wall
// time also counts waiting for a CPU). A pack that finished before
// the cancel is not a sample (counted as finished); one that returned a
// result after cancel() is (counted as ignored). Recorded
// in docs/benchmarks.md ("Cancelling a pack (third pass)").
func BenchmarkPackCancel(b *testing.B) {
	for _, in := range []struct {
		name  string
		setup func(b *testing.B) (*Engine, Request)
	}{
		{"hostile", hostilePack},
		{"nethttp-query", func(b *testing.B) (*Engine, Request) {
			return dirPack(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"), "how does the server handle keep-alive connections")
		}},
		{"net-query", func(b *testing.B) (*Engine, Request) {
			return dirPack(b, filepath.Join(runtime.GOROOT(), "src", "net"), "how does the server handle keep-alive connections")
		}},
		{"nethttp-noquery", func(b *testing.B) (*Engine, Request) {
			return dirPack(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"), "")
		}},
	} {
		b.Run(in.name, func(b *testing.B) {
			e, req := in.setup(b)
			cold := func() {
				e.Tokenizers = tokenizer.NewRegistry()
				e.chunks.Purge()
			}
			// The stages' lengths: the median of three cold packs.
			runs := make([][]Timing, 3)
			for i := range runs {
				cold()
				res, err := e.Pack(context.Background(), req, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				runs[i] = res.Stats.Timings
			}
			med := make([]time.Duration, len(runs[0]))
			for s := range runs[0] {
				ds := []time.Duration{runs[0][s].Duration, runs[1][s].Duration, runs[2][s].Duration}
				slices.Sort(ds)
				med[s] = ds[1]
			}
			for s, t := range runs[0] {
				anchor, lead, ok := stageAnchor(t.Stage, runs[0], med, s)
				if !ok {
					continue
				}
				stage := med[s]
				b.Run(t.Stage, func(b *testing.B) {
					var lat, cpus []time.Duration
					finished, ignored := 0, 0
					for i := 0; i < b.N; i++ {
						for _, frac := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
							cold()
							d, cpu, ok := cancelAfter(b, e, req, anchor, lead+time.Duration(frac*float64(stage)), &ignored)
							if !ok {
								finished++
								continue
							}
							lat, cpus = append(lat, d), append(cpus, cpu)
						}
					}
					b.ReportMetric(float64(stage)/1e6, "stage-ms")
					b.ReportMetric(float64(finished), "finished")
					b.ReportMetric(float64(ignored), "ignored")
					if len(lat) == 0 {
						return
					}
					slices.Sort(lat)
					b.ReportMetric(float64(lat[len(lat)-1])/1e6, "cancel-max-ms")
					b.ReportMetric(float64(lat[len(lat)/2])/1e6, "cancel-p50-ms")
					slices.Sort(cpus)
					b.ReportMetric(float64(cpus[len(cpus)-1])/1e6, "cancel-cpu-max-ms")
				})
			}
		})
	}
}

// stageAnchor is where a cancel inside stage s is timed from: the first
// progress report at or past pct anchor, plus lead (the median lengths of
// the stages between that report and stage s: dedup reports nothing of its
// own, and a map's outlines, timed in select, come before "selecting").
func stageAnchor(stage string, ts []Timing, med []time.Duration, s int) (anchor int, lead time.Duration, ok bool) {
	switch stage {
	case "collect":
		return 0, 0, true
	case "chunk+count":
		return 30, 0, true
	case "rank", "dedup", "select":
		for r := s - 1; r >= 0; r-- {
			if ts[r].Stage == "rank" {
				return 60, lead + med[r], true
			}
			lead += med[r]
		}
		return 60, 0, stage == "rank"
	case "format+verify":
		return 85, 0, true
	}
	return 0, 0, false
}

// cancelAfter runs a pack, cancels it delay after its first progress report
// at or past pct anchor, and returns the time from cancel() to the pack's
// return, in wall time and in the process's CPU time (user and system,
// every thread: the work done after the cancel, whatever the machine's
// load); ok is false when the pack finished before it was cancelled. A
// result returned after cancel() counts in ignored.
func cancelAfter(b *testing.B, e *Engine, req Request, anchor int, delay time.Duration, ignored *int) (wall, cpu time.Duration, ok bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var armed atomic.Bool
	var cancelled, cpuAt atomic.Int64 // UnixNano of cancel(), and the process's CPU time then
	progress := func(_ string, pct int) {
		if pct >= anchor && armed.CompareAndSwap(false, true) {
			time.AfterFunc(delay, func() {
				cpuAt.Store(int64(processCPU()))
				cancelled.Store(time.Now().UnixNano())
				cancel()
			})
		}
	}
	_, err := e.Pack(ctx, req, nil, progress)
	end, cpuEnd := time.Now(), processCPU()
	at := cancelled.Load()
	switch {
	case err == nil && at == 0:
		return 0, 0, false // finished before the cancel
	case err == nil:
		*ignored++ // a result returned after cancel()
	case !errors.Is(err, context.Canceled):
		b.Fatalf("cancelled pack: %v, want context.Canceled", err)
	case at == 0:
		b.Fatal("pack cancelled before cancel()")
	}
	return end.Sub(time.Unix(0, at)), cpuEnd - time.Duration(cpuAt.Load()), true
}

// hostilePack is BenchmarkPackHostileChunks's input: max_chunk_tokens: 1
// and a 744 KB file.
func hostilePack(b *testing.B) (*Engine, Request) {
	root := b.TempDir()
	var text []byte
	for i := 0; len(text) < 744<<10; i++ {
		text = fmt.Appendf(text, "\tcheckoutValue%d := computeCartTotal(items, %d) // line %d\n", i, i, i)
	}
	writeFileTB(b, filepath.Join(root, "big.go"), "package big\n\nfunc F() {\n"+string(text)+"}\n")
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	cfg.Context.Chunking.MaxChunkTokens, cfg.Context.Chunking.MinChunkTokens = 1, 0
	total := 8000
	return NewEngine(cfg, ws), Request{Query: "checkout cart total", Paths: []string{root},
		Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: new(int), ResponseReserve: new(int)}}
}

// dirPack is a pack of dir at a 100K-token budget, with query (none when "").
func dirPack(b *testing.B, dir, query string) (*Engine, Request) {
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	cfg.Context.Tokenizer.CacheSize = 100000
	return NewEngine(cfg, ws), Request{Query: query, Paths: []string{dir}}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
