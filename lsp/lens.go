package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// lensChunkOptions asks the chunker for exactly one chunk per top-level
// declaration: no merging, and a limit no declaration reaches.
var lensChunkOptions = chunker.Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}

// liveTrees is how many documents keep their parsed tree between edits.
// Most edits re-parse only a window around them (chunker.Document); the
// tree serves the edits that leave a syntax error, which re-parse the
// whole file incrementally. A tree costs about as much C memory as tens of
// bytes per byte of source, so only the documents edited last keep one;
// the others parse from scratch when they need a whole parse again.
const liveTrees = 4

// liveDocs is how many documents keep the rest of their chunker state
// (top-level nodes and chunk counts, a few hundred bytes per declaration)
// so that their next edit re-parses a window; the others start again from
// a whole parse.
const liveDocs = 32

// lensChunk is what a code lens needs of a top-level chunk.
type lensChunk struct {
	line   int // 0-based first line
	end    int // 0-based last line
	tokens int
	// key names the chunk across versions of its document: its kind and
	// symbol name, or its kind and first line when it has no name, with
	// "#n" for the n-th repeat. What-if states of the previous version are
	// shown under the same key while the new version's are computed.
	key string
}

// lensCache keeps, per open document, the chunker's document (so an edit
// re-parses and re-counts only around itself) and the top-level chunks of
// the last version.
type lensCache struct {
	mu   sync.Mutex
	m    map[protocol.DocumentURI]*lensState
	live []*lensState // states holding a tree, most recently used last
}

// lensState is the lens state of one open document; mu serialises its updates.
type lensState struct {
	mu     sync.Mutex
	path   string
	cd     *chunker.Document
	doc    *document // the version chunks belong to
	enc    string
	chunks []lensChunk
	closed bool
	// settle, when set, settles the document's provisional chunks after
	// a quiet period (lens_settle.go).
	settle *time.Timer
}

// newLensCache returns an empty cache.
func newLensCache() *lensCache {
	return &lensCache{m: make(map[protocol.DocumentURI]*lensState)}
}

// chunks returns the top-level chunks of doc, counted with tok, and
// whether they are exact: an edit that leaves a syntax error is answered
// from the window around it parsed alone (chunker.Document.UpdateQuick),
// and settled later by a whole parse (lens_settle.go).
func (c *lensCache) chunks(ctx context.Context, doc *document, tok tokenizer.Tokenizer) ([]lensChunk, bool, error) {
	c.mu.Lock()
	st := c.m[doc.URI]
	if st == nil {
		st = &lensState{path: chunkPath(doc)}
		c.m[doc.URI] = st
	}
	c.mu.Unlock()

	st.mu.Lock()
	defer st.mu.Unlock()
	enc := tok.Encoding()
	if st.doc == doc && st.enc == enc {
		return st.chunks, st.cd == nil || !st.cd.Provisional(), nil
	}
	var (
		chunks []chunker.Chunk
		err    error
	)
	exact := true
	if st.closed {
		// Closed while this request ran: answer without keeping state.
		chunks, err = chunker.Split(ctx, st.path, []byte(doc.Text), tok.Count, lensChunkOptions)
	} else {
		if st.cd == nil {
			st.cd = chunker.NewDocument(st.path)
		} else if st.enc != enc {
			st.cd.Close() // its counts are of another encoding
		}
		opened := st.doc == nil
		chunks, exact, err = st.cd.UpdateQuick(ctx, doc.Text, tok.Count, lensChunkOptions)
		if opened {
			// A document only opened keeps no tree: most open documents
			// are never edited, and a tree costs tens of bytes per byte
			// of source. Its first edit re-parses a window, or the whole
			// file from scratch when it must.
			st.cd.DropTree()
		}
		c.touch(st)
	}
	if err != nil {
		return nil, false, fmt.Errorf("lsp: chunk %s: %w", doc.URI, err)
	}
	st.doc, st.enc, st.chunks = doc, enc, topChunks(chunks)
	return st.chunks, exact, nil
}

// topChunks returns the lens chunks of the top-level chunks.
func topChunks(chunks []chunker.Chunk) []lensChunk {
	top := make([]lensChunk, 0, len(chunks))
	seen := map[string]int{}
	for _, ch := range chunks {
		if ch.TopLevel {
			key := lensKey(ch)
			if n := seen[key]; n > 0 {
				seen[key] = n + 1
				key += "#" + strconv.Itoa(n)
			} else {
				seen[key] = 1
			}
			top = append(top, lensChunk{line: ch.StartLine - 1, end: ch.EndLine - 1, tokens: ch.Tokens, key: key})
		}
	}
	return top
}

// lensKey is the key of a chunk before repeats are numbered: its kind and
// name, or its kind and trimmed first line.
func lensKey(ch chunker.Chunk) string {
	if ch.Name != "" {
		return ch.Kind + "\x00" + ch.Name
	}
	first, _, _ := strings.Cut(ch.Content, "\n")
	return ch.Kind + "\x01" + strings.TrimSpace(first)
}

// touch marks st (locked by the caller) as the most recently updated: the
// state liveTrees places behind it frees its tree, and the state liveDocs
// places behind it all of its chunker state.
func (c *lensCache) touch(st *lensState) {
	c.mu.Lock()
	for i, s := range c.live {
		if s == st {
			c.live = append(c.live[:i], c.live[i+1:]...)
			break
		}
	}
	c.live = append(c.live, st)
	var tree, all *lensState
	if n := len(c.live); n > liveTrees {
		tree = c.live[n-liveTrees-1]
	}
	if len(c.live) > liveDocs {
		all = c.live[0]
		c.live = c.live[1:]
	}
	c.mu.Unlock()
	// Never wait for a state that is busy: it is being updated, and its
	// tree goes at its next turn here.
	if tree != nil && tree != st && tree.mu.TryLock() {
		if tree.cd != nil {
			tree.cd.DropTree()
			scheduleTrim()
		}
		tree.mu.Unlock()
	}
	if all != nil && all != st {
		if all.mu.TryLock() {
			if all.cd != nil {
				all.cd.Close()
			}
			all.mu.Unlock()
		} else {
			c.mu.Lock()
			c.live = append([]*lensState{all}, c.live...) // try again on the next touch
			c.mu.Unlock()
		}
	}
}

// drop frees the state of a closed document.
func (c *lensCache) drop(u protocol.DocumentURI) {
	c.mu.Lock()
	st := c.m[u]
	delete(c.m, u)
	for i, s := range c.live {
		if s == st {
			c.live = append(c.live[:i], c.live[i+1:]...)
			break
		}
	}
	c.mu.Unlock()
	if st != nil {
		st.close()
	}
}

// closeAll frees every state (at exit).
func (c *lensCache) closeAll() {
	c.mu.Lock()
	states := c.m
	c.m = make(map[protocol.DocumentURI]*lensState)
	c.live = nil
	c.mu.Unlock()
	for _, st := range states {
		st.close()
	}
}

// close frees the state's tree for good.
func (st *lensState) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.settle != nil {
		st.settle.Stop()
	}
	if !st.closed {
		st.closed = true
		if st.cd != nil {
			st.cd.Close()
			scheduleTrim()
		}
	}
}

// chunkPath is the path the chunker picks a grammar by: the file's path,
// or for an untitled document a name with the extension of its language.
func chunkPath(doc *document) string {
	if doc.Path != "" {
		return doc.Path
	}
	name := "untitled"
	if u, err := url.Parse(string(doc.URI)); err == nil {
		if p := u.Opaque + u.Path; p != "" {
			name = path.Base(p)
		}
	}
	if path.Ext(name) == "" {
		name += languageExt[doc.Language]
	}
	return name
}

// languageExt maps LSP language identifiers to a file extension.
var languageExt = map[string]string{
	"go": ".go", "python": ".py", "javascript": ".js", "javascriptreact": ".jsx",
	"typescript": ".ts", "typescriptreact": ".tsx", "rust": ".rs", "java": ".java",
	"c": ".c", "cpp": ".cpp", "csharp": ".cs", "markdown": ".md",
}

// formatTokens is the token part of a lens title: "1,234 tokens", with "≈"
// in front when the count is not exact.
func formatTokens(n int, exact bool) string {
	if exact {
		return thousands(n) + " tokens"
	}
	return "≈" + thousands(n) + " tokens"
}

// thousands formats n with commas between groups of three digits
// (34099 → "34,099").
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// percentOf returns part/whole·100 rounded to one decimal.
func percentOf(part, whole int) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(int64(float64(part)*1000/float64(whole)+0.5)) / 10
}
