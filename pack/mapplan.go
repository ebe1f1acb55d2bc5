package pack

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"sort"
	"sync"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// Map plans (docs/index.md "Map plans"). A map (a pack without a query)
// of a tree whose listing has not changed makes the same choices again:
// the same graph, centrality, order, outlines and fit. A map plan is
// those choices — the packed files and line ranges in rank order, with
// each range's count, score and kind, the exact count of the text and a
// keyed hash of it — stored by the index (package index, index/plan.go)
// under a key of everything else the map depends on (the program, the
// configuration, the request, the tokenizer, the chunking options) for a
// keyed digest of the listing (every listed file's paths and stat, the
// listing's exclusions). A warm map lists the tree, and on a plan of its
// key and listing reads only the planned files, renders them and counts
// the text exactly: the plan is used only when that text has the
// plan's count and hash, and fits; anything else (a file gone, refused,
// of other lines; a count or hash that differs) runs the whole map, which
// then writes the plan again.
//
// A plan answers only requests that read the text alone (Request.TextOnly,
// the command line's pack without --json or --report): its result has
// the content, count, budget and included entries of the map it
// replays, no excluded entries, dedup figures or stats.

// MapPlanStore keeps the map plans of one root (package index implements
// it, index/plan.go). Plans hold no path and no text: files are named by
// PathHash, the text by TextHash, both keyed with the per-user secret.
type MapPlanStore interface {
	// Listing returns a keyed digest of refs (paths and stat) and extra;
	// false when a stat cannot vouch for its file (no regular file, or one
	// changed too recently to tell the next change by its stat).
	Listing(refs []collector.FileRef, extra []byte) ([32]byte, bool)
	// Plan returns the plan stored under key, if it was made for listing.
	Plan(key, listing [32]byte) ([]byte, bool)
	// PutPlan stores plan under key for listing, replacing key's plan.
	PutPlan(key, listing [32]byte, plan []byte)
	// PathHash and TextHash are keyed hashes of a path and a text.
	PathHash(path string) uint64
	TextHash(text string) [16]byte
}

// MapPlans is what a [FileIndex] may also keep: map plans, per root.
type MapPlans interface {
	// MapPlans returns the plans of the root holding abs; nil when none.
	MapPlans(abs string) MapPlanStore
}

// mapPlanVersion names the plan's encoding and what the key covers.
const mapPlanVersion = "acode map plan v1"

// planner is the plan lookup of one map: the store, the map's key and
// the digest of its listing.
type planner struct {
	st           MapPlanStore
	key, listing [32]byte
	refs         []collector.FileRef
}

// planItem is one packed range of a plan, in rank order.
type planItem struct {
	file, start, end, tokens int
	score                    float64
	outline                  bool
}

// plan is a decoded map plan.
type plan struct {
	tokens int
	text   [16]byte
	files  []uint64 // keyed path hashes
	items  []planItem
}

// plannedReads, when set (by tests), is told each file a planned map reads.
var plannedReads func(abs string)

// planned runs a map from its plan when the request allows one, its key
// and listing have one, and the replayed text passes its checks (the
// result, true). Otherwise it returns the planner that stores the plan
// of the map that runs instead (nil: none is stored), the listing left
// in lean for the map's walk.
func (e *Engine) planned(p *pipeline, lean *leanMap, open []OpenDoc) (*planner, *Result) {
	if lean == nil || !e.plannable(p.req, open) {
		return nil, nil
	}
	mp, ok := IndexAs[MapPlans](e.Index)
	if !ok || p.resolve() != nil || !p.tok.Exact() || len(p.tok.Encoding()) >= len(tokenizer.FilePrefix) && p.tok.Encoding()[:len(tokenizer.FilePrefix)] == tokenizer.FilePrefix {
		return nil, nil
	}
	refs, excls, err := e.ws.List(p.ctx, collector.OpenFile, p.req.Paths...)
	if err != nil || len(refs) == 0 {
		return nil, nil
	}
	lean.refs, lean.excls, lean.listed = refs, excls, true
	st := mp.MapPlans(refs[0].Abs)
	if st == nil {
		return nil, nil
	}
	key, ok := p.planKey()
	if !ok {
		return nil, nil
	}
	listing, settled := st.Listing(refs, exclusionBytes(excls))
	if !settled {
		return nil, nil
	}
	pl := &planner{st: st, key: key, listing: listing, refs: refs}
	body, ok := st.Plan(key, listing)
	if !ok {
		return pl, nil
	}
	res, err := p.replay(pl, body)
	if err != nil {
		Logger(p.ctx).Debug("map plan not used", zap.String("why", err.Error()))
		return pl, nil
	}
	return nil, res
}

// plannable reports whether req may be answered from a plan: a map whose
// caller reads the text alone, with no open document, source or template.
func (e *Engine) plannable(req Request, open []OpenDoc) bool {
	openOut := req.IncludeOpenFiles != nil && !*req.IncludeOpenFiles
	return req.TextOnly && e.ws != nil && e.kept == nil && (len(open) == 0 || openOut) &&
		len(req.Sources) == 0 && req.Template == "" && req.Search == nil && len(req.Paths) > 0
}

// exe is what names this program in a plan's key: its path, size and
// modification time (a plan of another build is not used).
var exe = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	b, _ := json.Marshal([]any{p, fi.Size(), fi.ModTime().UnixNano()})
	return string(b)
})

// planKey is the digest of everything a map's output depends on besides
// its listing; false when the program cannot be named.
func (p *pipeline) planKey() ([32]byte, bool) {
	id := exe()
	cfg, err1 := json.Marshal(p.e.cfg)
	req, err2 := json.Marshal(p.req)
	alloc, err3 := json.Marshal(p.alloc)
	if id == "" || err1 != nil || err2 != nil || err3 != nil {
		return [32]byte{}, false
	}
	return p.mapKey(mapPlanVersion, id, string(cfg), string(req), string(alloc), p.model, p.tok.Encoding(),
		indexChunkKey(p.chunkOptions(), p.tok.Encoding())), true
}

// mapKey is the SHA-256 of parts and then of the request's ablations,
// each length-prefixed (writeString): the key of a map plan or summary.
func (p *pipeline) mapKey(parts ...string) [32]byte {
	h := sha256.New()
	for _, s := range parts {
		writeString(h, s)
	}
	for _, a := range p.e.Ablate {
		writeString(h, a)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func writeString(w io.Writer, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	w.Write(n[:])
	io.WriteString(w, s)
}

// exclusionBytes encodes a listing's exclusions for its digest.
func exclusionBytes(excls []collector.Exclusion) []byte {
	var b []byte
	for _, x := range excls {
		b = binary.AppendUvarint(b, uint64(x.Size))
		for _, s := range []string{string(x.Type), x.Path, string(x.Reason), x.Detail} {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

// errPlan is why a plan is not used (logged at debug).
var errPlan = errors.New("pack: map plan does not hold")

// replay renders the plan body of pl: the planned files read (through
// the collector, as the walk reads them), the items rebuilt, rendered in
// the request's format and counted; an error unless the text has the
// plan's count and hash and fits.
func (p *pipeline) replay(pl *planner, body []byte) (*Result, error) {
	pn, ok := decodePlan(body)
	if !ok {
		return nil, errPlan
	}
	refs, ok := pl.resolve(pn.files)
	if !ok {
		return nil, errPlan
	}
	srcs, texts, err := p.readPlanned(refs)
	if err != nil {
		return nil, err
	}
	items, err := p.plannedItems(pn.items, srcs, texts)
	if err != nil {
		return nil, err
	}
	f := newFormatter(p.tok.Count)
	render, err := p.renderer(f)
	if err != nil {
		return nil, err
	}
	text, err := render(items)
	if err != nil {
		return nil, err
	}
	// The plan's count is the exact count of the text it hashed, made by
	// this program with this tokenizer (both in the key): the same text
	// has that count, so it is not counted again — a planned map does not
	// build the tokenizer's tables (tokenizer.Preload).
	tokens := pn.tokens
	if pl.st.TextHash(text) != pn.text || tokens > int(p.alloc.Available) {
		return nil, errPlan
	}
	p.warnings = append(p.warnings, mapWarning)
	p.stats.Selected = len(items)
	p.time("planned")
	p.progress("done", 100)
	return p.result(text, tokens, items, f, budget.DedupStats{}), nil
}

// readPlanned reads the planned files through the collector, as the walk
// reads them (its rules, redaction); an error when one is refused now or
// left out by the request's include globs.
func (p *pipeline) readPlanned(refs []*collector.FileRef) ([]collector.Source, []*budget.Text, error) {
	srcs := make([]collector.Source, len(refs))
	texts := make([]*budget.Text, len(refs))
	for i, ref := range refs {
		if plannedReads != nil {
			plannedReads(ref.Abs)
		}
		s, x := p.e.ws.ReadRef(p.ctx, collector.OpenFile, *ref)
		if x != nil || !included(p.req.Include, ref.Path) {
			return nil, nil, errPlan
		}
		srcs[i], texts[i] = s, budget.NewText(s.Content)
	}
	return srcs, texts, p.ctx.Err()
}

// plannedItems are the items of a plan's ranges, in rank order, as the
// map made them (chunks and outline lines of walked files); an error when
// a range is not within its file's lines.
func (p *pipeline) plannedItems(pis []planItem, srcs []collector.Source, texts []*budget.Text) ([]*budget.Item, error) {
	items := make([]*budget.Item, 0, len(pis))
	for i, pi := range pis {
		s, t := srcs[pi.file], texts[pi.file]
		if pi.start < 1 || pi.end < pi.start || pi.end > t.Lines() {
			return nil, errPlan
		}
		cat := categoryOf[s.Type]
		it := &budget.Item{Category: cat, Type: string(s.Type), Origin: OriginWorkspace, Path: s.Path, Label: s.Label,
			Lang: chunker.FenceLanguage(s.Path), StartLine: pi.start, EndLine: pi.end, Source: t,
			Content: t.Slice(pi.start, pi.end), Tokens: pi.tokens, Score: pi.score,
			Priority: p.e.cfg.Context.SourcePriority[cat], Seq: i, Outline: pi.outline}
		if pi.outline {
			it.Kind = "outline"
		}
		items = append(items, it)
	}
	return items, nil
}

// resolve returns the listed file of each keyed path hash; false when one
// is not listed or two listed paths share a hash.
func (pl *planner) resolve(hashes []uint64) ([]*collector.FileRef, bool) {
	want := make(map[uint64]int, len(hashes))
	for i, h := range hashes {
		want[h] = i
	}
	out := make([]*collector.FileRef, len(hashes))
	for i := range pl.refs {
		j, ok := want[pl.st.PathHash(pl.refs[i].Path)]
		if !ok {
			continue
		}
		if out[j] != nil {
			return nil, false
		}
		out[j] = &pl.refs[i]
	}
	for _, r := range out {
		if r == nil {
			return nil, false
		}
	}
	return out, true
}

// put stores the plan of res, the map that ran for pl's key and listing:
// only a map of whole walked files with a text (else nothing is stored).
func (pl *planner) put(res *Result) {
	if res == nil || res.Content == "" || len(res.Included) == 0 {
		return
	}
	pn := plan{tokens: res.TokenCount, text: pl.st.TextHash(res.Content)}
	fileOf := map[string]int{}
	for _, e := range res.Included {
		if e.Type != string(collector.OpenFile) || e.Origin != OriginWorkspace || e.Label != "" || e.Path == "" {
			return
		}
		if !pl.listed(e.Path) {
			return
		}
		n, ok := fileOf[e.Path]
		if !ok {
			n = len(pn.files)
			fileOf[e.Path] = n
			pn.files = append(pn.files, pl.st.PathHash(e.Path))
		}
		pn.items = append(pn.items, planItem{file: n, start: e.StartLine, end: e.EndLine, tokens: e.Tokens, score: e.Score, outline: e.Detail == "outline"})
	}
	pl.st.PutPlan(pl.key, pl.listing, encodePlan(pn))
}

// listed reports whether path is a listed file's (the listing is in
// lexical order of Path, collector.Workspace.List).
func (pl *planner) listed(path string) bool {
	i := sort.Search(len(pl.refs), func(i int) bool { return pl.refs[i].Path >= path })
	return i < len(pl.refs) && pl.refs[i].Path == path
}

// encodePlan is a plan's bytes: the count, the text's hash, the files'
// path hashes, then per item its file, lines, count, score and kind.
func encodePlan(pn plan) []byte {
	b := []byte{1}
	b = binary.AppendUvarint(b, uint64(pn.tokens))
	b = append(b, pn.text[:]...)
	b = binary.AppendUvarint(b, uint64(len(pn.files)))
	for _, h := range pn.files {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	b = binary.AppendUvarint(b, uint64(len(pn.items)))
	for _, it := range pn.items {
		b = binary.AppendUvarint(b, uint64(it.file))
		b = binary.AppendUvarint(b, uint64(it.start))
		b = binary.AppendUvarint(b, uint64(it.end-it.start))
		b = binary.AppendUvarint(b, uint64(it.tokens))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(it.score))
		var fl byte
		if it.outline {
			fl = 1
		}
		b = append(b, fl)
	}
	return b
}

// recReader reads the bytes of a map plan or a map summary; ok turns
// false at the first fault.
type recReader struct {
	b  []byte
	ok bool
}

func (r *recReader) uvarint(bound uint64) int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > bound {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *recReader) bytes(n int) []byte {
	if len(r.b) < n {
		r.ok, r.b = false, nil
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *recReader) u64() uint64 {
	if len(r.b) < 8 {
		r.ok, r.b = false, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// decodePlan decodes encodePlan's bytes; false when they do not hold a
// plan (any count, line or file out of bounds, bytes left over).
func decodePlan(b []byte) (plan, bool) {
	if len(b) == 0 || b[0] != 1 {
		return plan{}, false
	}
	r := &recReader{b: b[1:], ok: true}
	const bound = 1 << 31
	pn := plan{tokens: r.uvarint(bound)}
	copy(pn.text[:], r.bytes(16))
	nf := r.uvarint(uint64(len(r.b) / 8))
	for i := 0; i < nf && r.ok; i++ {
		pn.files = append(pn.files, binary.LittleEndian.Uint64(r.bytes(8)))
	}
	ni := r.uvarint(uint64(len(r.b)))
	for i := 0; i < ni && r.ok; i++ {
		it := planItem{file: r.uvarint(uint64(max(nf-1, 0))), start: r.uvarint(bound)}
		it.end = it.start + r.uvarint(bound)
		it.tokens = r.uvarint(bound)
		it.score = math.Float64frombits(binary.LittleEndian.Uint64(r.bytes(8)))
		it.outline = r.bytes(1)[0] == 1
		pn.items = append(pn.items, it)
	}
	return pn, r.ok && len(r.b) == 0 && nf > 0 && ni > 0
}
