package pack

import (
	"crypto/sha256"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// chunkCache keeps the structural chunks of recently packed files, keyed by
// path, content hash, options and encoding, so a warm pack does not parse
// again. Chunk contents are substrings of the file text, so an entry costs
// about the size of its file; 512 entries bound it.
var chunkCache, _ = lru.New[[32]byte, []chunker.Chunk](512)

func chunkKey(path, content string, opts chunker.Options, encoding string) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d/%d/%v/%v\x00", path, encoding, opts.MaxTokens, opts.MinTokens, opts.PreferStructural, opts.NoMerge)
	h.Write([]byte(content))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// categoryOf maps a source type to its budget category.
var categoryOf = map[collector.SourceType]string{
	collector.ToolResult:   budget.ToolResults,
	collector.OpenFile:     budget.OpenFiles,
	collector.SearchResult: budget.SearchResults,
	collector.Reference:    budget.References,
}

// chunk cuts every source into candidate items (DESIGN rule 4): files
// structurally, ranges and tool output into line windows.
func (p *run) chunk(srcs []source) ([]*budget.Item, error) {
	ch := p.e.cfg.Context.Chunking
	opts := chunker.Options{MaxTokens: ch.MaxChunkTokens, MinTokens: ch.MinChunkTokens, PreferStructural: ch.PreferStructural, NoMerge: ch.MinChunkTokens == 0}
	count := chunker.Counter(p.tok.Count)
	var items []*budget.Item
	var srcIndex []int
	seq := 0
	for si, s := range srcs {
		if si%16 == 0 {
			if err := p.ctx.Err(); err != nil {
				return nil, err
			}
		}
		text := budget.NewText(s.Content)
		n := text.Lines()
		if n == 0 {
			p.exclude(collector.Exclusion{Type: s.Type, Path: s.Path, Reason: collector.ReasonEmpty, Detail: "no lines"})
			continue
		}
		var chunks []chunker.Chunk
		switch {
		case s.ranged:
			start, end := s.StartLine, s.EndLine
			if end == 0 || end > n {
				end = n
			}
			if start > n {
				p.exclude(collector.Exclusion{Type: s.Type, Path: s.Path, Reason: collector.ReasonEmpty, Detail: fmt.Sprintf("range starts at line %d but the file has %d lines", start, n)})
				continue
			}
			chunks = chunker.SplitLines([]byte(s.Content), start, end, count, opts)
		case s.Type == collector.ToolResult:
			chunks = chunker.SplitLines([]byte(s.Content), 1, n, count, opts)
		default:
			key := chunkKey(s.Path, s.Content, opts, p.tok.Encoding())
			if c, ok := chunkCache.Get(key); ok {
				chunks = c
				break
			}
			var err error
			chunks, err = chunker.Split(p.ctx, s.Path, []byte(s.Content), count, opts)
			if err != nil {
				if p.ctx.Err() != nil {
					return nil, p.ctx.Err()
				}
				chunks = chunker.SplitLines([]byte(s.Content), 1, n, count, opts)
			}
			if p.tok.Exact() {
				chunkCache.Add(key, chunks)
			}
		}
		cat := categoryOf[s.Type]
		lang := chunker.FenceLanguage(s.Path)
		for _, c := range chunks {
			if c.Content == "" {
				continue
			}
			items = append(items, &budget.Item{
				Category: cat, Type: string(s.Type), Path: s.Path, Label: s.Label, Lang: lang,
				StartLine: c.StartLine, EndLine: c.EndLine, Source: text, Content: c.Content, Tokens: c.Tokens,
				Priority: p.e.cfg.Context.SourcePriority[cat], Kind: c.Kind, Name: c.Name, Seq: seq,
			})
			srcIndex = append(srcIndex, si)
			seq++
		}
	}
	p.srcOf = srcIndex
	return items, nil
}
