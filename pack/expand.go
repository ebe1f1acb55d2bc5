package pack

import (
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Second-pass expansion (docs/ranking.md "Expansion", issue 23 third
// pass): after the file signals, the best-scored chunks say which code the
// task is about, and three kinds of chunks the query's words need not
// reach go with them:
//
//   - defs: the chunks defining a name the best chunks use (the callee, the
//     type, the helper in another file);
//   - callers: the chunks using a name the best chunks define (a test that
//     calls the function, the caller in another file), shared out between
//     the users of the name;
//   - importsall: the import block of each of the best files, whatever the
//     query names (a change to a file often adds or drops an import).
//
// Each is a switch ("+defs", "+callers", "+importsall"); only those that
// gained on the evaluation are on by default (docs/quality.md).
const (
	featDefs       = "defs"
	featCallers    = "callers"
	featImportsAll = "importsall"
	// featTestCallers: callers, in test files only (a test calling what
	// the best chunks define).
	featTestCallers = "testcallers"
	// featImportsFloor: importsall lifts an import block to
	// importsAllWeight × its file's best score instead of adding that
	// (an import block that is itself the file's best chunk — a small
	// file cut as one chunk — gains nothing).
	featImportsFloor = "importsfloor"
	// featFileHead: importsall also lifts the first chunk of each best
	// file (imports the chunker does not mark: CommonJS require lines,
	// a module's header).
	featFileHead = "filehead"
	// featRequires: importsall also lifts a chunk of CommonJS require
	// lines (`const x = require('…')`), which the chunker does not mark
	// as imports (requires.go).
	featRequires = "requires"

	// expandSeeds is the number of best chunks whose names are followed.
	expandSeeds = 8
	// expandMaxDefiners: a name defined by more chunks is too common to
	// point anywhere (as graphMaxDefiners for files).
	expandMaxDefiners = 4
	// expandMaxUsers: a name used by more chunks is shared out between
	// this many (callers).
	expandMaxUsers = 4
	// defsWeight and callersWeight: the share of the seed's score a
	// definition or user gains.
	defsWeight    = 0.3
	callersWeight = 0.3
	// importsAllFiles is the number of best files whose import block
	// gains; importsAllWeight the share of the file's best score.
	importsAllFiles  = 3
	importsAllWeight = 0.5
)

// expand applies the switched-on expansions to q.raw (each chunk's own
// score after the file factors) and q.fileBest, before file evidence and
// neighbours.
func (q *query) expand(items []*budget.Item) {
	add := q.expandGains(items)
	for _, it := range items {
		if a := add[it.Seq]; a > 0 {
			q.raw[it.Seq] += a
			if it.Path != "" && q.raw[it.Seq] > q.fileBest[it.Path] {
				q.fileBest[it.Path] = q.raw[it.Seq]
			}
		}
	}
}

// expandGains is what each chunk (by Item.Seq) gains from the
// switched-on expansions; nil when none is on.
func (q *query) expandGains(items []*budget.Item) map[int]float64 {
	feat := q.feat
	names := feat.defs || feat.callers || feat.testCallers
	if !names && !feat.importsAll && !feat.testTail && !(feat.prf || feat.graphAdd) && !feat.intraFile && len(q.recentHunks) == 0 {
		return nil
	}
	add := map[int]float64{}
	if names {
		seeds := q.expandSeeds(items)
		defined := definedNames(items)
		if feat.defs {
			q.addDefs(seeds, defined, add)
		}
		if feat.callers || feat.testCallers {
			q.addCallers(items, seeds, defined, add)
		}
	}
	if feat.importsAll {
		q.addImports(items, add)
	}
	q.addTestTails(items, add)
	q.addIntraFile(items, add)
	q.addRecentLines(items, add)
	q.addWidening(items, add)
	return add
}

// addWidening adds to add the gains of the fifth pass's switches that
// widen the query (feedback.go, graphadd.go), summed with the other
// gains rather than taken as their max.
func (q *query) addWidening(items []*budget.Item, add map[int]float64) {
	if !q.feat.prf && !q.feat.graphAdd {
		return
	}
	fb := map[int]float64{}
	if q.feat.prf {
		q.addFeedback(items, fb)
	}
	if q.feat.graphAdd {
		q.addGraphGains(items, fb)
	}
	for seq, g := range fb {
		add[seq] += g
	}
}

// expandSeeds is the expandSeeds chunks of items with the best positive
// own scores, best first (ties: input order).
func (q *query) expandSeeds(items []*budget.Item) []*budget.Item {
	var out []*budget.Item
	for _, it := range items {
		if q.raw[it.Seq] > 0 && it.Path != "" {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return q.raw[out[i].Seq] > q.raw[out[j].Seq] })
	if len(out) > expandSeeds {
		out = out[:expandSeeds]
	}
	return out
}

// definedNames maps each identifier of the chunks' symbol names (at
// least graphMinName long) to the chunks defining it, leaving out names
// defined by more than expandMaxDefiners chunks.
func definedNames(items []*budget.Item) map[string][]*budget.Item {
	defs := map[string][]*budget.Item{}
	for _, it := range items {
		if it.Name == "" || it.Path == "" {
			continue
		}
		identifiers(it.Name, func(w string) {
			if len(w) < graphMinName {
				return
			}
			d := defs[w]
			if len(d) > 0 && d[len(d)-1] == it {
				return
			}
			defs[w] = append(d, it)
		})
	}
	for w, d := range defs {
		if len(d) > expandMaxDefiners {
			delete(defs, w)
		}
	}
	return defs
}

// addDefs: a chunk defining a name a seed uses gains defsWeight × the
// seed's score, shared between the name's definers (the best such gain).
func (q *query) addDefs(seeds []*budget.Item, defined map[string][]*budget.Item, add map[int]float64) {
	for _, s := range seeds {
		seen := map[string]bool{}
		identifiers(s.Content, func(w string) {
			if len(w) < graphMinName || seen[w] {
				return
			}
			seen[w] = true
			d := defined[w]
			for _, c := range d {
				if c == s {
					continue
				}
				g := q.feat.defsW * q.raw[s.Seq] / float64(len(d))
				add[c.Seq] = max(add[c.Seq], g)
			}
		})
	}
}

// addCallers: a chunk using a name a seed defines gains callersWeight ×
// the seed's score × min(1, expandMaxUsers / the name's users).
func (q *query) addCallers(items []*budget.Item, seeds []*budget.Item, defined map[string][]*budget.Item, add map[int]float64) {
	names := map[string]float64{} // a seed's defined name → the seed's score
	for _, s := range seeds {
		identifiers(s.Name, func(w string) {
			if len(w) < graphMinName {
				return
			}
			if _, ok := defined[w]; ok {
				names[w] = max(names[w], q.raw[s.Seq])
			}
		})
	}
	if len(names) == 0 {
		return
	}
	users := map[string][]*budget.Item{}
	for _, it := range items {
		if it.Path == "" || !q.feat.callers && !isTest(it.Path) {
			continue
		}
		seen := map[string]bool{}
		identifiers(it.Content, func(w string) {
			if _, ok := names[w]; !ok || seen[w] {
				return
			}
			seen[w] = true
			users[w] = append(users[w], it)
		})
	}
	for w, us := range users {
		share := min(1, float64(expandMaxUsers)/float64(len(us)))
		for _, u := range us {
			if isDefiner(defined[w], u) {
				continue
			}
			add[u.Seq] = max(add[u.Seq], q.feat.callersW*names[w]*share)
		}
	}
}

// isDefiner reports whether it is among d.
func isDefiner(d []*budget.Item, it *budget.Item) bool {
	for _, x := range d {
		if x == it {
			return true
		}
	}
	return false
}

// addImports: the import block of each of the importsAllFiles best files
// gains importsAllWeight × the file's best score.
func (q *query) addImports(items []*budget.Item, add map[int]float64) {
	top := bestFiles(q.fileBest, int(q.feat.importsN), func(string) bool { return true })
	best := map[string]float64{}
	for _, f := range top {
		best[f.path] = f.score
	}
	head := map[string]*budget.Item{} // each best file's first chunk
	if q.feat.fileHead {
		for _, it := range items {
			if _, ok := best[it.Path]; ok && (head[it.Path] == nil || it.StartLine < head[it.Path].StartLine) {
				head[it.Path] = it
			}
		}
	}
	for _, it := range items {
		if s, ok := best[it.Path]; ok && (it.Kind == "imports" || head[it.Path] == it || q.feat.requires && isRequireBlock(it.Content)) {
			g := q.feat.importsAllW * s
			if q.feat.importsFloor {
				g -= q.raw[it.Seq]
			}
			add[it.Seq] = max(add[it.Seq], g)
		}
	}
}
