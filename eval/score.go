package eval

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Span is a range of lines of one file that a pack included.
type Span struct {
	Path       string
	Start, End int
}

// Recall returns the line recall (needed lines inside the spans / needed
// lines) and the file recall (files with at least one needed line inside
// the spans / files with needed lines) of one case.
func Recall(needed []FileLines, spans []Span) (line, file float64) {
	byPath := map[string][][2]int{}
	for _, s := range spans {
		byPath[s.Path] = append(byPath[s.Path], [2]int{s.Start, s.End})
	}
	total, hit, files, fileHits := 0, 0, 0, 0
	for _, f := range needed {
		got := byPath[f.Path]
		files++
		n := 0
		for _, r := range f.Ranges {
			for l := r[0]; l <= r[1]; l++ {
				total++
				for _, g := range got {
					if g[0] <= l && l <= g[1] {
						n++
						break
					}
				}
			}
		}
		hit += n
		if n > 0 {
			fileHits++
		}
	}
	if total == 0 || files == 0 {
		return 0, 0
	}
	return float64(hit) / float64(total), float64(fileHits) / float64(files)
}

// RecallOf is the line recall over the needed lines of the files keep
// accepts (library or test files); ok is false when the case has none.
func RecallOf(needed []FileLines, spans []Span, keep func(path string) bool) (line float64, ok bool) {
	var sub []FileLines
	for _, f := range needed {
		if keep(f.Path) {
			sub = append(sub, f)
		}
	}
	if len(sub) == 0 {
		return 0, false
	}
	line, _ = Recall(sub, spans)
	return line, true
}

// Mean is the arithmetic mean (0 for none).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// bootstrapRounds is the number of resamples of a bootstrap interval.
const bootstrapRounds = 2000

// Bootstrap returns the 95 % percentile interval of the mean of xs over
// resamples of the cases (seeded: the same input gives the same interval).
func Bootstrap(xs []float64, seed uint64) (lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	means := make([]float64, bootstrapRounds)
	for r := range means {
		s := 0.0
		for range xs {
			s += xs[rng.IntN(len(xs))]
		}
		means[r] = s / float64(len(xs))
	}
	sort.Float64s(means)
	return means[bootstrapRounds*25/1000], means[bootstrapRounds*975/1000-1]
}

// BootstrapRatio is Bootstrap for mean(a)/mean(b) over paired cases; a
// resample where b's mean is 0 has the ratio +Inf (0 when a's is 0 too).
func BootstrapRatio(a, b []float64, seed uint64) (lo, hi float64) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	ratios := make([]float64, bootstrapRounds)
	for r := range ratios {
		sa, sb := 0.0, 0.0
		for range a {
			i := rng.IntN(len(a))
			sa += a[i]
			sb += b[i]
		}
		switch {
		case sb > 0:
			ratios[r] = sa / sb
		case sa > 0:
			ratios[r] = math.Inf(1) // the baseline found nothing in this resample
		}
	}
	sort.Float64s(ratios)
	return ratios[bootstrapRounds*25/1000], ratios[bootstrapRounds*975/1000-1]
}

// WinTieLoss counts the cases where a beats, ties (within 1e-9) or loses
// to b.
func WinTieLoss(a, b []float64) (win, tie, loss int) {
	for i := range a {
		switch d := a[i] - b[i]; {
		case d > 1e-9:
			win++
		case d < -1e-9:
			loss++
		default:
			tie++
		}
	}
	return win, tie, loss
}
