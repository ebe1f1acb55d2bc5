package pack

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// chunkCacheFiles bounds an engine's chunk cache ([Engine] chunks): the
// chunk boundaries of recently packed files, keyed by path, content hash,
// options and encoding, so a warm pack does not parse again. Entries hold
// no text (contents are re-cut on a hit), about 100 bytes a chunk.
const chunkCacheFiles = 4096

// newChunkCache returns an empty chunk cache.
func newChunkCache() *lru.Cache[[32]byte, []chunker.Chunk] {
	c, err := lru.New[[32]byte, []chunker.Chunk](chunkCacheFiles)
	if err != nil {
		panic(fmt.Sprintf("pack: chunk cache: %v", err)) // only for a size ≤ 0
	}
	return c
}

// chunkKey keys the engine's chunk cache: the path, the encoding, the
// options and the content, by four seeded 64-bit hashes.
func chunkKey(path, content string, opts chunker.Options, encoding string) [32]byte {
	head := fmt.Sprintf("%s\x00%s\x00%d/%d/%v/%v\x00", path, encoding, opts.MaxTokens, opts.MinTokens, opts.PreferStructural, opts.NoMerge)
	var k [32]byte
	for i, seed := range chunkKeySeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(head)
		h.WriteString(content)
		binary.LittleEndian.PutUint64(k[8*i:], h.Sum64())
	}
	return k
}

// chunkKeySeeds seed chunkKey's four hashes: random per process (the
// cache lives in the process), so no two texts can be made to collide in
// advance; four times as fast as SHA-256 over a pack's files.
var chunkKeySeeds = [4]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed()}

// categoryOf maps a source type to its budget category.
var categoryOf = map[collector.SourceType]string{
	collector.ToolResult:   budget.ToolResults,
	collector.OpenFile:     budget.OpenFiles,
	collector.SearchResult: budget.SearchResults,
	collector.Reference:    budget.References,
}

// chunk cuts every source into candidate items (docs/design.md#rule-4): files
// structurally, ranges and tool output into line windows. Sources are cut
// in parallel (one worker per CPU); items are assembled in source order, so
// the output does not depend on scheduling.
func (p *pipeline) chunk(srcs []source) ([]*budget.Item, error) {
	opts := p.chunkOptions()
	texts, datas := p.texts(srcs)
	cut := make([][]chunker.Chunk, len(srcs))
	p.cutAll(srcs, texts, datas, cut, opts)
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	total := stubChunks(srcs) // files a map summary stands for (mapsum.go)
	for i, c := range cut {
		total += len(c) + srcs[i].facts.packedCount() // packed: chunksOf makes them
	}
	if int64(total) > limits.candidates && !p.wantsMap(srcs) {
		return nil, candidatesError(total) // a map cuts to what its budget reaches (mapcut.go)
	}
	var keep map[string]bool // nil: every file's chunks
	if int64(total) > limits.candidates {
		var err error
		if keep, err = p.mapCutAhead(srcs, texts, cut); err != nil {
			return nil, err
		}
	}
	if err := p.loadStubs(srcs, cut, keep); err != nil {
		return nil, err
	}
	items, srcIndex, marks := p.items(srcs, texts, cut, keep)
	if keep == nil {
		p.stats.Chunks = len(items)
	}
	p.srcOf = srcIndex
	p.checkCopies(items, marks)
	return items, nil
}

// texts are the texts of srcs and their bytes, built before chunk's
// workers start: sources that share a text (one file named by many
// references) share its line index and bytes. A source not read (facts
// from the index) gets its own empty text, noted in p.phantoms and its
// identifiers in p.idents; a listed file's text is noted in p.refs.
func (p *pipeline) texts(srcs []source) ([]*budget.Text, [][]byte) {
	texts := make([]*budget.Text, len(srcs))
	datas := make([][]byte, len(srcs))
	shared := map[textKey]int{}
	for i, s := range srcs {
		if s.facts != nil {
			// Not read: its own empty text, which only a round that
			// needs it reads (mapindex.go).
			texts[i] = budget.NewText("")
			if p.phantoms == nil {
				p.phantoms, p.idents = map[*budget.Text]string{}, map[string]*fileFacts{}
			}
			p.phantoms[texts[i]] = s.AbsPath
			p.idents[s.Path] = s.facts
			continue
		}
		k := keyOf(s.Content)
		if j, ok := shared[k]; ok {
			texts[i], datas[i] = texts[j], datas[j]
			continue
		}
		shared[k] = i
		if s.kept != nil {
			texts[i], datas[i] = s.kept.text, s.kept.data
		} else {
			texts[i], datas[i] = budget.NewText(s.Content), []byte(s.Content)
		}
		if s.ref != nil {
			if p.refs == nil {
				p.refs = map[*budget.Text]collector.FileRef{}
			}
			p.refs[texts[i]] = *s.ref
		}
	}
	return texts, datas
}

// cutAll cuts each source of srcs into cut[i], one worker per CPU,
// storing in the index the facts of a map's files cut whole; it stops
// early when the context ends (the caller checks it).
func (p *pipeline) cutAll(srcs []source, texts []*budget.Text, datas [][]byte, cut [][]chunker.Chunk, opts chunker.Options) {
	var size int64
	for _, d := range datas {
		size += int64(len(d))
	}
	progress := newMeter(p.progress, "chunking", 30, 60, len(srcs), size)
	p.keepOutlines(srcs)
	order := largestFirst(datas)
	var next atomic.Int64
	var wg sync.WaitGroup
	var trim cTrim
	workers := min(runtime.GOMAXPROCS(0), max(1, len(srcs)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(order) || p.ctx.Err() != nil {
					return
				}
				i := order[k]
				if srcs[i].facts != nil {
					cut[i] = srcs[i].facts.chunks // no text: items gives each a placeholder (mapindex.go); nil when packed (chunksOf)
					continue
				}
				cut[i] = p.cutSource(srcs[i], datas[i], texts[i].Lines(), opts)
				if p.lean != nil && srcs[i].ref != nil && p.tok.Exact() && !srcs[i].ranged && len(cut[i]) > 0 && !p.lean.known(srcs[i].ref) {
					p.putFacts(srcs[i], datas[i], factsOf(cut[i]), indexChunkKey(opts, p.tok.Encoding()))
				}
				progress.done(int64(len(datas[i])))
				trim.cut(len(datas[i]))
			}
		}()
	}
	wg.Wait()
	// The trees are freed, but glibc keeps their heap: returned now, the
	// ranking and formatting that follow do not stack on it (Go's src first
	// pack: peak 135–143 → 125–126 MB).
	chunker.TrimC()
}

// largestFirst returns the indices of datas, the longest text first (ties
// in index order): cutAll's workers take the files so, so that the last
// file cut is a short one and neither worker waits long on the other (a
// 400 KB file is a quarter of Go's src first pack's parsing; in path
// order it came whenever its path did). The cuts land at their own index,
// so the order changes nothing but the time.
func largestFirst(datas [][]byte) []int {
	order := make([]int, len(datas))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(datas[order[a]]) > len(datas[order[b]]) })
	return order
}

// items assembles the candidate items of the sources srcs cut into cut, in
// source order, and the source index of each; for the files not read (a
// map answered from the index) also the hash marks of their chunks, by
// Seq ("" for a chunk at hand; nil when every text is at hand). With keep
// (a map cut ahead, mapcut.go), only the chunks of the files it holds and
// those without a file become items.
func (p *pipeline) items(srcs []source, texts []*budget.Text, cut [][]chunker.Chunk, keep map[string]bool) ([]*budget.Item, []int, []string) {
	var items []*budget.Item
	var srcIndex []int
	var marks []string
	xml := p.req.Format == FormatXML
	for si, s := range srcs {
		if s.facts == nil && !p.hasLines(s, texts[si].Lines()) {
			continue
		}
		if keep != nil && s.Path != "" && !keep[s.Path] {
			continue
		}
		cat := categoryOf[s.Type]
		lang := chunker.FenceLanguage(s.Path)
		for j, c := range chunksOf(s, cut[si]) {
			if s.facts != nil {
				c.Content = placeholder(p.markOf(s.facts, j))
			}
			if c.Content == "" {
				continue
			}
			if s.facts != nil && xml && s.facts.splits(j) {
				p.needText(texts[si]) // its CDATA split costs what only its text tells
			}
			items = append(items, &budget.Item{
				Category: cat, Type: string(s.Type), Origin: s.origin, Path: s.Path, Label: s.Label, Lang: lang,
				StartLine: c.StartLine, EndLine: c.EndLine, Source: texts[si], Content: c.Content, Tokens: c.Tokens,
				Priority: p.e.cfg.Context.SourcePriority[cat], Kind: c.Kind, Name: c.Name, Seq: len(items),
			})
			srcIndex = append(srcIndex, si)
			if len(p.phantoms) > 0 {
				m := "" // a chunk at hand
				if s.facts != nil {
					m = p.markOf(s.facts, j)
				}
				marks = append(marks, m)
			}
		}
	}
	return items, srcIndex, marks
}

// hasLines reports whether a source of n lines has lines to chunk (its
// range, if any, included); else it records why not.
func (p *pipeline) hasLines(s source, n int) bool {
	switch {
	case n == 0:
		p.exclude(collector.Exclusion{Type: s.Type, Path: s.Path, Reason: collector.ReasonEmpty, Detail: "no lines"}, s.origin)
		return false
	case s.ranged && s.StartLine > n:
		p.exclude(collector.Exclusion{Type: s.Type, Path: s.Path, Reason: collector.ReasonEmpty, Detail: fmt.Sprintf("range starts at line %d but the file has %d lines", s.StartLine, n)}, s.origin)
		return false
	}
	return true
}

// chunkOptions are the chunker's options of this pack.
func (p *pipeline) chunkOptions() chunker.Options {
	ch := p.e.cfg.Context.Chunking
	return chunker.Options{MaxTokens: p.chunkTokens(), MinTokens: ch.MinChunkTokens, PreferStructural: ch.PreferStructural, NoMerge: ch.MinChunkTokens == 0, Spans: spanCounter{p.tok}}
}

// fineChunkTokens is the chunk size of a pack ranked against a query
// (docs/ranking.md "Chunk size"): a 2,000-token function that holds the
// one line a task needs costs a quarter of an 8K budget, and a big chunk
// that mentions the query's words once outranks the small one that is about
// them. Cut finer, relevance is measured where the words are and the budget
// buys the parts that matter (docs/quality.md "Ablations").
const fineChunkTokens = 400

// rankedChunkTokens is the largest chunk of a pack: max_chunk_tokens, and at
// most fineChunkTokens when a query ranks the chunks (min_chunk_tokens
// still merges small neighbours).
func rankedChunkTokens(max int, query string, ablate []string) int {
	if strings.TrimSpace(query) == "" || max <= fineChunkTokens {
		return max
	}
	for _, a := range ablate {
		if a == featFine {
			return max
		}
	}
	return fineChunkTokens
}

// chunkTokens is the largest chunk of this pack, for the chunker and for
// dedup's merges of overlapping chunks (docs/design.md#rule-4).
func (p *pipeline) chunkTokens() int {
	return rankedChunkTokens(p.e.cfg.Context.Chunking.MaxChunkTokens, p.req.Query, p.e.Ablate)
}

// cutSource chunks one source of n lines; it is safe for concurrent use.
// data is s.Content as bytes (shared between sources of one text).
func (p *pipeline) cutSource(s source, data []byte, n int, opts chunker.Options) []chunker.Chunk {
	count := chunker.Counter(p.tok.Count)
	if chunks, ok := p.cutLines(s, data, n, count, opts); ok {
		return chunks
	}
	if s.kept != nil && p.tok.Exact() {
		ck := indexChunkKey(opts, p.tok.Encoding())
		if c, ok := s.kept.cut(ck); ok {
			return c
		}
		chunks := p.cutFile(s, data, n, count, opts)
		if len(chunks) > 0 && p.ctx.Err() == nil {
			s.kept.keepCut(ck, chunks)
		}
		return chunks
	}
	return p.cutFile(s, data, n, count, opts)
}

// cutFile is cutSource's structural cut of a file, from the engine's
// chunk cache or the index when they have it.
func (p *pipeline) cutFile(s source, data []byte, n int, count chunker.Counter, opts chunker.Options) []chunker.Chunk {
	key := chunkKey(s.Path, s.Content, opts, p.tok.Encoding())
	if c, ok := p.e.chunks.Get(key); ok {
		return withContent(c, s.Content)
	}
	idx := p.e.Index
	var ikey string
	if idx != nil && s.ref != nil && p.tok.Exact() {
		ikey = indexChunkKey(opts, p.tok.Encoding())
		if c, ok := idx.Chunks(*s.ref, data, ikey); ok && validChunks(c, len(data)) {
			chunks := withContent(c, s.Content)
			p.e.chunks.Add(key, c)
			return chunks
		}
	}
	chunks, err := p.split(s, data, count, opts)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil
		}
		return p.splitLines(data, 1, n, count, opts)
	}
	if p.tok.Exact() {
		slim := make([]chunker.Chunk, len(chunks))
		for i, ch := range chunks {
			ch.Content = "" // re-cut from the text on a hit: the cache holds no file text
			slim[i] = ch
		}
		p.e.chunks.Add(key, slim)
		if ikey != "" {
			idx.PutChunks(*s.ref, data, ikey, slim)
		}
	}
	return chunks
}

// split chunks a file with chunker.Split, or, when the pack keeps its
// files' outlines (aheadStore), with chunker.SplitOutline from the same
// parse, keeping the outline.
func (p *pipeline) split(s source, data []byte, count chunker.Counter, opts chunker.Options) ([]chunker.Chunk, error) {
	ahead := p.aheadStore()
	if ahead == nil {
		return chunker.Split(p.ctx, s.Path, data, count, opts)
	}
	chunks, rs, parsed, err := chunker.SplitOutline(p.ctx, s.Path, data, count, opts)
	if err == nil && parsed {
		ahead.put(s.Path, s.Content, rs)
	}
	return chunks, err
}

// cutLines is cutSource's cut of a source of n lines that is not cut
// structurally: nothing of an empty one or of a range past its end, a
// range or a tool result in line windows; ok false for the others.
func (p *pipeline) cutLines(s source, data []byte, n int, count chunker.Counter, opts chunker.Options) (_ []chunker.Chunk, ok bool) {
	switch {
	case n == 0:
		return nil, true
	case s.ranged:
		if s.StartLine > n {
			return nil, true
		}
		end := s.EndLine
		if end == 0 || end > n {
			end = n
		}
		return p.splitLines(data, s.StartLine, end, count, opts), true
	case s.Type == collector.ToolResult:
		return p.splitLines(data, 1, n, count, opts), true
	}
	return nil, false
}

// splitLines cuts lines start..end of data into line windows
// ([chunker.SplitLinesContext]); nothing when the request's context ends
// first (chunk returns its error).
func (p *pipeline) splitLines(data []byte, start, end int, count chunker.Counter, opts chunker.Options) []chunker.Chunk {
	chunks, err := chunker.SplitLinesContext(p.ctx, data, start, end, count, opts)
	if err != nil {
		return nil
	}
	return chunks
}

// withContent is a copy of chunks c (cached without text) with each
// one's Content cut from content.
func withContent(c []chunker.Chunk, content string) []chunker.Chunk {
	chunks := make([]chunker.Chunk, len(c))
	for i, ch := range c {
		ch.Content = content[ch.StartByte:ch.EndByte]
		chunks[i] = ch
	}
	return chunks
}

// indexChunkKey names the chunking of a file in the index: the options
// and the encoding (the index checks the content itself).
func indexChunkKey(opts chunker.Options, encoding string) string {
	return fmt.Sprintf("%s\x00%d/%d/%v/%v", encoding, opts.MaxTokens, opts.MinTokens, opts.PreferStructural, opts.NoMerge)
}

// validChunks reports whether chunks from the index cover a text of n
// bytes in order, whole (an entry is checked, never trusted).
func validChunks(chunks []chunker.Chunk, n int) bool {
	end := 0
	for _, c := range chunks {
		if c.StartByte != end || c.EndByte <= c.StartByte || c.EndByte > n || c.StartLine <= 0 || c.EndLine < c.StartLine {
			return false
		}
		end = c.EndByte
	}
	return end == n && len(chunks) > 0
}
