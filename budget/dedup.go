package budget

import (
	"crypto/sha256"
	"hash"
	"io"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
)

// DedupOptions are the settings of docs/design.md#rule-6.
type DedupOptions struct {
	// Enabled turns on exact and overlap deduplication. Even when it is
	// off, [Select] never emits a source line twice.
	Enabled bool
	// OverlapThreshold is the share of the smaller chunk's lines that two
	// chunks of one file must share to be merged (default 0.8).
	OverlapThreshold float64
	// MergeOverlapping merges such chunks into one spanning both.
	MergeOverlapping bool
}

// DedupStats counts what deduplication removed.
type DedupStats struct {
	ExactRemoved   int `json:"exactRemoved"`
	OverlapsMerged int `json:"overlapsMerged"`
	TokensSaved    int `json:"tokensSaved"`
}

// Removed is an item that deduplication took out, and why.
type Removed struct {
	Item *Item
	// Reason is "duplicate" (same content as a better-ranked item) or
	// "merged" (folded into an overlapping item of the same file).
	Reason string
	// Into is the item that kept the content.
	Into *Item
}

// Dedup removes exact duplicates (same whitespace-normalised SHA-256, from
// any source or path: the best-ranked copy stays), packs a tool result that
// holds a file's text once (see [toolCopies]), and merges chunks of one
// file whose overlap reaches the threshold into one chunk spanning both,
// re-cut from the source text and recounted, with the higher score. It
// returns the remaining items in rank order ([Less]).
func Dedup(items []*Item, opts DedupOptions, count func(string) int) ([]*Item, []Removed, DedupStats) {
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
			stats.TokensSaved += it.Tokens
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
		stats.TokensSaved += max(0, before-into.Tokens)
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
				stats.TokensSaved += max(0, before-into.Tokens)
				removed = append(removed, Removed{Item: other, Reason: "merged", Into: into})
				byFile[key] = append(byFile[key][:i:i], byFile[key][i+1:]...)
				out = removeItem(out, other)
				changed = true
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return Less(out[i], out[j]) })
	return out, removed, stats
}

// Overlap is the share of lines two items share, relative to the smaller
// one (inclusive line ranges); 0 for items of different files.
func Overlap(a, b *Item) float64 {
	if a.fileKey() == "" || a.fileKey() != b.fileKey() {
		return 0
	}
	lo, hi := max(a.StartLine, b.StartLine), min(a.EndLine, b.EndLine)
	if hi < lo {
		return 0
	}
	smaller := min(a.Lines(), b.Lines())
	if smaller <= 0 {
		return 0
	}
	return float64(hi-lo+1) / float64(smaller)
}

// NormalizedHash is the SHA-256 of text with every run of white space folded
// to one space and the ends trimmed.
func NormalizedHash(text string) [32]byte {
	h := sha256.New()
	bp := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(bp)
	buf := (*bp)[:0]
	started, pending := false, false // a word was written; white space since
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiSpace(c) {
				pending = true
				i++
				continue
			}
			// A run of ASCII non-space bytes goes in one append.
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && !asciiSpace(text[j]) {
				j++
			}
			buf = word(h, buf, text[i:j], started && pending)
			started, pending = true, false
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			pending = true
		} else {
			buf = word(h, buf, text[i:i+size], started && pending)
			started, pending = true, false
		}
		i += size
	}
	h.Write(buf)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// hashBufs recycles the folding buffers of NormalizedHash.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

// word appends s (after a space when sep) to buf, flushing buf into h when
// it would overflow.
func word(h hash.Hash, buf []byte, s string, sep bool) []byte {
	if len(buf)+len(s)+1 > cap(buf) {
		h.Write(buf)
		buf = buf[:0]
	}
	if sep {
		buf = append(buf, ' ')
	}
	if len(s) > cap(buf)-len(buf) {
		h.Write(buf)
		io.WriteString(h, s)
		return buf[:0]
	}
	return append(buf, s...)
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// merge grows into to span other too, re-cutting the content from the source.
func merge(into, other *Item, count func(string) int) {
	into.StartLine = min(into.StartLine, other.StartLine)
	into.EndLine = max(into.EndLine, other.EndLine)
	into.Content = into.Source.Slice(into.StartLine, into.EndLine)
	into.Tokens = count(into.Content)
	if other.Score > into.Score {
		into.Score = other.Score
	}
	if into.Kind != other.Kind {
		into.Kind = "merged"
	}
	if into.Name != other.Name && other.Name != "" {
		if into.Name == "" {
			into.Name = other.Name
		} else {
			into.Name += ", " + other.Name
		}
	}
}

func sameText(a, b *Item) bool {
	return a.Source == b.Source || (a.Source != nil && b.Source != nil && a.Source.String() == b.Source.String())
}

func removeItem(list []*Item, it *Item) []*Item {
	for i, x := range list {
		if x == it {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}
