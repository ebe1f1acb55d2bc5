package pack

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// FileTerms is one file's term statistics for the file-level score
// (docs/ranking.md "File-first selection").
type FileTerms struct {
	// Length is the number of terms in the file as [Terms] splits it
	// (stop words and one-letter words dropped, every part of a compound
	// identifier and the compound itself counted).
	Length int
	// Counts holds the frequency of each asked query term that occurs in
	// the file (terms absent from it are absent from the map).
	Counts map[string]int
}

// FileIndex is a persistent per-file cache (package index implements it;
// nil means none). Every entry is keyed by the file's absolute path and
// validated by its stat (size, mtime ns, inode, mode); a content hash
// guards reuse after a stat change. Entries never hold file text or secret
// values: terms are stored as hashes, chunks as boundaries, kinds, names
// and counts computed from redacted content.
type FileIndex interface {
	// Terms returns the statistics of the asked terms for f, false on a miss.
	Terms(f collector.FileRef, terms []string) (FileTerms, bool)
	// PutTerms stores a file's full term table (every term it holds) after
	// it was read.
	PutTerms(f collector.FileRef, content []byte, all map[string]int)
	// Chunks returns the chunk boundaries and token counts cut for key
	// (options and encoding), false on a miss. Content fields are empty.
	Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool)
	// PutChunks stores the chunks cut from content for key.
	PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk)
	// Forget drops the entries of a path (didChangeWatchedFiles).
	Forget(abs string)
}

// TermHashIndex is a [FileIndex] that takes a file's terms as it stores
// them: the scan hands it each term's keyed hash and count (from one pass
// over the text that also counts the query's terms), never a table of
// strings. scanFiles uses it when the index implements it.
type TermHashIndex interface {
	// TermHasher returns the keyed hash the index stores the terms of the
	// file at abs under; nil when it stores nothing of that file.
	TermHasher(abs string) func(term []byte) uint64
	// PutTermHashes stores the terms of f read with content, each hashed
	// by TermHasher(f.Abs) (a hash may appear twice: two terms of the
	// file that share it; the index adds them up). The index keeps terms
	// as they are: the caller hands over a slice it does not use again.
	PutTermHashes(f collector.FileRef, content []byte, terms []TermHash)
}

// File-first selection (docs/ranking.md "File-first selection"): a walk
// with a query scores whole files before any is chunked.
const (
	// featFileFirst, ablated, chunks every walked file (the behaviour
	// before issue 14).
	featFileFirst = "filefirst"
	// candidateFactor: files are chunked in file rank order until their
	// estimated tokens reach candidateTarget (candidateFactor × the
	// available budget up to candidateBase tokens), each file counting at
	// most available/fileShare (a 100 KB bundle that holds every word of
	// the query is one file, not the whole target).
	candidateFactor = 8
	fileShare       = 8
	// candidateBase, candidateGrowth: above candidateBase available
	// tokens the target grows as available^candidateGrowth, not linearly
	// (candidateTarget).
	candidateBase   = 8000
	candidateGrowth = 0.75
	// minCandidateFiles: and at least this many files.
	minCandidateFiles = 64
	// bytesPerToken estimates a file's tokens from its size before it is
	// counted (code and prose run 3–4.5 bytes a token in o200k_base; the
	// high end makes the estimate low, so more files are chunked).
	bytesPerToken = 4
)

// fileScan is what the scan learned of one listed file.
type fileScan struct {
	ref   collector.FileRef
	size  int64    // bytes of text
	tf    []uint16 // occurrences of each query term (in queryTerms order)
	excl  *collector.Exclusion
	prose uint8   // isProseF as scoreFiles found: 1 no, 2 yes; 0 not known
	raw   float64 // file score before the built and test priors
	score float64 // file score
}

// fileSelection is the outcome of a file-first walk, kept for ranking and
// the report.
type fileSelection struct {
	terms  []string
	rest   []*fileScan // scanned files that were not chunked
	ranked int         // files scanned and scored
	kept   int         // files chunked
	bytes  int64       // text of the files not chunked
}

// fileFirst reports whether walked files are ranked before they are
// chunked: when the request has a query with terms (without one there is
// no signal to rank files by, and every file is chunked as before).
func (p *pipeline) fileFirst() bool {
	if len(queryTerms(p.queryText())) == 0 {
		return false
	}
	for _, a := range p.e.Ablate {
		if strings.TrimSpace(a) == featFileFirst {
			return false
		}
	}
	return true
}

// walkRanked lists the files under the request's paths without reading
// them, scans each once for the query's terms (in parallel, keeping no
// text), scores the files and reads, redacts and returns only the best
// ones until their estimated tokens comfortably exceed the budget. The
// others are counted in p.files; they are never parsed, counted or held.
// Sources are returned in path order and exclusions recorded in path
// order, as a walk of the same files would.
func (p *pipeline) walkRanked() ([]source, error) {
	ctx := p.ctx
	refs, scans, excls, total, err := p.listFiles()
	if err != nil {
		return nil, err
	}
	terms, _ := rankTerms(p.queryText(), newFeatures(p.e.Ablate))
	p.files = &fileSelection{terms: terms}
	if newFeatures(p.e.Ablate).vendored {
		paths := make([]string, len(refs))
		for i, r := range refs {
			paths[i] = r.Path
		}
		v := vendoredDirs(paths)
		p.vendored = &v
	}
	target := candidateTarget(p.alloc.Available)
	share := max(1, p.alloc.Available/fileShare)
	// When every file would be chunked whatever its score (few files, or
	// a target that covers the tree by the sizes listed), ranking is
	// skipped: the files are read as a walk reads them.
	var est int64
	for _, s := range scans {
		est += min(s.ref.Info.Size()/bytesPerToken, share)
	}
	keep := scans
	if est >= target && len(scans) > minCandidateFiles {
		progress := newMeter(p.progress, "ranking", 0, 20, len(scans), total)
		p.scanFiles(scans, terms, progress)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var texts []*fileScan
		for _, s := range scans {
			if s.excl != nil {
				excls = append(excls, *s.excl)
				continue
			}
			texts = append(texts, s)
		}
		p.scoreFiles(texts, terms)
		p.historyFiles(texts)
		var rest []*fileScan
		keep, rest = p.cutFiles(texts, target, share)
		p.files.ranked, p.files.kept, p.files.rest = len(texts), len(keep), rest
		for _, s := range p.files.rest {
			p.files.bytes += s.size
		}
		sort.Slice(keep, func(i, j int) bool { return keep[i].ref.Path < keep[j].ref.Path })
	}
	p.stats.FilesRanked, p.stats.FilesChunked, p.stats.BytesNotExamined = p.files.ranked, p.files.kept, p.files.bytes
	out, excls, err := p.readFiles(keep, excls)
	if err != nil {
		return nil, err
	}
	sort.Slice(excls, func(i, j int) bool {
		a, b := excls[i], excls[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Reason < b.Reason
	})
	for _, x := range excls {
		p.exclude(x, OriginWorkspace)
	}
	if p.files.kept < p.files.ranked {
		p.warnings = append(p.warnings, p.files.notice())
	}
	return out, nil
}

// candidateTarget is the estimated tokens of the files a file-first walk
// chunks for available tokens of budget: candidateFactor × available up
// to candidateBase, then candidateFactor × candidateBase ×
// (available/candidateBase)^candidateGrowth — 5.7× the budget at 32,000
// tokens, 4.3× at 100,000 (issue 24: Go's src at 100,000 chunked 169
// files, 1.2 M tokens of chunks, for 100,000 tokens of output). The
// margin over the budget is for files whose score misjudges their best
// chunks; a larger budget already takes more of the ranking, so it needs
// less of a margin in proportion. The factor 8 was measured at 8K
// (docs/quality.md "File-first selection"), the growth at 8K and 32K.
func candidateTarget(available int64) int64 {
	if available <= candidateBase {
		return candidateFactor * available
	}
	return int64(candidateFactor * candidateBase * math.Pow(float64(available)/candidateBase, candidateGrowth))
}

// listFiles lists the files under the request's paths that its include
// patterns let in, without reading them: their refs, a scan entry for
// each, the exclusions of the listing and the total bytes.
func (p *pipeline) listFiles() ([]collector.FileRef, []*fileScan, []collector.Exclusion, int64, error) {
	refs, listed, err := p.e.ws.List(p.ctx, collector.OpenFile, p.req.Paths...)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	var excls []collector.Exclusion
	for _, x := range listed {
		if included(p.req.Include, x.Path) {
			excls = append(excls, x)
		}
	}
	scans := make([]*fileScan, 0, len(refs))
	slab := make([]fileScan, len(refs)) // one allocation, not one per listed file
	var total int64
	for i, r := range refs {
		if included(p.req.Include, r.Path) {
			slab[i].ref = r
			scans = append(scans, &slab[i])
			total += r.Info.Size()
		}
	}
	return refs, scans, excls, total, nil
}

// readFiles reads and redacts the files kept (in parallel, in their
// order) and returns their sources and excls with the exclusions of the
// files the content rules refused added.
func (p *pipeline) readFiles(keep []*fileScan, excls []collector.Exclusion) ([]source, []collector.Exclusion, error) {
	ctx := p.ctx
	srcs := make([]source, len(keep))
	read := make([]*collector.Exclusion, len(keep))
	parallel(ctx, len(keep), func(i int) {
		s, kept, x := p.readRef(ctx, keep[i].ref) // keptfiles.go
		if x != nil {
			read[i] = x
			return
		}
		srcs[i] = source{Source: s, ref: &keep[i].ref, origin: OriginWorkspace, kept: kept}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	out := srcs[:0]
	for i := range srcs {
		if read[i] != nil {
			excls = append(excls, *read[i])
			continue
		}
		out = append(out, srcs[i])
	}
	return out, excls, nil
}

// notice is the warning of a file-first walk that left files unchunked.
func (f *fileSelection) notice() string {
	return fmt.Sprintf("%s files (%s) were ranked by the query's terms but not examined further: ranked below the %s files chunked",
		num(f.ranked-f.kept), mb(f.bytes), num(f.kept))
}

// LaterIndex is a [TermHashIndex] that takes the terms of the files a
// pack's scan missed after the pack has answered (the CLI: the first pack
// of a tree prints its answer, closes its output, then writes the index).
// With it the scan counts only the query's terms on a miss, as a pack
// without an index does, and hands the index a job that reads those
// files again (from the page cache) for their full term tables; without
// it the scan stores every term as it goes.
type LaterIndex interface {
	TermHashIndex
	// TermsLater reports whether the index takes the terms later.
	TermsLater() bool
	// Later keeps fill, run before the index is closed (after the
	// answer); fill stops early when the pack's context ends.
	Later(fill func())
}

// scanFiles reads each file once (in parallel; an index hit reads
// nothing), counts the query's terms in its raw text and drops the text.
// Files the content rules refuse get their exclusion. On a miss the file's
// terms go to the index: at once, from the same pass, or — when the index
// takes them later ([LaterIndex]) — from a job run after the answer.
func (p *pipeline) scanFiles(scans []*fileScan, terms []string, progress *meter) {
	idx := p.e.Index
	counter := newTermCounter(terms)
	var later LaterIndex
	if lx, ok := idx.(LaterIndex); ok && lx.TermsLater() {
		later = lx
	}
	missed := make([]bool, len(scans))
	nt := len(terms)
	rows := make([]uint16, len(scans)*nt) // every file's row, in one allocation
	parallel(p.ctx, len(scans), func(i int) {
		s := scans[i]
		s.tf = rows[i*nt : (i+1)*nt : (i+1)*nt]
		defer func() { progress.done(s.ref.Info.Size()) }()
		if idx != nil && p.scanHit(s, terms, counter.index) {
			return
		}
		if idx == nil || later != nil || keepsNoTerms(idx, s.ref.Abs) {
			// Only the query's terms are counted: the text is read into a
			// pooled buffer (kept nothing of). So too for a file the index
			// keeps nothing of (a warm pack's files that redaction touches:
			// 779 files, 38.7 MB on the 100K tree, read again every pack).
			s.excl = p.e.ws.ScanRaw(p.ctx, collector.OpenFile, s.ref, func(data []byte) {
				s.size = int64(len(data))
				counter.count(unsafe.String(unsafe.SliceData(data), len(data)), s.tf)
			})
			missed[i] = later != nil && s.excl == nil
			return
		}
		data, x := p.e.ws.ReadRaw(p.ctx, collector.OpenFile, s.ref)
		if x != nil {
			s.excl = x
			return
		}
		s.size = int64(len(data))
		p.scanMiss(s, data, terms, counter)
	})
	if later != nil {
		var refs []collector.FileRef
		for i, m := range missed {
			if m {
				refs = append(refs, scans[i].ref)
			}
		}
		if len(refs) > 0 {
			ctx, ws := p.ctx, p.e.ws
			later.Later(func() { fillTerms(ctx, ws, later, refs) })
		}
	}
}

// keepsNoTerms reports whether idx takes term hashes and stores none of
// the file at abs (scanMiss would only count the query's terms).
func keepsNoTerms(idx FileIndex, abs string) bool {
	hx, ok := idx.(TermHashIndex)
	return ok && hx.TermHasher(abs) == nil
}

// scanHit fills s from the index's entry of its file; false on a miss.
func (p *pipeline) scanHit(s *fileScan, terms []string, index map[string]int) bool {
	if !termRow(p.e.Index, s.ref, terms, index, s.tf) { // termmemo.go
		return false
	}
	s.size = s.ref.Info.Size()
	return true
}

// scanMiss counts the query's terms of a file the index missed, read as
// data, and stores every term of it in the index from the same pass.
func (p *pipeline) scanMiss(s *fileScan, data []byte, terms []string, counter *termCounter) {
	idx := p.e.Index
	text := unsafe.String(unsafe.SliceData(data), len(data))
	if hx, ok := idx.(TermHashIndex); ok {
		hash := hx.TermHasher(s.ref.Abs)
		if hash == nil {
			counter.count(text, s.tf) // the index keeps nothing of this file
			return
		}
		tab := termTabs.Get().(*termTab)
		tab.scan(text)
		for k, t := range terms {
			s.tf[k] = uint16(min(tab.count(t), math.MaxUint16))
		}
		hx.PutTermHashes(s.ref, data, tab.hashed(hash))
		tab.reset()
		termTabs.Put(tab)
		return
	}
	all := termTable(text)
	idx.PutTerms(s.ref, data, all)
	for k, t := range terms {
		s.tf[k] = uint16(min(all[t], math.MaxUint16))
	}
}

// fillTerms reads the files refs again (in parallel) and stores the terms
// of each in hx: the job a [LaterIndex] runs after the answer. A file
// that changed or went away since the scan is read as it is now (the
// entry is keyed by the stat the read checks) or skipped.
func fillTerms(ctx context.Context, ws *collector.Workspace, hx TermHashIndex, refs []collector.FileRef) {
	parallel(ctx, len(refs), func(i int) {
		f := refs[i]
		hash := hx.TermHasher(f.Abs)
		if hash == nil {
			return
		}
		// The table copies its terms and the index keeps nothing of the
		// text: a pooled buffer serves.
		ws.ScanRaw(ctx, collector.OpenFile, f, func(data []byte) {
			tab := termTabs.Get().(*termTab)
			tab.scan(unsafe.String(unsafe.SliceData(data), len(data)))
			hx.PutTermHashes(f, data, tab.hashed(hash))
			tab.reset()
			termTabs.Put(tab)
		})
	})
}

// scoreFiles gives each scanned file its file-level score, the chunk score
// of docs/ranking.md applied to the whole file with the signals that exist
// before parsing: BM25 over the files (length in bytes), the prose/code
// weighting of terms, file and directory name matches and the prose,
// built and test priors.
func (p *pipeline) scoreFiles(files []*fileScan, terms []string) {
	if len(files) == 0 {
		return
	}
	feat := newFeatures(p.e.Ablate)
	nt := len(terms)
	q := &query{feat: feat, terms: terms, index: make(map[string]int, nt), w: make([]float64, nt), lens: newLengths(terms)}
	for i, t := range terms {
		q.index[t] = i
	}
	q.setStems()
	facts, pt := p.pathFacts().lookup(files, q) // nil: none kept
	df, dfProse := make([]int, nt), make([]int, nt)
	prose := make([]bool, len(files))
	inBlocks(len(files), func(k int) { // a function of each path alone
		if facts != nil {
			prose[k] = facts[k].isProseF(feat)
		} else {
			prose[k] = isProseF(files[k].ref.Path, feat)
		}
	})
	nProse := 0
	var totalLen float64
	for k, f := range files {
		f.prose = 1
		if prose[k] {
			f.prose = 2
			nProse++
		}
		totalLen += float64(max(1, f.size))
		for i, c := range f.tf {
			if c > 0 {
				df[i]++
				if prose[k] {
					dfProse[i]++
				}
			}
		}
	}
	n := float64(len(files))
	nCode := len(files) - nProse
	for i := range terms {
		q.w[i] = termWeight(n, float64(df[i]), float64(nProse), float64(nCode), float64(dfProse[i]), feat.codeStat)
	}
	if feat.qtf {
		applyQTF(p.queryText(), terms, q.w, feat.qtfK)
	}
	scaleAdded(q.w, len(queryTerms(p.queryText())), feat)
	codeQuery := namesCode(p.queryText())
	q.setNameOK(codeMarked(p.queryText()), func(i int) bool {
		return !proseTypical(float64(df[i]), float64(nProse), float64(nCode), float64(dfProse[i]))
	})
	avg := totalLen / n
	inBlocks(len(files), func(k int) { // each file's score from its own counts and path
		f := files[k]
		s := textScore(q.w, f.tf, float64(max(1, f.size)), avg, feat, prose[k], codeQuery)
		if feat.names && facts != nil {
			s += pt.score(q, facts[k])
		} else if feat.names {
			s += q.pathScore(f.ref.Path)
		}
		f.raw = s
	})
}

// scoreBlock is how many files one goroutine of inBlocks takes at a time.
const scoreBlock = 2048

// inBlocks runs fn for 0 ≤ i < n, in blocks of scoreBlock spread over
// the CPUs when there are several blocks: file scoring's per-file work
// after the walk, when the second core is free (issue 24, warm11). Every
// i is done when it returns (no context: the work is short and fn only
// writes its own index).
func inBlocks(n int, fn func(i int)) {
	if n <= scoreBlock {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	parallel(context.Background(), (n+scoreBlock-1)/scoreBlock, func(b int) {
		for i := b * scoreBlock; i < min(n, (b+1)*scoreBlock); i++ {
			fn(i)
		}
	})
}

// historyFiles scales the scanned files' raw scores by their history
// factors (history.go): co-change partners of the best files and recently
// changed files are chunked before files the history says nothing of.
func (p *pipeline) historyFiles(files []*fileScan) {
	feat := newFeatures(p.e.Ablate)
	rw, cw := feat.recentW, feat.cochangeW
	if !feat.recent {
		rw = 0
	}
	if !feat.cochange {
		cw = 0
	}
	if len(files) == 0 || rw == 0 && cw == 0 && !feat.histWords {
		return
	}
	h := p.history(files[0].ref.Abs)
	if h == nil {
		return
	}
	scores := make(map[string]float64, len(files))
	for _, f := range files {
		scores[f.ref.Abs] = f.raw
	}
	fac := h.factors(scores, rw, cw)
	if feat.histWords {
		terms, _ := rankTerms(p.queryText(), feat)
		fac = mulFactors(fac, h.wordFactors(terms, scores, feat.histWordsW))
	}
	for _, f := range files {
		if x, ok := fac[f.ref.Abs]; ok {
			f.raw *= x
		}
	}
}

// prior is the built or test factor of a file's path times its place
// (examples, CI; see placeFactor); 1 for others.
func (p *pipeline) prior(path string) float64 {
	feat := newFeatures(p.e.Ablate)
	place := placeFactor(path, feat)
	if feat.built && (isBuilt(path) || p.vendored != nil && inVendored(path, *p.vendored)) {
		return builtFactor * place
	} else if feat.tests && isTest(path) {
		return testFactor * place
	}
	return place
}

// cutFiles orders the files by score (raw score × prior; ties path asc)
// and returns the best until their estimated tokens reach target, each
// counting at most share, and at least minCandidateFiles — and the rest.
// The priors (path patterns, the costly part on 100,000 files) are only
// computed while a file could still enter: files are taken in raw-score
// order, and once the files computed select enough and the next raw score
// is below the last selected score, no later file can be selected (a
// prior is at most 1).
func (p *pipeline) cutFiles(files []*fileScan, target, share int64) (keep, rest []*fileScan) {
	byScore := func(a []*fileScan, score func(*fileScan) float64) {
		slices.SortStableFunc(a, func(x, y *fileScan) int {
			if sx, sy := score(x), score(y); sx != sy {
				if sx > sy {
					return -1
				}
				return 1
			}
			return strings.Compare(x.ref.Path, y.ref.Path)
		})
	}
	byRaw := sortByRaw(files, byScore)
	done, batch := 0, 1024
	for {
		end := min(len(byRaw), done+batch)
		for _, f := range byRaw[done:end] {
			f.score = f.raw * p.prior(f.ref.Path)
		}
		done, batch = end, batch*2
		scored := append([]*fileScan(nil), byRaw[:done]...)
		byScore(scored, func(f *fileScan) float64 { return f.score })
		n, est := 0, int64(0)
		for n < len(scored) && (est < target || n < minCandidateFiles) {
			est += min(scored[n].size/bytesPerToken, share)
			n++
		}
		full := est >= target && n >= minCandidateFiles
		if done == len(byRaw) || full && byRaw[done].raw < scored[n-1].score {
			return scored[:n], append(scored[n:], byRaw[done:]...)
		}
	}
}

// sortByRaw returns files in byScore's order of raw scores (raw score
// descending, ties by path): the files of a raw score of 0 — most of a
// large tree's, holding no query term — are ordered by path alone (often
// already so: the listing's order), and the others sorted, then the two
// joined where the scores pass 0 (TestSortByRawIsSort).
func sortByRaw(files []*fileScan, byScore func([]*fileScan, func(*fileScan) float64)) []*fileScan {
	var some, zero []*fileScan
	for _, f := range files {
		if f.raw == 0 {
			zero = append(zero, f)
		} else {
			some = append(some, f)
		}
	}
	if !sortRawKeys(some) {
		byScore(some, func(f *fileScan) float64 { return f.raw })
	}
	byPath := func(x, y *fileScan) int { return strings.Compare(x.ref.Path, y.ref.Path) }
	if !slices.IsSortedFunc(zero, byPath) {
		slices.SortStableFunc(zero, byPath)
	}
	pos, _ := slices.BinarySearchFunc(some, 0.0, func(f *fileScan, _ float64) int {
		if f.raw > 0 {
			return -1
		}
		return 1
	})
	out := make([]*fileScan, 0, len(files))
	out = append(out, some[:pos]...)
	out = append(out, zero...)
	return append(out, some[pos:]...)
}

// rawKey is a file's raw score and place in a sort by it.
type rawKey struct {
	raw float64
	i   int32
	f   *fileScan
}

// sortRawKeys sorts files as byScore does by raw score (descending, ties
// by path, then stable) through keys holding each score and place: a
// sort of the 100K tree's tens of thousands of scored files without a
// call through a closure and a pointer per comparison (issue 24,
// warm11). The place makes the order total, so an unstable sort gives
// the stable one. False, leaving files alone, when a score is NaN (which
// orders nothing: byScore's sort decides).
func sortRawKeys(files []*fileScan) bool {
	keys := make([]rawKey, len(files))
	for i, f := range files {
		if math.IsNaN(f.raw) {
			return false
		}
		keys[i] = rawKey{raw: f.raw, i: int32(i), f: f}
	}
	slices.SortFunc(keys, func(x, y rawKey) int {
		switch {
		case x.raw > y.raw:
			return -1
		case x.raw < y.raw:
			return 1
		}
		if c := strings.Compare(x.f.ref.Path, y.f.ref.Path); c != 0 {
			return c
		}
		return int(x.i - y.i)
	})
	for i := range keys {
		files[i] = keys[i].f
	}
	return true
}

// corpusExtra is what the files ranked but not chunked add to the corpus
// statistics of chunk ranking; nil when every file was chunked. Each such
// file of b bytes counts as c = max(1, round(b / the mean bytes of a chunk
// of this pack)) chunks, and a term it holds tf times as present in
// c·(1 − (1 − 1/c)^tf) of them (tf occurrences spread over c chunks).
func (p *pipeline) corpusExtra(items []*budget.Item) *corpusExtra {
	f := p.files
	if f == nil || len(f.rest) == 0 || len(items) == 0 {
		return nil
	}
	var bytes int
	for _, it := range items {
		bytes += len(it.Content)
	}
	chunkBytes := max(1, float64(bytes)/float64(len(items)))
	nt := len(f.terms)
	x := &corpusExtra{df: make([]float64, nt), dfProse: make([]float64, nt)}
	var off []string
	if p.e != nil {
		off = p.e.Ablate
	}
	feat := newFeatures(off)
	for _, s := range f.rest {
		c := max(1, math.Round(float64(s.size)/chunkBytes))
		prose := s.prose == 2 || s.prose == 0 && isProseF(s.ref.Path, feat)
		x.n += c
		if prose {
			x.nProse += c
		}
		for i, tf := range s.tf {
			if tf == 0 {
				continue
			}
			d := c * (1 - math.Pow(1-1/c, float64(tf)))
			x.df[i] += d
			if prose {
				x.dfProse[i] += d
			}
		}
	}
	return x
}

// parallel calls fn(i) for i in [0, n) on GOMAXPROCS goroutines; it stops
// handing out work when ctx is done.
func parallel(ctx context.Context, n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(1, n))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
