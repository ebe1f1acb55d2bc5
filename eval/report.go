package eval

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Row is one line of the report: the cases of one repository (or all) at
// one budget.
type Row struct {
	Split, Repo          string
	Budget, N            int
	AcodeLine, BM25Line  float64
	AcodeLineCI, BM25LCI [2]float64
	AcodeFile, BM25File  float64
	AcodeFileCI, BM25FCI [2]float64
	LineRatio, FileRatio float64
	LineRatioCI          [2]float64
	Win, Tie, Loss       int
	// PlainLine is the old baseline's line recall, PlainRatio acode's
	// ratio to it.
	PlainLine, PlainRatio float64
	// Library lines: acode, the honest baseline, the ratio (NLib cases
	// hold such lines); test lines likewise (NTest).
	NLib, NTest         int
	AcodeLib, BM25Lib   float64
	AcodeLibCI          [2]float64
	LibRatio, PlainLib  float64
	AcodeTest, BM25Test float64
}

// Summarize computes the report rows: per split (dev, heldout), budget and
// repository, then "all" repositories. Failed cases are left out.
func Summarize(results []CaseResult, budgets []int) []Row {
	var rows []Row
	for _, split := range []string{"dev", "heldout"} {
		byRepo := map[string][]CaseResult{}
		var all []CaseResult
		for _, r := range results {
			if r.Err != "" || len(r.Results) != len(budgets) || r.Case.Heldout != (split == "heldout") {
				continue
			}
			byRepo[r.Case.Repo] = append(byRepo[r.Case.Repo], r)
			all = append(all, r)
		}
		repos := make([]string, 0, len(byRepo))
		for k := range byRepo {
			repos = append(repos, k)
		}
		sort.Strings(repos)
		for bi, b := range budgets {
			for _, repo := range append(repos, "all") {
				rs := byRepo[repo]
				if repo == "all" {
					rs = all
				}
				if len(rs) == 0 {
					continue
				}
				rows = append(rows, row(split, repo, b, bi, rs))
			}
		}
	}
	return rows
}

func row(split, repo string, b, bi int, rs []CaseResult) Row {
	var al, bl, af, bf []float64
	for _, r := range rs {
		x := r.Results[bi]
		al, bl = append(al, x.AcodeLine), append(bl, x.BM25Line)
		af, bf = append(af, x.AcodeFile), append(bf, x.BM25File)
	}
	seed := uint64(b)
	w := Row{Split: split, Repo: repo, Budget: b, N: len(rs),
		AcodeLine: Mean(al), BM25Line: Mean(bl), AcodeFile: Mean(af), BM25File: Mean(bf)}
	w.AcodeLineCI[0], w.AcodeLineCI[1] = Bootstrap(al, seed)
	w.BM25LCI[0], w.BM25LCI[1] = Bootstrap(bl, seed)
	w.AcodeFileCI[0], w.AcodeFileCI[1] = Bootstrap(af, seed)
	w.BM25FCI[0], w.BM25FCI[1] = Bootstrap(bf, seed)
	w.LineRatioCI[0], w.LineRatioCI[1] = BootstrapRatio(al, bl, seed)
	if w.BM25Line > 0 {
		w.LineRatio = w.AcodeLine / w.BM25Line
	}
	if w.BM25File > 0 {
		w.FileRatio = w.AcodeFile / w.BM25File
	}
	w.Win, w.Tie, w.Loss = WinTieLoss(al, bl)
	var pl, alib, blib, plib, atest, btest []float64
	for _, r := range rs {
		x := r.Results[bi]
		pl = append(pl, x.PlainLine)
		if x.HasLib {
			alib, blib, plib = append(alib, x.AcodeLib), append(blib, x.BM25Lib), append(plib, x.PlainLib)
		}
		if x.HasTest {
			atest, btest = append(atest, x.AcodeTest), append(btest, x.BM25Test)
		}
	}
	w.PlainLine = Mean(pl)
	if w.PlainLine > 0 {
		w.PlainRatio = w.AcodeLine / w.PlainLine
	}
	w.NLib, w.NTest = len(alib), len(atest)
	w.AcodeLib, w.BM25Lib, w.PlainLib = Mean(alib), Mean(blib), Mean(plib)
	w.AcodeLibCI[0], w.AcodeLibCI[1] = Bootstrap(alib, seed)
	if w.BM25Lib > 0 {
		w.LibRatio = w.AcodeLib / w.BM25Lib
	}
	w.AcodeTest, w.BM25Test = Mean(atest), Mean(btest)
	return w
}

// PrintReport writes the rows as markdown tables: all needed lines against
// the honest baseline, then library and test lines apart and the old
// baseline.
func PrintReport(w io.Writer, rows []Row) {
	printMain(w, rows)
	split := ""
	for _, r := range rows {
		if r.Split != split {
			split = r.Split
			fmt.Fprintf(w, "\n### %s cases: library lines, test lines, old baseline\n\n", split)
			fmt.Fprintln(w, "| budget | repo | n lib | lib acode [95% CI] | lib BM25 | lib ratio | n test | test acode | test BM25 | line old BM25 | ratio to old | lib old BM25 |")
			fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
		}
		name := r.Repo
		if name == "all" {
			name = "**all**"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.3f [%.2f, %.2f] | %.3f | %.2f× | %d | %.3f | %.3f | %.3f | %.2f× | %.3f |\n",
			kilo(r.Budget), name, r.NLib, r.AcodeLib, r.AcodeLibCI[0], r.AcodeLibCI[1], r.BM25Lib, r.LibRatio,
			r.NTest, r.AcodeTest, r.BM25Test, r.PlainLine, r.PlainRatio, r.PlainLib)
	}
}

func printMain(w io.Writer, rows []Row) {
	split := ""
	for _, r := range rows {
		if r.Split != split {
			split = r.Split
			fmt.Fprintf(w, "\n### %s cases (BM25 = the honest baseline)\n\n", split)
			fmt.Fprintln(w, "| budget | repo | n | line acode [95% CI] | line BM25 [95% CI] | line ratio [95% CI] | file acode | file BM25 | file ratio | W/T/L |")
			fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
		}
		name := r.Repo
		if name == "all" {
			name = "**all**"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.3f [%.2f, %.2f] | %.3f [%.2f, %.2f] | %.2f× [%s, %s] | %.3f [%.2f, %.2f] | %.3f [%.2f, %.2f] | %.2f× | %d/%d/%d |\n",
			kilo(r.Budget), name, r.N,
			r.AcodeLine, r.AcodeLineCI[0], r.AcodeLineCI[1], r.BM25Line, r.BM25LCI[0], r.BM25LCI[1],
			r.LineRatio, bound(r.LineRatioCI[0]), bound(r.LineRatioCI[1]),
			r.AcodeFile, r.AcodeFileCI[0], r.AcodeFileCI[1], r.BM25File, r.BM25FCI[0], r.BM25FCI[1],
			r.FileRatio, r.Win, r.Tie, r.Loss)
	}
}

func kilo(b int) string {
	if b%1000 == 0 {
		return fmt.Sprintf("%dK", b/1000)
	}
	return fmt.Sprint(b)
}

// Failures lists the cases that could not be run.
func Failures(results []CaseResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.Err != "" {
			fmt.Fprintf(&b, "%s %s: %s\n", r.Case.Repo, r.Case.Commit[:12], r.Err)
		}
	}
	return b.String()
}

// PrintVariants writes, per split and budget, the mean line, library-line,
// test-line and file recall of the main pack and of each variant (an ablation) over
// all repositories, with the paired difference to the main pack.
func PrintVariants(w io.Writer, results []CaseResult, budgets []int, names []string) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintln(w, "\n### variants (all repositories)")
	fmt.Fprintln(w, "\n| split | budget | variant | n | line | Δ line | lib | test | file |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, split := range []string{"dev", "heldout"} {
		for bi, b := range budgets {
			var rs []Result
			for _, r := range results {
				if r.Err == "" && len(r.Results) == len(budgets) && r.Case.Heldout == (split == "heldout") {
					rs = append(rs, r.Results[bi])
				}
			}
			if len(rs) == 0 {
				continue
			}
			m := variantMeans(rs, -1)
			fmt.Fprintf(w, "| %s | %s | main | %d | %.3f | | %.3f | %.3f | %.3f |\n", split, kilo(b), m.n, m.line, m.lib, m.test, m.file)
			for vi, name := range names {
				v := variantMeans(rs, vi)
				fmt.Fprintf(w, "| %s | %s | %s | %d | %.3f | %+.3f | %.3f | %.3f | %.3f |\n", split, kilo(b), variantLabel(name), v.n, v.line, v.line-m.line, v.lib, v.test, v.file)
			}
		}
	}
}

// means are the mean recalls of one pack over cases (n of them).
type means struct {
	n                     int
	line, lib, test, file float64
}

// variantMeans is the mean line, library-line, test-line and file recall
// of variant vi over rs (vi < 0: the main pack); a case without such a
// variant is left out.
func variantMeans(rs []Result, vi int) means {
	var line, lib, test, file []float64
	for _, x := range rs {
		v := Variant{Line: x.AcodeLine, File: x.AcodeFile, Lib: x.AcodeLib, Test: x.AcodeTest}
		if vi >= 0 {
			if vi >= len(x.Variants) {
				continue
			}
			v = x.Variants[vi]
		}
		line, file = append(line, v.Line), append(file, v.File)
		if x.HasLib {
			lib = append(lib, v.Lib)
		}
		if x.HasTest {
			test = append(test, v.Test)
		}
	}
	return means{len(line), Mean(line), Mean(lib), Mean(test), Mean(file)}
}

// variantLabel names a variant in the table: "-f" for a feature switched
// off, "+f" for one switched on, "k=v" for a weight.
func variantLabel(name string) string {
	parts := strings.Split(name, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if !strings.HasPrefix(p, "+") && !strings.Contains(p, "=") {
			p = "-" + p
		}
		parts[i] = p
	}
	return strings.Join(parts, ",")
}

// bound formats a ratio's interval bound: two decimals, ∞ when unbounded
// (a resample in which the baseline found nothing).
func bound(x float64) string {
	if math.IsInf(x, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.2f", x)
}
