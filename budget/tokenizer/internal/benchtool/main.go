// Command benchtool counts the same ~4 MB mixed corpus (Go source from
// GOROOT/src and multilingual text, see benchcorpus.Mixed) with acode-lsp's
// tokenizer and with OpenAI's core (npm tiktoken, through
// tools/tiktoken-ref/count.mjs) and prints both throughputs and their
// ratio. Run it with make bench-tokens.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer/internal/benchcorpus"
)

func main() {
	node := flag.String("node", "tools/tiktoken-ref/count.mjs", "path of count.mjs")
	rounds := flag.Int("rounds", 5, "counts per encoding; the best is reported")
	encs := flag.String("e", "o200k_base,cl100k_base", "encodings")
	flag.Parse()
	if err := run(*node, *rounds, strings.Split(*encs, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "benchtool:", err)
		os.Exit(1)
	}
}

type nodeResult struct {
	Encoding string  `json:"encoding"`
	Tokens   int     `json:"tokens"`
	BestMs   float64 `json:"bestMs"`
}

func run(script string, rounds int, encs []string) error {
	src, err := benchcorpus.GoSource(3 << 20)
	if err != nil {
		return err
	}
	uni := benchcorpus.Unicode(1 << 20)
	dir, err := os.MkdirTemp("", "bench-tokens")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	fmt.Printf("corpus: mixed = 3 MB of Go source from GOROOT/src + 1 MB of multilingual text; %s, GOMAXPROCS=%d, best of %d runs\n",
		runtime.Version(), runtime.GOMAXPROCS(0), rounds)
	fmt.Printf("%-8s %-12s %8s %10s %10s %12s %10s %12s %7s\n",
		"input", "encoding", "MB", "tokens", "acode ms", "acode Mtok/s", "npm ms", "npm Mtok/s", "ratio")
	for _, in := range []struct{ name, text string }{{"mixed", src + uni}, {"go", src}, {"unicode", uni}} {
		path := filepath.Join(dir, in.name+".txt")
		if err := os.WriteFile(path, []byte(in.text), 0o644); err != nil {
			return err
		}
		ref, err := runNode(script, rounds, encs, path)
		if err != nil {
			return err
		}
		for _, enc := range encs {
			tk, err := tokenizer.ForEncoding(enc)
			if err != nil {
				return err
			}
			var n int
			best := time.Duration(1<<63 - 1)
			for range rounds {
				t0 := time.Now()
				n = tk.Count(in.text)
				best = min(best, time.Since(t0))
			}
			r, ok := ref[enc]
			if !ok {
				return fmt.Errorf("no node result for %s", enc)
			}
			if r.Tokens != n {
				return fmt.Errorf("%s %s: acode counts %d tokens, npm tiktoken %d", in.name, enc, n, r.Tokens)
			}
			ms := float64(best.Microseconds()) / 1e3
			fmt.Printf("%-8s %-12s %8.2f %10d %10.1f %12.2f %10.1f %12.2f %6.1fx\n",
				in.name, enc, float64(len(in.text))/1e6, n, ms, float64(n)/ms/1e3, r.BestMs, float64(n)/r.BestMs/1e3, r.BestMs/ms)
		}
	}
	return nil
}

// runNode counts the file with count.mjs --bench.
func runNode(script string, rounds int, encs []string, path string) (map[string]nodeResult, error) {
	out, err := exec.Command("node", script, "-e", strings.Join(encs, ","), "--bench", fmt.Sprint(rounds), path).Output()
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", script, err)
	}
	ref := map[string]nodeResult{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r nodeResult
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("node output %q: %w", line, err)
		}
		ref[r.Encoding] = r
	}
	return ref, nil
}
