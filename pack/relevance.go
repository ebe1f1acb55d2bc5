package pack

import (
	"context"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Relevance features that the evaluation can switch off one at a time
// (Engine.Ablate; docs/quality.md "Ablations").
const (
	featBM25     = "bm25"       // tf saturation and length normalisation (off: share of query terms present)
	featProse    = "prose"      // code-over-prose prior
	featFile     = "file"       // evidence of the whole file
	featNames    = "names"      // symbol-name and path matches
	featCodeStat = "codestat"   // query words typical of prose rather than code weigh less
	featBuilt    = "built"      // built, bundled and vendored files weigh less
	featTests    = "tests"      // test files weigh a little less
	featFine     = "fine"       // chunks of at most fineChunkTokens when ranking against a query
	featNeigh    = "neighbours" // a chunk next to a relevant one gains part of its score
	// featCodeNames: name and path bonuses only for query words that look
	// like code (marked in the query, or not typical of prose here). It
	// did not gain on the evaluation and is off; "+codenames" turns it on.
	featCodeNames = "codenames"
	featExamples  = "examples" // example and demo folders weigh less
	featCI        = "ci"       // CI configuration weighs less
	featHTML      = "html"     // .html/.htm files are prose
	// featImports: a file's import block joins when the query names a
	// symbol or module it imports.
	featImports = "imports"
	// featStemNames: names and paths also match query words by stem. It
	// did not gain on the evaluation and is off; "+stemnames" turns it on.
	featStemNames = "stemnames"
)

type features struct {
	bm25, prose, file, names, codeStat, built, tests, neigh  bool
	recent, cochange, graph                                  bool
	codeNames, examples, ci, html, imports, stemNames        bool
	testPairs, spread, issueRefs, vendored                   bool
	defs, callers, importsAll, testCallers, importsFloor     bool
	fileHead, cover, requires, testNames, testTail, testCap  bool
	prf, prfOther, graphAdd, qtf, abbrev, fileQuota, fileDoc bool
	histWords, histBody, intraFile, recentLines              bool
	recentLinesFloor                                         bool
	// recentLinesW, recentLinesK and recentLinesN are recentLinesWeight,
	// recentLinesCommits and recentLinesFiles (recentlines.go;
	// "recentlinesw=x", "recentlinesk=x", "recentlinesn=x").
	recentLinesW, recentLinesK, recentLinesN float64
	// intraFileW is intraFileWeight, intraFileN intraFileFiles and
	// intraFileK intraFileSeeds; intraFileMode 1 follows only the names
	// a seed uses, 2 only those it defines (intrafile.go; "intrafilew=x",
	// "intrafilen=x", "intrafilek=x", "intrafilemode=x").
	intraFileW, intraFileN, intraFileK, intraFileMode float64
	// histWordsW is histWordsWeight and histWordsN the commits whose
	// messages are read (histwords.go; "histwordsw=x", "histwordsn=x").
	histWordsW, histWordsN float64
	// fileDocW is fileDocWeight (filedoc.go, "filedocw=x").
	fileDocW float64
	// fileQuotaN and fileQuotaF are fileQuotaFiles and fileQuotaFactor
	// (spread.go; "filequotan=x", "filequotaf=x").
	fileQuotaN, fileQuotaF float64
	// qtfK is qtfK3 (qtf.go, "qtfk=x"); abbrevW abbrevWeight (abbrev.go,
	// "abbrevw=x").
	qtfK, abbrevW float64
	// graphAddN and graphAddW are graphAddFiles and graphAddWeight
	// (graphadd.go; "graphaddn=x", "graphaddw=x").
	graphAddN, graphAddW float64
	// prfK, prfN and prfW are prfFiles, prfTerms and prfWeight
	// (feedback.go; "prfk=x", "prfn=x", "prfw=x").
	prfK, prfN, prfW float64
	// importsN and importsAllW are importsAllFiles and importsAllWeight
	// (expand.go; tuning runs: "importsn=x", "importsallw=x").
	importsN, importsAllW float64
	// defsW and callersW are defsWeight and callersWeight ("defsw=x",
	// "callersw=x").
	defsW, callersW float64
	// vendoredDirs are the pack's vendored-copy directories (vendored.go),
	// set by the pipeline.
	vendoredDirs []string
	// weights of the file signals; an ablation "NAME=x" sets one (the
	// evaluation's tuning runs): graphw, cochangew, recentw.
	graphW, cochangeW, recentW float64
	// testPairW scales the test-partner gain (pairs.go), spreadDecay the
	// score of each further chunk of a file (spread.go).
	testPairW, spreadDecay float64
	// spreadStep scales a file's chunks after its best (spread.go,
	// "spreadstep=x").
	spreadStep float64
	// coverW is coverWeight (cover.go, "coverw=x"); testF is testFactor
	// ("testf=x").
	coverW, testF float64
	// k1 and b replace bm25K1 and bm25B when set (tuning runs:
	// "bm25k1=x", "bm25b=x").
	k1, b float64
	// proseMul scales both prose priors (tuning runs: "prosem=x"; 0 or
	// 1: as they are).
	proseMul float64
	// testTailW is testTailWeight (testnames.go, "testtailw=x").
	testTailW float64
	// fileW and neighW are fileWeight and neighbourWeight (tuning runs:
	// "filew=x", "neighw=x").
	fileW, neighW float64
}

func newFeatures(off []string) features {
	f := features{bm25: true, prose: true, file: true, names: true, codeStat: true, built: true, tests: true, neigh: true,
		recent: true, cochange: true, graph: true, examples: true, ci: true, html: true, imports: true,
		spread: true, vendored: true, importsAll: true,
		graphW: graphWeight, cochangeW: cochangeWeight, recentW: recentFactor,
		testPairW: testPairWeight, spreadDecay: spreadDecay, spreadStep: spreadStep, fileW: fileWeight, neighW: neighbourWeight,
		coverW: coverWeight, testF: testFactor, testTailW: testTailWeight, importsN: importsAllFiles, importsAllW: importsAllWeight, defsW: defsWeight, callersW: callersWeight,
		prfK: prfFiles, prfN: prfTerms, prfW: prfWeight, graphAddN: graphAddFiles, graphAddW: graphAddWeight, qtfK: qtfK3, abbrevW: abbrevWeight,
		fileQuotaN: fileQuotaFiles, fileQuotaF: fileQuotaFactor, fileDocW: fileDocWeight,
		histWordsW: histWordsWeight, histWordsN: historyCommits, intraFileW: intraFileWeight, intraFileN: intraFileFiles, intraFileK: intraFileSeeds,
		recentLinesW: recentLinesWeight, recentLinesK: recentLinesCommits, recentLinesN: recentLinesFiles}
	for _, o := range off {
		o = strings.TrimSpace(o)
		if k, v, ok := strings.Cut(o, "="); ok {
			x, err := strconv.ParseFloat(v, 64)
			if set := featureWeights[k]; set != nil && err == nil && x >= 0 {
				set(&f, x)
			}
			continue
		}
		on := strings.HasPrefix(o, "+")
		if set := featureSwitches[strings.TrimPrefix(o, "+")]; set != nil {
			set(&f, on)
		}
	}
	return f
}

// featureSwitches sets a feature by its name: "NAME" in Engine.Ablate
// switches it off, "+NAME" on (the features measured without gain are
// off by default; docs/quality.md "Ablations").
var featureSwitches = map[string]func(f *features, on bool){
	featBM25:         func(f *features, on bool) { f.bm25 = on },
	featProse:        func(f *features, on bool) { f.prose = on },
	featFile:         func(f *features, on bool) { f.file = on },
	featNames:        func(f *features, on bool) { f.names = on },
	featCodeStat:     func(f *features, on bool) { f.codeStat = on },
	featBuilt:        func(f *features, on bool) { f.built = on },
	featTests:        func(f *features, on bool) { f.tests = on },
	featNeigh:        func(f *features, on bool) { f.neigh = on },
	featHistory:      func(f *features, on bool) { f.recent, f.cochange = on, on },
	featRecent:       func(f *features, on bool) { f.recent = on },
	featCochange:     func(f *features, on bool) { f.cochange = on },
	featGraph:        func(f *features, on bool) { f.graph = on },
	featCodeNames:    func(f *features, on bool) { f.codeNames = on },
	featExamples:     func(f *features, on bool) { f.examples = on },
	featCI:           func(f *features, on bool) { f.ci = on },
	featHTML:         func(f *features, on bool) { f.html = on },
	featImports:      func(f *features, on bool) { f.imports = on },
	featStemNames:    func(f *features, on bool) { f.stemNames = on },
	featTestPairs:    func(f *features, on bool) { f.testPairs = on },
	featSpread:       func(f *features, on bool) { f.spread = on },
	featIssueRefs:    func(f *features, on bool) { f.issueRefs = on },
	featVendored:     func(f *features, on bool) { f.vendored = on },
	featDefs:         func(f *features, on bool) { f.defs = on },
	featCallers:      func(f *features, on bool) { f.callers = on },
	featImportsAll:   func(f *features, on bool) { f.importsAll = on },
	featTestCallers:  func(f *features, on bool) { f.testCallers = on },
	featImportsFloor: func(f *features, on bool) { f.importsFloor = on },
	featFileHead:     func(f *features, on bool) { f.fileHead = on },
	featCover:        func(f *features, on bool) { f.cover = on },
	featRequires:     func(f *features, on bool) { f.requires = on },
	featTestNames:    func(f *features, on bool) { f.testNames = on },
	featTestTail:     func(f *features, on bool) { f.testTail = on },
	featTestCap:      func(f *features, on bool) { f.testCap = on },
	featPRF:          func(f *features, on bool) { f.prf = on },
	featPRFOther:     func(f *features, on bool) { f.prfOther = on },
	featGraphAdd:     func(f *features, on bool) { f.graphAdd = on },
	featQTF:          func(f *features, on bool) { f.qtf = on },
	featAbbrev:       func(f *features, on bool) { f.abbrev = on },
	featFileQuota:    func(f *features, on bool) { f.fileQuota = on },
	featFileDoc:      func(f *features, on bool) { f.fileDoc = on },
	featHistWords:    func(f *features, on bool) { f.histWords = on },
	featHistBody:     func(f *features, on bool) { f.histBody = on },
	featIntraFile:    func(f *features, on bool) { f.intraFile = on },
	featRecentLines:  func(f *features, on bool) { f.recentLines = on },
	featRecentFloor:  func(f *features, on bool) { f.recentLinesFloor = on },
}

// featureWeights sets a weight of the file signals by its name
// ("NAME=x" in Engine.Ablate; the evaluation's tuning runs).
var featureWeights = map[string]func(f *features, x float64){
	"graphw":        func(f *features, x float64) { f.graphW = x },
	"cochangew":     func(f *features, x float64) { f.cochangeW = x },
	"recentw":       func(f *features, x float64) { f.recentW = x },
	"testpairw":     func(f *features, x float64) { f.testPairW = x },
	"spreadd":       func(f *features, x float64) { f.spreadDecay = x },
	"spreadstep":    func(f *features, x float64) { f.spreadStep = x },
	"filew":         func(f *features, x float64) { f.fileW = x },
	"neighw":        func(f *features, x float64) { f.neighW = x },
	"importsn":      func(f *features, x float64) { f.importsN = x },
	"importsallw":   func(f *features, x float64) { f.importsAllW = x },
	"defsw":         func(f *features, x float64) { f.defsW = x },
	"callersw":      func(f *features, x float64) { f.callersW = x },
	"coverw":        func(f *features, x float64) { f.coverW = x },
	"testf":         func(f *features, x float64) { f.testF = x },
	"prosem":        func(f *features, x float64) { f.proseMul = x },
	"bm25k1":        func(f *features, x float64) { f.k1 = x },
	"bm25b":         func(f *features, x float64) { f.b = x },
	"testtailw":     func(f *features, x float64) { f.testTailW = x },
	"prfk":          func(f *features, x float64) { f.prfK = x },
	"prfn":          func(f *features, x float64) { f.prfN = x },
	"prfw":          func(f *features, x float64) { f.prfW = x },
	"graphaddn":     func(f *features, x float64) { f.graphAddN = x },
	"graphaddw":     func(f *features, x float64) { f.graphAddW = x },
	"qtfk":          func(f *features, x float64) { f.qtfK = x },
	"abbrevw":       func(f *features, x float64) { f.abbrevW = x },
	"filequotan":    func(f *features, x float64) { f.fileQuotaN = x },
	"filequotaf":    func(f *features, x float64) { f.fileQuotaF = x },
	"filedocw":      func(f *features, x float64) { f.fileDocW = x },
	"histwordsw":    func(f *features, x float64) { f.histWordsW = x },
	"histwordsn":    func(f *features, x float64) { f.histWordsN = x },
	"intrafilew":    func(f *features, x float64) { f.intraFileW = x },
	"intrafilen":    func(f *features, x float64) { f.intraFileN = x },
	"intrafilek":    func(f *features, x float64) { f.intraFileK = x },
	"intrafilemode": func(f *features, x float64) { f.intraFileMode = x },
	"recentlinesw":  func(f *features, x float64) { f.recentLinesW = x },
	"recentlinesk":  func(f *features, x float64) { f.recentLinesK = x },
	"recentlinesn":  func(f *features, x float64) { f.recentLinesN = x },
}

// Ranking constants (docs/ranking.md; each measured in docs/quality.md).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// proseFactor scales the term score of prose (documentation,
	// changelogs) when the query names an identifier or anything of the
	// code; proseFactorPlain when it does not.
	proseFactor      = 0.5
	proseFactorPlain = 0.8
	// nameWeight is the weight of query terms found in the chunk's symbol
	// name (the chunk defines it) and pathWeight of those in its file name.
	nameWeight = 1.0
	pathWeight = 0.5
	// fileWeight is the weight of the file's best chunk score added to each
	// of its chunks.
	fileWeight = 0.25
	// neighbourWeight is the share of the better adjacent chunk's score (same
	// file, touching lines) a chunk gains: the code the task needs is often
	// just before or after the lines that name it.
	neighbourWeight = 0.3
	// builtFactor scales built, bundled, minified and vendored files (a
	// copy of the code, not the code); testFactor test files.
	builtFactor = 0.25
	testFactor  = 0.7
	// exampleFactor scales examples and demos, ciFactor CI configuration.
	exampleFactor = 0.5
	ciFactor      = 0.5
	// importsWeight is the share of its file's best score an import block
	// gains when it imports what the query names.
	importsWeight = 0.5
)

// maxQueryTerms caps the distinct query terms used.
const maxQueryTerms = 64

// query is a search query prepared for lexical relevance over a set of
// chunks: per-term weights from the chunks' statistics and every chunk's
// raw score, normalised by the best.
type query struct {
	feat  features
	lens  *lengths // skips most words before they are lowered
	terms []string
	index map[string]int
	w     []float64 // weight of each term
	raw   []float64 // raw score by Item.Seq
	best  float64
	// fileBest is each file's best chunk score (by path) before file
	// evidence and neighbours.
	fileBest map[string]float64
	// nameOK: the term may earn name and path bonuses (featCodeNames).
	nameOK []bool
	// stems indexes the terms by stem for name matches (featStemNames).
	stems map[string]int
	// needles are the terms and stems one of which a name holding a term
	// holds (mayName); nil: not known, every name is scanned.
	needles []string
	// importHit: the chunk (by Item.Seq) is an import block holding a
	// term the query marks as code.
	importHit map[int]bool
	// testPartners are the test files named after the best library
	// chunks or files, with their factors (testnames.go).
	testPartners map[string]float64
	// coverMask is each file's distinct query terms (bit i: term i;
	// featCover, cover.go).
	coverMask map[string]uint64
	// fileDocs is each file's summed counts (featFileDoc, filedoc.go).
	fileDocs map[string]*fileDoc
	// recentHunks are the lines the last commits of the best files
	// changed, by path (featRecentLines, recentlines.go).
	recentHunks map[string][]lineSpan
	// hashes are the terms' hashes as chunkTermsMemo keeps them
	// (chunkterms.go), made on first use.
	hashes []uint64
	// counter counts the terms in a chunk the memo does not answer
	// (termcount.go), made on first use.
	counter *termCounter
}

// newQuery splits the query into identifier-aware terms (see [Terms]) and
// scores every chunk (docs/ranking.md):
//
//	w(t)   = idf(t) · prose(t)
//	idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))      over the N chunks
//	bm25   = Σ w(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))   len in tokens
//	raw    = bm25 · prior + nameWeight·Σ_{t in symbol name} w(t) + pathWeight·Σ_{t in file name} w(t)
//	       + fileWeight · max raw of the chunk's file
//
// prose(t) ≤ 1 lowers words that are typical of documentation rather than
// code (their document frequency among prose chunks exceeds that among code
// chunks); prior < 1 for prose chunks. relevance = raw / max raw. It
// returns nil for an empty query.
//
// extra, when not nil, holds the chunks of files that were ranked at file
// level but never chunked (docs/ranking.md "File-first selection"): their
// estimated number and document frequencies join N and df, so the term
// weights are those of the whole corpus and not of the preselected files.
func newQuery(text string, items []*budget.Item, feat features, extra *corpusExtra) *query {
	q := scoreQuery(context.Background(), text, items, feat, extra)
	if q != nil {
		q.finish(items, nil)
	}
	return q
}

// scoreQuery is the first half of [newQuery]: term weights and each
// chunk's own score (BM25, names, priors), before file evidence and
// neighbours; q.fileBest holds each file's best chunk score. Signals of
// whole files (history.go, graph.go) scale these scores before
// [query.finish] adds file evidence and neighbours.
func scoreQuery(ctx context.Context, text string, items []*budget.Item, feat features, extra *corpusExtra) *query {
	terms, orig := rankTerms(text, feat)
	if len(terms) == 0 || len(items) == 0 {
		return nil
	}
	q := &query{feat: feat, terms: terms, index: make(map[string]int, len(terms)), w: make([]float64, len(terms))}
	q.lens = newLengths(terms)
	for i, t := range terms {
		q.index[t] = i
	}
	codeQuery := namesCode(text)
	maxSeq := 0
	for _, it := range items {
		maxSeq = max(maxSeq, it.Seq)
	}
	c, ok := q.countChunks(ctx, items, feat)
	if !ok {
		return nil
	}
	n := float64(len(items))
	nCode := len(items) - c.nProse
	nP, nC := float64(c.nProse), float64(nCode)
	if extra != nil {
		n, nP, nC = n+extra.n, nP+extra.nProse, nC+extra.n-extra.nProse
	}
	for i := range terms {
		d, dp := c.docFreq(i, extra)
		q.w[i] = termWeight(n, d, nP, nC, dp, feat.codeStat)
	}
	if feat.qtf {
		applyQTF(text, terms, q.w, feat.qtfK)
	}
	scaleAdded(q.w, orig, feat)
	marked := codeMarked(text)
	q.setStems()
	q.setNameOK(marked, func(i int) bool {
		d, dp := c.docFreq(i, extra)
		return !proseTypical(d, nP, nC, dp)
	})
	if feat.imports && len(marked) > 0 {
		q.markImports(items, c.tf, marked)
	}
	q.scoreChunks(items, c.tf, c.prose, float64(c.totalLen)/n, maxSeq, codeQuery)
	return q
}

// chunkCounts is what scoreQuery counts over the chunks.
type chunkCounts struct {
	tf       []uint16 // each chunk's row of term frequencies, chunk by chunk
	df       []int    // chunks holding each term
	dfProse  []int    // prose chunks holding each term
	prose    []bool   // the chunk is prose
	nProse   int      // prose chunks
	totalLen int      // tokens over the chunks, at least 1 each
}

// countChunks counts the query's terms in each of items; ok is false when
// ctx ended first (checked every cancelEvery items).
func (q *query) countChunks(ctx context.Context, items []*budget.Item, feat features) (c chunkCounts, ok bool) {
	nt := len(q.terms)
	c = chunkCounts{
		tf:      make([]uint16, len(items)*nt),
		df:      make([]int, nt),
		dfProse: make([]int, nt),
		prose:   make([]bool, len(items)),
	}
	for k, it := range items {
		if k%cancelEvery == cancelEvery-1 && ctx.Err() != nil {
			return c, false
		}
		row := c.tf[k*nt : (k+1)*nt]
		q.count(it.Content, row)
		c.prose[k] = isProseF(it.Path, feat)
		if c.prose[k] {
			c.nProse++
		}
		c.totalLen += max(1, it.Tokens)
		for i, f := range row {
			if f > 0 {
				c.df[i]++
				if c.prose[k] {
					c.dfProse[i]++
				}
			}
		}
	}
	return c, true
}

// docFreq returns term i's document frequency over all chunks and over
// prose ones, adding those of the wider corpus extra when there is one.
func (c *chunkCounts) docFreq(i int, extra *corpusExtra) (d, dp float64) {
	d, dp = float64(c.df[i]), float64(c.dfProse[i])
	if extra != nil {
		d, dp = d+extra.df[i], dp+extra.dfProse[i]
	}
	return d, dp
}

// markImports marks the import blocks among items (tf: their term counts,
// len(q.terms) a row) that hold a term the query marks as code.
func (q *query) markImports(items []*budget.Item, tf []uint16, marked map[string]bool) {
	nt := len(q.terms)
	for k, it := range items {
		if it.Kind != "imports" {
			continue
		}
		for i, f := range tf[k*nt : (k+1)*nt] {
			if f > 0 && marked[q.terms[i]] {
				if q.importHit == nil {
					q.importHit = map[int]bool{}
				}
				q.importHit[it.Seq] = true
				break
			}
		}
	}
}

// scoreChunks sets each chunk's own score (q.raw, by Item.Seq up to
// maxSeq) — BM25 over its term counts tf (prose: the chunk is prose; avg:
// the mean length), name and path matches, the built, test and place
// priors — and q.fileBest.
func (q *query) scoreChunks(items []*budget.Item, tf []uint16, prose []bool, avg float64, maxSeq int, codeQuery bool) {
	feat, nt := q.feat, len(q.terms)
	q.raw = make([]float64, maxSeq+1)
	fileBest := map[string]float64{}
	type pathInfo struct {
		built, test  bool
		score, place float64
	}
	paths := map[string]*pathInfo{}
	for k, it := range items {
		row := tf[k*nt : (k+1)*nt]
		q.addCover(it.Path, row)
		q.addFileDoc(it.Path, row, it.Tokens)
		s := textScore(q.w, row, float64(max(1, it.Tokens)), avg, feat, prose[k], codeQuery)
		pi := paths[it.Path]
		if pi == nil {
			pi = &pathInfo{built: isBuilt(it.Path) || inVendored(it.Path, feat.vendoredDirs), test: isTest(it.Path), place: placeFactor(it.Path, feat)}
			if feat.names {
				pi.score = q.pathScore(it.Path)
			}
			paths[it.Path] = pi
		}
		if feat.names {
			s += q.nameScore(it.Name) + pi.score
		}
		if feat.built && pi.built {
			s *= builtFactor
		} else if feat.tests && pi.test {
			s *= feat.testF
		}
		s *= pi.place
		q.raw[it.Seq] = s
		if it.Path != "" && s > fileBest[it.Path] {
			fileBest[it.Path] = s
		}
	}
	q.fileBest = fileBest
}

// finish scales each chunk's own score by its file's factor (1 when
// absent), then adds file evidence and neighbours and finds the best.
func (q *query) finish(items []*budget.Item, fileFactor map[string]float64) {
	feat := q.feat
	q.applyFileFactors(items, mulFactors(mulFactors(mulFactors(fileFactor, q.coverFactors()), q.fileDocFactors()), q.testNameFactors(items)))
	q.expand(items)
	fileBest := q.fileBest
	base := make([]float64, len(items))
	for k, it := range items {
		base[k] = q.raw[it.Seq]
	}
	for k, it := range items {
		add := 0.0
		if feat.file && it.Path != "" {
			add += feat.fileW * fileBest[it.Path]
		}
		if q.importHit[it.Seq] {
			add += importsWeight * fileBest[it.Path]
		}
		if feat.neigh && it.Source != nil {
			nb := 0.0
			if k > 0 && items[k-1].Source == it.Source && items[k-1].EndLine+1 >= it.StartLine {
				nb = base[k-1]
			}
			if k+1 < len(items) && items[k+1].Source == it.Source && it.EndLine+1 >= items[k+1].StartLine {
				nb = max(nb, base[k+1])
			}
			add += feat.neighW * nb
		}
		q.raw[it.Seq] += add
		q.best = max(q.best, q.raw[it.Seq])
	}
	q.allocate(items)
}

// allocate applies the switched-on reshaping of scores across files
// (spread.go): spread, then the file quota.
func (q *query) allocate(items []*budget.Item) {
	if q.feat.spread {
		q.spread(items)
	}
	if q.feat.fileQuota {
		q.fileQuota(items)
	}
}

// applyFileFactors multiplies each chunk's own score and each file's best
// score by the file's factor (1 when absent).
func (q *query) applyFileFactors(items []*budget.Item, fileFactor map[string]float64) {
	if len(fileFactor) == 0 {
		return
	}
	for _, it := range items {
		if f, ok := fileFactor[it.Path]; ok && it.Path != "" {
			q.raw[it.Seq] *= f
		}
	}
	for p, f := range fileFactor {
		if _, ok := q.fileBest[p]; ok {
			q.fileBest[p] *= f
		}
	}
}

// corpusExtra is the part of the corpus a query's term weights count
// beyond the chunks it ranks: estimated chunk counts and document
// frequencies (by term, in the order of queryTerms) of files not chunked.
type corpusExtra struct {
	n, nProse   float64
	df, dfProse []float64
}

// queryTerms is the distinct terms of a query, at most maxQueryTerms.
func queryTerms(text string) []string {
	terms := uniq(termsOf(text))
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	return terms
}

// nameScore weighs the query terms in a chunk's symbol name: the chunk
// defines what the query names.
func (q *query) nameScore(name string) float64 {
	if name == "" {
		return 0
	}
	return q.nameMatch(name, nameWeight)
}

// pathScore weighs the query terms in a file's name (without extension)
// and its directory's name.
func (q *query) pathScore(p string) float64 {
	if p == "" {
		return 0
	}
	base := path.Base(p)
	if ext := path.Ext(base); ext != "" && len(ext) < len(base) {
		base = base[:len(base)-len(ext)]
	}
	dir := path.Base(path.Dir(p))
	if !q.mayName(base) && !q.mayName(dir) {
		return 0 // no term has a space: none is in the two joined either
	}
	return q.nameMatch(base+" "+dir, pathWeight)
}

// nameMatch is weight × the sum of the weights of the query terms among
// the terms of a name (each once). With featStemNames a name's term also
// matches a query term of the same stem ("pooling" names StringPool,
// "merging" merge.ts): names are few words, where a stem cannot drown
// the match in noise as it did in text (docs/quality.md).
func (q *query) nameMatch(name string, weight float64) float64 {
	if !q.mayName(name) {
		return 0
	}
	s := 0.0
	seen := uint64(0)
	lens := q.lens
	if q.stems != nil {
		lens = nil // a stem may be shorter than any query term
	}
	scanTerms(name, false, lens, func(t []byte) {
		i, ok := q.index[string(t)]
		if !ok && q.stems != nil {
			i, ok = q.stems[stem(string(t))]
		}
		if ok && seen&(1<<i) == 0 && q.nameAllowed(i) {
			seen |= 1 << i
			s += weight * q.w[i]
		}
	})
	return s
}

// stem is a light stem for name matching: -ing, -ed, then a final -e
// removed from words long enough ("pooling" → pool, "merging", "merge" →
// merg, "parsed", "parse" → pars).
func stem(t string) string {
	switch {
	case len(t) > 5 && strings.HasSuffix(t, "ing"):
		t = t[:len(t)-3]
	case len(t) > 4 && strings.HasSuffix(t, "ed"):
		t = t[:len(t)-2]
	}
	if len(t) > 3 && strings.HasSuffix(t, "e") {
		t = t[:len(t)-1]
	}
	return t
}

// setStems indexes the query terms by stem (featStemNames).
func (q *query) setStems() {
	q.needles = append(q.needles[:0], q.terms...)
	if !q.feat.stemNames {
		return
	}
	q.stems = make(map[string]int, len(q.terms))
	for i, t := range q.terms {
		if len(t) >= 4 {
			if _, ok := q.stems[stem(t)]; !ok {
				q.stems[stem(t)] = i
				q.needles = append(q.needles, stem(t))
			}
		}
	}
}

// mayName reports whether nameMatch may find a query term in name: false
// when name is ASCII and, lowered without its underscores, holds none of
// q.needles — every term scanTerms makes of an ASCII name (a part, the
// compound, a plural cut) is a substring of that, and a stem is a prefix
// of its term; true when q.needles are not known.
func (q *query) mayName(name string) bool {
	if q.needles == nil {
		return true
	}
	var stack [128]byte
	low := stack[:0]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return true // a non-ASCII letter may lower to an ASCII one
		}
		if c != '_' {
			low = append(low, lowerASCII(c))
		}
	}
	ls := unsafe.String(unsafe.SliceData(low), len(low))
	for _, n := range q.needles {
		if strings.Contains(ls, n) {
			return true
		}
	}
	return false
}

// count adds the occurrences of each query term in text to row.
func (q *query) count(text string, row []uint16) {
	if q.countRemembered(text, row) { // chunkterms.go
		return
	}
	if q.counter == nil {
		terms := make([]string, len(q.index)) // as q.index numbers them
		for t, i := range q.index {
			terms[i] = t
		}
		q.counter = newTermCounter(terms)
	}
	q.counter.count(text, row) // scanTerms' terms (TestTermCounterMatchesScanTerms)
}

// relevance is the chunk's raw score over the best raw score, in [0,1].
func (q *query) relevance(it *budget.Item) float64 {
	if q.best <= 0 || it.Seq >= len(q.raw) {
		return 0
	}
	return min(1, q.raw[it.Seq]/q.best)
}

// proseExt are the extensions of documentation files.
var proseExt = map[string]bool{".md": true, ".markdown": true, ".rst": true, ".txt": true, ".adoc": true, ".asciidoc": true, ".textile": true, ".rdoc": true, ".org": true}

// proseBase are name prefixes of documentation files without a telling
// extension (CHANGES, HISTORY.md, …).
var proseBase = []string{"changelog", "changes", "history", "news", "readme", "authors", "contributors", "contributing", "license", "notice", "security", "code_of_conduct"}

// isProse reports whether a path is documentation or a changelog rather
// than code.
func isProse(p string) bool {
	if p == "" {
		return false
	}
	base := strings.ToLower(path.Base(p))
	if proseExt[path.Ext(base)] {
		return true
	}
	for _, b := range proseBase {
		if strings.HasPrefix(base, b) {
			return true
		}
	}
	return false
}

var (
	builtPath = regexp.MustCompile(`(^|/)(dist|build|vendor|node_modules|third_party|bower_components|out|target)/|\.(min|bundle|umd|cjs\.min)\.[cm]?js$|\.map$|(^|/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|go\.sum|poetry\.lock|Cargo\.lock)$`)
	testPath  = regexp.MustCompile(`(^|/)(tests?|__tests__|spec|testdata|fixtures?)/|_test\.go$|(^|/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.java$|(^|/)conftest\.py$`)
)

// isBuilt reports whether a path holds built, bundled, minified or vendored
// code or a lock file.
func isBuilt(p string) bool { return p != "" && matchPath(builtPath, p) }

// isTest reports whether a path is a test file or test data.
func isTest(p string) bool { return p != "" && matchPath(testPath, p) }

// namesCode reports whether a query names something of the code: an
// identifier with an inner capital, an underscore, a dot or a call
// ("getRandomValues", "normalize_path", "Client.close()"), or code in
// backticks.
func namesCode(text string) bool {
	if strings.Contains(text, "`") || strings.Contains(text, "()") {
		return true
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:!?\"'()[]{}<>", r) }) {
		w = strings.Trim(w, "._")
		if strings.HasPrefix(w, "#") || strings.Contains(w, "://") {
			continue
		}
		var prev rune
		for _, r := range w {
			// an inner capital after a lower-case letter (getRandomValues;
			// not HTTP), or an inner underscore or dot (normalize_path,
			// Client.close)
			if unicode.IsLower(prev) && unicode.IsUpper(r) || prev != 0 && (r == '_' || r == '.') {
				return true
			}
			prev = r
		}
	}
	return false
}

var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true, "can": true,
	"do": true, "does": true, "for": true, "from": true, "how": true, "i": true, "if": true, "in": true, "is": true,
	"it": true, "of": true, "on": true, "or": true, "the": true, "this": true, "that": true, "to": true, "what": true,
	"when": true, "where": true, "which": true, "who": true, "why": true, "with": true, "we": true, "my": true,
}

// Terms splits text into lower-case terms, identifier-aware: words are cut at
// non-alphanumerics, underscores, camelCase humps and digit boundaries
// ("parseHTTPRequest2" → parse, http, request, 2; "normalize_path" →
// normalize, path), and a compound identifier also yields itself without
// underscores ("parsehttprequest2", "normalizepath", so that normalizePath
// meets normalize_path). Stop words and one-letter terms are dropped, and a
// plural "s" is removed ("carts" → "cart"; not "ss"). A stemmer of -ed,
// -ing and -e was measured and left out (docs/quality.md "Ablations").
func Terms(text string) []string { return termsOf(text) }

func termsOf(text string) []string {
	var out []string
	scanTerms(text, true, nil, func(t []byte) { out = append(out, string(t)) })
	return out
}

// lengths is a quick filter of the words that may become a wanted term:
// by length (bit n of lens: a term has n bytes, bit 63: a longer one) and
// by the first two bytes, lower-cased.
type lengths struct {
	lens   uint64
	prefix [1 << 14]uint64 // bitmap indexed by the two lower-cased leading bytes
}

func newLengths(terms []string) *lengths {
	l := &lengths{}
	for _, t := range terms {
		l.lens |= 1 << min(len(t), 63)
		if len(t) >= 2 {
			k := uint32(t[0])<<8 | uint32(t[1])
			l.prefix[k>>6] |= 1 << (k & 63)
		}
	}
	return l
}

// may reports whether an ASCII word of n bytes (after removing
// underscores) that starts with a, b can become a wanted term.
func (l *lengths) may(a, b byte, n, slack int) bool {
	n = min(n, 63)
	lo := max(0, n-slack)
	if l.lens&(((uint64(1)<<(n-lo+1))-1)<<lo) == 0 {
		return false
	}
	if 'A' <= a && a <= 'Z' {
		a += 'a' - 'A'
	}
	if 'A' <= b && b <= 'Z' {
		b += 'a' - 'A'
	}
	k := uint32(a)<<8 | uint32(b)
	return l.prefix[k>>6]&(1<<(k&63)) != 0
}

// scanTerms calls fn with each term of text (see [Terms]); the slice is
// only valid during the call. ASCII words take a fast path. Stop words are
// dropped only when stop is set (matching against query terms, which hold
// none, can skip that lookup). A non-nil lens skips ASCII words that cannot
// become a wanted term (by length and leading bytes) before they are
// lowered.
func scanTerms(text string, stop bool, lens *lengths, fn func([]byte)) {
	sc := termScanner{buf: make([]byte, 0, 64), stop: stop, lens: lens, fn: fn}
	i := 0
	for i < len(text) {
		// Skip to the start of a word.
		if c := text[i]; c < utf8.RuneSelf {
			if !asciiWord(c) {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRuneInString(text[i:]); !isWordRune(r) {
			i += size
			continue
		}
		start, ascii := i, true
		for i < len(text) {
			if c := text[i]; c < utf8.RuneSelf {
				if !asciiWord(c) {
					break
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				break
			}
			ascii = false
			i += size
		}
		word := strings.Trim(text[start:i], "_")
		if word == "" {
			continue
		}
		parts := 0
		part := func(p string) {
			parts++
			sc.emit(p, ascii, false)
		}
		if ascii {
			forEachPartASCII(word, part)
		} else {
			forEachPart(word, part)
		}
		if parts > 1 {
			sc.emit(word, ascii, true)
		}
	}
}

// termScanner turns the words scanTerms finds into terms.
type termScanner struct {
	buf  []byte // the term being made
	stop bool   // drop stop words
	lens *lengths
	fn   func([]byte)
}

// emit calls sc.put with word unless sc.lens says that no wanted term
// can come of the ASCII word (by its length and leading bytes, a compound
// without its underscores) before it is lowered.
func (sc *termScanner) emit(word string, ascii, compound bool) {
	const slack = 1 // the plural s
	if sc.lens != nil && ascii && len(word) >= 2 {
		if compound && strings.IndexByte(word, '_') >= 0 {
			w := strings.ReplaceAll(word, "_", "")
			if len(w) < 2 || !sc.lens.may(w[0], w[1], len(w), slack) {
				return
			}
		} else if !sc.lens.may(word[0], word[1], len(word), slack) {
			return // no wanted term can come of the word
		}
	}
	sc.put(word, ascii)
}

// put calls sc.fn with word lowered, its underscores dropped and a plural
// s cut, unless it is shorter than 2 bytes or a stop word (sc.stop).
func (sc *termScanner) put(word string, ascii bool) {
	buf := sc.buf[:0]
	if ascii {
		for i := 0; i < len(word); i++ {
			c := word[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			} else if c == '_' {
				continue
			}
			buf = append(buf, c)
		}
	} else {
		buf = appendLowered(buf, word)
	}
	sc.buf = buf
	if len(buf) < 2 || sc.stop && stopwords[string(buf)] {
		return
	}
	if len(buf) > 3 && buf[len(buf)-1] == 's' && buf[len(buf)-2] != 's' {
		buf = buf[:len(buf)-1] // a plural s: "carts" → "cart"
	}
	sc.fn(buf)
}

// appendLowered appends the non-ASCII word to buf lowered, without its
// underscores.
func appendLowered(buf []byte, word string) []byte {
	for _, r := range word {
		if r == '_' {
			continue
		}
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// forEachPartASCII is forEachPart for ASCII words.
func forEachPartASCII(w string, fn func(string)) {
	start := 0
	for i := 1; i < len(w); i++ {
		prev, cur := w[i-1], w[i]
		if cur == '_' {
			if i > start {
				fn(w[start:i])
			}
			start = i + 1
			continue
		}
		if prev == '_' {
			continue
		}
		if wordBoundary(w, i, asciiClasses[prev], asciiClasses[cur]) {
			fn(w[start:i])
			start = i
		}
	}
	if start < len(w) {
		fn(w[start:])
	}
}

// forEachPart cuts an identifier at underscores, camelCase humps and
// letter/digit borders.
func forEachPart(w string, fn func(string)) {
	start := 0
	var prev rune = -1
	for i, cur := range w {
		if cur == '_' {
			if i > start {
				fn(w[start:i])
			}
			start = i + 1
			prev = -1
			continue
		}
		if prev >= 0 {
			next, _ := utf8.DecodeRuneInString(w[i+utf8.RuneLen(cur):])
			if i+utf8.RuneLen(cur) >= len(w) {
				next = 0
			}
			cut := (unicode.IsLower(prev) && unicode.IsUpper(cur)) ||
				(unicode.IsUpper(prev) && unicode.IsUpper(cur) && next != 0 && unicode.IsLower(next)) ||
				(unicode.IsDigit(prev) != unicode.IsDigit(cur))
			if cut {
				fn(w[start:i])
				start = i
			}
		}
		prev = cur
	}
	if start < len(w) {
		fn(w[start:])
	}
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// termWeight is a query term's weight: BM25's IDF over n texts, d of which
// hold the term, lowered when it is more typical of the nP prose texts (dp
// of them hold it) than of the nC code texts — a word of commit messages
// and changelogs ("fix", "issue") is frequent in prose and rare in code.
// Chunks (relevance.go) and whole files (filescore.go) are weighed alike.
// proseTypical reports whether a term is more typical of the nP prose
// texts (dp of the d holding it) than of the nC code texts.
func proseTypical(d, nP, nC, dp float64) bool {
	if nP <= 0 || nC <= 0 {
		return false
	}
	return (dp+0.5)/(nP+1) > (d-dp+0.5)/(nC+1)
}

// setNameOK decides which terms may earn name and path bonuses: with
// featCodeNames, those the query marks as code and those not typical of
// prose in this workspace (notProse(i)); all of them without it. Generic
// words of a task ("parse", "save", "command") then stop scoring through
// file and symbol names they happen to share.
func (q *query) setNameOK(marked map[string]bool, notProse func(i int) bool) {
	q.nameOK = make([]bool, len(q.terms))
	for i, t := range q.terms {
		q.nameOK[i] = !q.feat.codeNames || marked[t] || notProse(i)
	}
}

// nameAllowed reports whether term i may earn a name or path bonus.
func (q *query) nameAllowed(i int) bool { return q.nameOK == nil || q.nameOK[i] }

// codeMarked returns the terms of the query's words that look like code:
// identifiers with an inner capital after a lower-case letter, an inner
// underscore or dot (getRandomValues, normalize_path, Client.close), a
// word followed by "()" and anything in backticks.
func codeMarked(text string) map[string]bool {
	out := map[string]bool{}
	add := func(w string) {
		scanTerms(w, true, nil, func(t []byte) { out[string(t)] = true })
	}
	forEachBackticked(text, add)
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;!?\"'[]{}<>`", r) }) {
		if c, ok := codeWord(w); ok {
			add(c)
		}
	}
	return out
}

// forEachBackticked calls fn with the text of each pair of backticks in
// text.
func forEachBackticked(text string, fn func(string)) {
	for rest := text; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			return
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			return
		}
		fn(rest[i+1 : i+1+j])
		rest = rest[i+1+j+1:]
	}
}

// codeWord returns the part of the query word w that looks like code, and
// whether there is one: the name before "()", else the word (trimmed of
// dots, underscores and parentheses) when it has an inner capital after a
// lower-case letter or an inner underscore or dot. URLs and "#" references
// are not code.
func codeWord(w string) (string, bool) {
	if strings.Contains(w, "://") {
		return "", false // a URL
	}
	w = strings.Trim(w, ":")
	if i := strings.Index(w, "()"); i > 0 {
		return w[:i], true
	}
	w = strings.Trim(w, "._()")
	if strings.HasPrefix(w, "#") || strings.Contains(w, "://") {
		return "", false
	}
	var prev rune
	for _, r := range w {
		if unicode.IsLower(prev) && unicode.IsUpper(r) || prev != 0 && (r == '_' || r == '.') {
			return w, true
		}
		prev = r
	}
	return "", false
}

var (
	examplePath = regexp.MustCompile(`(?i)(^|/)(examples?|samples?|demos?|_examples)/`)
	ciPath      = regexp.MustCompile(`(^|/)(\.github|\.circleci|\.gitlab|\.buildkite|\.azure-pipelines)/|(^|/)(\.travis\.yml|\.gitlab-ci\.yml|appveyor\.yml|Jenkinsfile|azure-pipelines\.yml|\.pre-commit-config\.yaml)$`)
)

// placeFactor is the prior of where a file lives: examples and demos
// (exampleFactor) and CI configuration (ciFactor) are seldom what a task
// changes and crowd the code out; 1 for others.
func placeFactor(p string, feat features) float64 {
	if p == "" {
		return 1
	}
	if feat.examples && matchPath(examplePath, p) {
		return exampleFactor
	}
	if feat.ci && matchPath(ciPath, p) {
		return ciFactor
	}
	return 1
}

// isProseF is isProse with the html feature: .html and .htm files are
// prose too (rendered documentation).
func isProseF(p string, feat features) bool {
	if isProse(p) {
		return true
	}
	if feat.html {
		switch strings.ToLower(path.Ext(p)) {
		case ".html", ".htm":
			return true
		}
	}
	return false
}

func termWeight(n, d, nP, nC, dp float64, codeStat bool) float64 {
	w := math.Log(1 + (n-d+0.5)/(d+0.5))
	if codeStat && nP > 0 && nC > 0 {
		rp := (dp + 0.5) / (nP + 1)
		rc := (d - dp + 0.5) / (nC + 1)
		if rp > rc {
			w *= max(0.25, rc/rp)
		}
	}
	return w
}

// textScore is the lexical score of one text (a chunk, or a whole file in
// file-first selection) of the given length against the average: BM25
// over the query terms' weights w and the text's term counts tf, or the
// weighted share of terms present when the bm25 feature is off; prose is
// scaled by the prose prior.
func textScore(w []float64, tf []uint16, length, avg float64, feat features, prose, codeQuery bool) float64 {
	s, present, all := 0.0, 0.0, 0.0
	k1, b := bm25K1, bm25B
	if feat.k1 > 0 {
		k1 = feat.k1
	}
	if feat.b > 0 {
		b = min(1, feat.b)
	}
	norm := 1 - b + b*length/avg
	for i, f := range tf {
		all += w[i]
		if f == 0 {
			continue
		}
		ff := float64(f)
		s += w[i] * ff * (k1 + 1) / (ff + k1*norm)
		present += w[i]
	}
	if !feat.bm25 {
		s = present / max(all, 1e-9)
	}
	if feat.prose && prose {
		if codeQuery {
			s *= proseFactor
		} else {
			s *= proseFactorPlain
		}
		if feat.proseMul > 0 {
			s *= feat.proseMul
		}
	}
	return s
}
