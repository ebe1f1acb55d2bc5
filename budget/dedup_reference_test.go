package budget

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dedupReference is Dedup as it was before the line index (issue 24): each
// chunk compared with every kept chunk of its file, a rescan after each
// merge. TestDedupSameAsReference checks that the indexed Dedup decides
// exactly as it did.
func dedupReference(items []*Item, opts DedupOptions, count func(string) int) ([]*Item, []Removed, DedupStats) {
	sorted := append([]*Item(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return Less(sorted[i], sorted[j]) })
	var stats DedupStats
	if !opts.Enabled {
		return sorted, nil, stats
	}
	var removed []Removed
	seen := make(map[[32]byte]*Item, len(sorted))
	kept := sorted[:0:0]
	for _, it := range sorted {
		h := NormalizedHash(it.Content)
		if first, ok := seen[h]; ok {
			removed = append(removed, Removed{Item: it, Reason: "duplicate", Into: first})
			stats.ExactRemoved++
			stats.SaveExact(it.Tokens)
			continue
		}
		seen[h] = it
		kept = append(kept, it)
	}
	kept, removed = toolCopies(kept, removed, &stats, count)
	if !opts.MergeOverlapping || opts.OverlapThreshold <= 0 {
		return kept, removed, stats
	}
	byFile := map[string][]*Item{}
	var out []*Item
	for _, it := range kept {
		key := it.fileKey()
		if key == "" {
			out = append(out, it)
			continue
		}
		group := byFile[key]
		target := -1
		for i, k := range group {
			if sameText(k, it) && Overlap(k, it) >= opts.OverlapThreshold {
				target = i
				break
			}
		}
		if target < 0 {
			byFile[key] = append(group, it)
			out = append(out, it)
			continue
		}
		into := group[target]
		before := into.Tokens + it.Tokens
		merge(into, it, count)
		stats.OverlapsMerged++
		stats.SaveOverlap(max(0, before-into.Tokens))
		removed = append(removed, Removed{Item: it, Reason: "merged", Into: into})
		// The grown chunk may now reach other chunks of the file.
		for changed := true; changed; {
			changed = false
			for i := 0; i < len(byFile[key]); i++ {
				other := byFile[key][i]
				if other == into || !sameText(other, into) || Overlap(other, into) < opts.OverlapThreshold {
					continue
				}
				before := into.Tokens + other.Tokens
				merge(into, other, count)
				stats.OverlapsMerged++
				stats.SaveOverlap(max(0, before-into.Tokens))
				removed = append(removed, Removed{Item: other, Reason: "merged", Into: into})
				byFile[key] = append(byFile[key][:i:i], byFile[key][i+1:]...)
				out = refRemoveItem(out, other)
				changed = true
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return Less(out[i], out[j]) })
	return out, removed, stats
}

func refRemoveItem(list []*Item, it *Item) []*Item {
	for i, x := range list {
		if x == it {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// TestDedupSameAsReference compares Dedup with the quadratic reference on
// random overlapping chunks of a few files: the same items kept (lines,
// scores, names), the same removals in the same order, the same stats.
func TestDedupSameAsReference(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	var lines []string
	for i := 0; i < 300; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i%97))
	}
	texts := []*Text{NewText(strings.Join(lines, "\n") + "\n"), NewText(strings.Join(lines[:120], "\n") + "\n")}
	count := func(s string) int { return len(strings.Fields(s)) }
	type view struct {
		Path             string
		Start, End, Toks int
		Score            float64
		Name, Kind       string
	}
	viewOf := func(items []*Item) []view {
		var out []view
		for _, it := range items {
			out = append(out, view{it.Path, it.StartLine, it.EndLine, it.Tokens, it.Score, it.Name, it.Kind})
		}
		return out
	}
	merges := 0
	for round := 0; round < 400; round++ {
		n := 1 + rng.Intn(60)
		gen := func() []*Item {
			r := rand.New(rand.NewSource(int64(round)))
			var items []*Item
			for i := 0; i < n; i++ {
				f := r.Intn(3)
				src := texts[f%2]
				start := 1 + r.Intn(src.Lines())
				end := min(src.Lines(), start+r.Intn(1+r.Intn(40)))
				it := &Item{Path: fmt.Sprintf("f%d.go", f), Source: src, StartLine: start, EndLine: end, Score: float64(r.Intn(10)) / 10,
					Priority: 80, Seq: i, Name: fmt.Sprintf("n%d", i), Kind: []string{"function", "type"}[r.Intn(2)], Category: OpenFiles}
				it.Content = src.Slice(start, end)
				it.Tokens = count(it.Content)
				items = append(items, it)
			}
			return items
		}
		opts := DedupOptions{Enabled: true, OverlapThreshold: []float64{0.8, 0.5, 0.3, 1}[round%4], MergeOverlapping: true}
		wantOut, wantRemoved, wantStats := dedupReference(gen(), opts, count)
		gotOut, gotRemoved, gotStats := Dedup(gen(), opts, count)
		if diff := cmp.Diff(viewOf(wantOut), viewOf(gotOut)); diff != "" {
			t.Fatalf("round %d: kept (-reference +indexed):\n%s", round, diff)
		}
		rv := func(rs []Removed) []string {
			var out []string
			for _, r := range rs {
				out = append(out, fmt.Sprintf("%s %d-%d %s into %d-%d", r.Item.Path, r.Item.StartLine, r.Item.EndLine, r.Reason, r.Into.StartLine, r.Into.EndLine))
			}
			return out
		}
		if diff := cmp.Diff(rv(wantRemoved), rv(gotRemoved)); diff != "" {
			t.Fatalf("round %d: removed (-reference +indexed):\n%s", round, diff)
		}
		merges += gotStats.OverlapsMerged
		if wantStats != gotStats {
			t.Fatalf("round %d: stats %+v, reference %+v", round, gotStats, wantStats)
		}
	}
	if merges < 200 {
		t.Errorf("only %d merges over all rounds: the cases do not exercise the merge passes", merges)
	}
}

// TestDedupCancelled checks that a cancelled dedup stops with the
// context's error instead of finishing the file.
func TestDedupCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	items := oneFileChunks(5000)
	_, _, _, err := DedupContext(ctx, items, DedupOptions{Enabled: true, OverlapThreshold: 0.8, MergeOverlapping: true}, words)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("DedupContext after cancel: %v, want context.Canceled", err)
	}
}
