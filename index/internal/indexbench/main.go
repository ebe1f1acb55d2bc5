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
	b := &bench{set: set, terms: pack.Terms(*query), warm: *mode == "warm", fields: *fields}
	opened := time.Since(start)
	filepath.WalkDir(abs, b.visit)
	walked := time.Since(start)
	st := set.Stats()
	if err := set.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	fmt.Printf("%s: %d files, %d MB read, %d hits; open %v, walk+index %v, close %v, total %v; before close %d segments\n", *mode, b.files, b.bytes>>20, b.hits, opened.Round(time.Millisecond), walked.Round(time.Millisecond), (time.Since(start) - walked).Round(time.Millisecond), time.Since(start).Round(time.Millisecond), st.Segments)
}

// bench is one run over a tree: the index set, what it does per file and
// what it counted.
type bench struct {
	set                *index.Set
	terms              []string
	warm, fields       bool
	files, hits, bytes int
}

// visit is the WalkDir function: each regular file outside .git is looked
// up (warm) or read, split and put (cold). Errors skip the entry.
func (b *bench) visit(p string, d fs.DirEntry, err error) error {
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
	b.files++
	ref := collector.FileRef{Abs: p, Path: p, Info: fi}
	if b.warm {
		if _, ok := b.set.Terms(ref, b.terms); ok {
			b.hits++
		}
		return nil
	}
	b.put(ref)
	return nil
}

// put reads a file, counts its terms (white-space fields with -fields)
// and puts them.
func (b *bench) put(ref collector.FileRef) {
	data, err := os.ReadFile(ref.Abs)
	if err != nil {
		return
	}
	b.bytes += len(data)
	split := pack.Terms
	if b.fields {
		split = strings.Fields
	}
	all := map[string]int{}
	for _, t := range split(string(data)) {
		all[t]++
	}
	b.set.PutTerms(ref, data, all)
}
