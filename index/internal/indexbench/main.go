// Command indexbench measures the workspace index alone (docs/benchmarks.md
// "Workspace index"): a cold pass reads every file under -root, splits it
// with pack.Terms and puts its term table; a warm pass stats every file and
// looks up the query's terms. Each run prints its wall time; run it under
// /usr/bin/time -v for the peak RSS.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/pack"
)

func main() {
	root := flag.String("root", "", "tree to index")
	mode := flag.String("mode", "warm", "cold (read, split, put) or warm (stat, look up)")
	query := flag.String("query", "http request handler timeout", "query text")
	fields := flag.Bool("fields", false, "cold: split at white space instead of pack.Terms (to time the index, not the splitter)")
	prof := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	start := time.Now()
	set, err := index.OpenSet([]string{abs}, index.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	terms := pack.Terms(*query)
	var files, hits, bytes int
	opened := time.Since(start)
	filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		files++
		ref := collector.FileRef{Abs: p, Path: p, Info: fi}
		if *mode == "warm" {
			if _, ok := set.Terms(ref, terms); ok {
				hits++
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		bytes += len(b)
		all := map[string]int{}
		if *fields {
			for _, t := range strings.Fields(string(b)) {
				all[t]++
			}
		} else {
			for _, t := range pack.Terms(string(b)) {
				all[t]++
			}
		}
		set.PutTerms(ref, b, all)
		return nil
	})
	walked := time.Since(start)
	st := set.Stats()
	if err := set.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	fmt.Printf("%s: %d files, %d MB read, %d hits; open %v, walk+index %v, close %v, total %v; before close %d segments\n", *mode, files, bytes>>20, hits, opened.Round(time.Millisecond), walked.Round(time.Millisecond), (time.Since(start) - walked).Round(time.Millisecond), time.Since(start).Round(time.Millisecond), st.Segments)
}
