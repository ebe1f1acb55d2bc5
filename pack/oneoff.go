package pack

import "sync/atomic"

// oneOff is set by OneOff: the process makes one pack and exits.
var oneOff atomic.Bool

// OneOff tells the package that this process makes a single pack and
// exits (the CLI's pack command). The process-wide memos that pay off only
// from a second pack of the same texts — the chunks' term tables
// (chunkterms.go), the graph's words (graphwords.go) and the reference
// graphs (graphmemo.go) — are then neither read nor filled: a one-off pack
// took their first-time path anyway (scan, build) and only paid for
// hashing every chunk's text into them, about 15 ms of a warm query pack
// of Go's src (docs/benchmarks.md, "Warm query packs of Go's src, again").
// What a pack gives is the same either way (TestOneOffSamePack). Servers
// never call it.
func OneOff() { oneOff.Store(true) }
