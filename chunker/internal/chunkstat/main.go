// Command chunkstat measures how a tree is chunked: how many tokens sit in
// chunks of at least -slab tokens (the "slabs" that crowd a budget), the
// number of chunks and their median size. It counts with o200k_base and the
// default chunking options (max 2000, min 100, structural), as a pack does.
//
//	go run ./chunker/internal/chunkstat [-slab 1500] [-top 10] DIR…
//
// docs/chunking.md records its numbers.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

func main() {
	slab := flag.Int("slab", 1500, "a chunk of at least this many tokens is a slab")
	top := flag.Int("top", 10, "list this many of the biggest chunks")
	max := flag.Int("max", 0, "max_chunk_tokens (0 = default 2000)")
	flag.Parse()
	tok, err := tokenizer.ForEncoding("o200k_base")
	if err != nil {
		fmt.Fprintln(os.Stderr, "chunkstat:", err)
		os.Exit(1)
	}
	type big struct {
		where  string
		tokens int
	}
	var total, inSlabs, files int
	var sizes []int
	var bigs []big
	for _, dir := range flag.Args() {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || chunker.Language(path) == "" || chunker.Language(path) == "markdown" {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			cs, err := chunker.Split(context.Background(), path, src, tok.Count, chunker.Options{PreferStructural: true, MaxTokens: *max})
			if err != nil {
				return err
			}
			files++
			rel, _ := filepath.Rel(dir, path)
			for _, c := range cs {
				total += c.Tokens
				sizes = append(sizes, c.Tokens)
				if c.Tokens >= *slab {
					inSlabs += c.Tokens
				}
				bigs = append(bigs, big{fmt.Sprintf("%s:%d-%d %s %q", rel, c.StartLine, c.EndLine, c.Kind, c.Name), c.Tokens})
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "chunkstat:", err)
			os.Exit(1)
		}
	}
	if total == 0 {
		fmt.Println("no source files")
		return
	}
	sort.Ints(sizes)
	fmt.Printf("files %d  chunks %d  tokens %d  median chunk %d  in chunks ≥ %d tokens: %d (%.1f %%)\n",
		files, len(sizes), total, sizes[len(sizes)/2], *slab, inSlabs, 100*float64(inSlabs)/float64(total))
	sort.SliceStable(bigs, func(i, j int) bool { return bigs[i].tokens > bigs[j].tokens })
	for i := 0; i < *top && i < len(bigs); i++ {
		fmt.Printf("  %5d %s\n", bigs[i].tokens, strings.ReplaceAll(bigs[i].where, "\n", " "))
	}
}
