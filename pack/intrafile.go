package pack

import (
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Calls inside a file (issue 23, sixth pass): when the right file is
// packed but the chunk the task needs holds no query word, that chunk is
// often one the file's best chunks call (the helper below the named
// function) or one that calls them. Within each of the intraFileFiles
// best files, the intraFileSeeds best chunks are seeds; a chunk of the
// same file defining a name a seed uses, or using a name a seed defines,
// gains intraFileWeight × the seed's score (a name used by more than
// expandMaxUsers chunks of the file shares that out). Unlike +defs and
// +callers (expand.go), which follow the names of the best chunks across
// the workspace, this stays inside the file, where a name means one
// thing. A switch ("+intrafile", "intrafilew=x"), off unless it gained
// on the evaluation (docs/quality.md "sixth pass").
const (
	featIntraFile   = "intrafile"
	intraFileFiles  = 5
	intraFileSeeds  = 3
	intraFileWeight = 0.3
)

// addIntraFile adds to add (by Item.Seq, the best gain kept) what the
// chunks of the best files gain from their file's best chunks.
func (q *query) addIntraFile(items []*budget.Item, add map[int]float64) {
	if !q.feat.intraFile || q.feat.intraFileW <= 0 {
		return
	}
	top := bestFiles(q.fileBest, int(q.feat.intraFileN), func(string) bool { return true })
	if len(top) == 0 {
		return
	}
	byFile := make(map[string][]*budget.Item, len(top))
	for _, f := range top {
		byFile[f.path] = nil
	}
	for _, it := range items {
		if c, ok := byFile[it.Path]; ok {
			byFile[it.Path] = append(c, it)
		}
	}
	for _, f := range top {
		q.intraFileGains(byFile[f.path], add)
	}
}

// intraFileGains is addIntraFile for the chunks of one file.
func (q *query) intraFileGains(chunks []*budget.Item, add map[int]float64) {
	seeds := make([]*budget.Item, 0, len(chunks))
	for _, it := range chunks {
		if q.raw[it.Seq] > 0 {
			seeds = append(seeds, it)
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool { return q.raw[seeds[i].Seq] > q.raw[seeds[j].Seq] })
	seeds = seeds[:min(len(seeds), int(q.feat.intraFileK))]
	if len(seeds) == 0 {
		return
	}
	defined := definedNames(chunks)
	gain := func(c *budget.Item, g float64) {
		if !isDefiner(seeds, c) {
			add[c.Seq] = max(add[c.Seq], g)
		}
	}
	for _, s := range seeds {
		w := q.feat.intraFileW * q.raw[s.Seq]
		mode := q.feat.intraFileMode
		// the chunks defining what the seed uses
		identifiers(s.Content, func(name string) {
			if mode == 2 {
				return
			}
			for _, d := range defined[name] {
				gain(d, w/float64(len(defined[name])))
			}
		})
		// the chunks using what the seed defines
		identifiers(s.Name, func(name string) {
			if len(name) < graphMinName || mode == 1 {
				return
			}
			var users []*budget.Item
			for _, c := range chunks {
				if c != s && usesName(c.Content, name) {
					users = append(users, c)
				}
			}
			share := min(1, float64(expandMaxUsers)/float64(max(1, len(users))))
			for _, u := range users {
				gain(u, w*share)
			}
		})
	}
}

// usesName reports whether name is an identifier of text.
func usesName(text, name string) bool {
	found := false
	identifiers(text, func(w string) {
		if w == name {
			found = true
		}
	})
	return found
}
