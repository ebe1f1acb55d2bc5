// Command listbench times the walk alone — collector.Workspace.List of a
// tree, as a warm pack lists it — with and without the workspace index's
// plain paths (docs/index.md "Plain paths"), so that the walk can be set
// beside `find`'s stat floor without the rest of a pack
// (docs/benchmarks.md, "A listing kept across packs (seventh pass,
// walk9)"):
//
//	go run ./tools/listbench [-plain] [-n 3] TREE
//
// It uses the index of the user's cache (XDG_CACHE_HOME), read-only but for
// the plain-path table a -plain run may write. Run it with GOGC=1600 to
// approach the CLI's GC pacing of one-shot commands.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/index"
)

func main() {
	plain := flag.Bool("plain", false, "take path verdicts from the index's plain-path table")
	n := flag.Int("n", 3, "walks")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: listbench [-plain] [-n N] TREE")
		os.Exit(2)
	}
	root, err := filepath.Abs(flag.Arg(0))
	if err == nil {
		err = run(root, *plain, *n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "listbench:", err)
		os.Exit(1)
	}
}

// run walks root n times, each with a new workspace (and index), and
// prints each walk's wall and CPU time.
func run(root string, plain bool, n int) error {
	for i := 0; i < n; i++ {
		var set *index.Set
		if plain {
			s, err := index.OpenSet([]string{root}, index.Options{})
			if err != nil {
				return err
			}
			set = s
		}
		t0, c0 := time.Now(), cpuTime()
		w, err := collector.New(collector.Options{Roots: []string{root}})
		if err != nil {
			return err
		}
		if set != nil {
			w.SetPlainPaths(set)
		}
		refs, excl, err := w.List(context.Background(), collector.OpenFile)
		if err != nil {
			return err
		}
		fmt.Printf("plain=%v %d files %d excluded: %.3f s wall, %.3f s CPU\n", plain, len(refs), len(excl),
			time.Since(t0).Seconds(), (cpuTime() - c0).Seconds())
		if set != nil {
			if err := set.Close(); err != nil {
				return err
			}
		}
	}
	return nil
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
