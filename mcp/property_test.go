package mcp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNoOverrun is the property test of the design's "zero budget overruns over
// MCP results": many random budgets, queries, globs and max-result caps
// over a generated workspace; every result text is recounted and must fit
// both the budget asked for and the server's cap.
func TestNoOverrun(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	root := t.TempDir()
	words := []string{"cart", "checkout", "payment", "order", "stock", "retry", "error", "user", "session", "cache", "index", "token", "budget", "émoji 🎉", "日本語", "```", "<|endoftext|>", "\t"}
	files := map[string]string{}
	for i := range 60 {
		var b strings.Builder
		ext := []string{".go", ".py", ".md", ".txt", ".ts"}[i%5]
		for l := range 20 + rng.IntN(200) {
			fmt.Fprintf(&b, "%s %s %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], l)
			if ext == ".go" && l%7 == 0 {
				fmt.Fprintf(&b, "\nfunc F%d_%d() {}\n", i, l)
			}
			b.WriteString("\n")
		}
		files[fmt.Sprintf("dir%d/sub%d/file%02d%s", i%4, i%3, i, ext)] = b.String()
	}
	writeTree(t, root, files)
	tok := o200k(t)
	caps := []int{0, 300, 2500}
	sessions := make([]*callSession, len(caps))
	for i, c := range caps {
		cs, _ := connect(t, Options{Root: root, MaxResultTokens: c}, nil)
		sessions[i] = &callSession{cs: cs, max: c}
		if c == 0 {
			sessions[i].max = DefaultMaxResultTokens
		}
	}
	globs := [][]string{nil, {"**/*.go"}, {"dir1/**"}, {"dir0/sub0/*", "**/*.md"}, {"**/file1*"}}
	n := 60
	if testing.Short() {
		n = 15
	}
	overruns := 0
	for i := range n {
		s := sessions[rng.IntN(len(sessions))]
		budget := 1 + rng.IntN(30000)
		if rng.IntN(3) == 0 {
			budget = 1 + rng.IntN(400)
		}
		query := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
		args := map[string]any{"query": query, "budget": budget}
		if g := globs[rng.IntN(len(globs))]; g != nil {
			args["paths"] = g
		}
		if w := words[rng.IntN(len(words))]; rng.IntN(4) == 0 && strings.TrimSpace(w) != "" {
			args["search"] = w
		}
		if rng.IntN(3) == 0 {
			args["format"] = "xml"
		}
		r := callTool(t, s.cs, "pack_context", args)
		if r.isError {
			if !strings.Contains(r.text, "ACODE-CTX-004") {
				t.Errorf("case %d %v: %s", i, args, r.text)
			}
			continue
		}
		got := tok.Count(r.text)
		if r.structured != nil {
			t.Errorf("case %d: structured content", i)
		}
		if got > budget+summaryReserve || got > s.max {
			overruns++
			t.Errorf("case %d %v: %d tokens over budget %d / max %d", i, args, got, budget, s.max)
		}
	}
	t.Logf("%d packs, %d overruns", n, overruns)
}

type callSession struct {
	cs  *sdk.ClientSession
	max int
}
