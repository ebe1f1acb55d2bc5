// Package eval measures context quality (docs/design.md#quality): real
// commits of real repositories become cases (query = the commit message,
// workspace = the tree at the parent, needed code = the parent's lines the
// commit changed), and the pack pipeline is compared with a BM25 baseline
// over 40-line windows of the same files at the same token budget.
//
// The cases live in eval/cases/cases.jsonl; `make eval` (mk/eval.mk) runs
// the evaluation against git mirrors of the repositories. docs/quality.md
// describes the method and records the numbers.
package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sort"
)

// Case is one evaluation case.
type Case struct {
	// Repo is the repository as owner/name.
	Repo   string `json:"repo"`
	Commit string `json:"commit"`
	Parent string `json:"parent"`
	// Query is the commit message (trailers removed).
	Query string `json:"query"`
	// Heldout cases are never looked at while tuning; they are reported
	// separately.
	Heldout bool `json:"heldout"`
	// Needed are the parent's lines the commit changed, per file.
	Needed []FileLines `json:"needed"`
}

// FileLines is a set of 1-based line ranges of one file.
type FileLines struct {
	Path   string   `json:"path"`
	Ranges [][2]int `json:"ranges"`
}

// Lines returns the number of lines in the ranges.
func (f FileLines) Lines() int {
	n := 0
	for _, r := range f.Ranges {
		n += r[1] - r[0] + 1
	}
	return n
}

// HeldOut reports whether a commit belongs to the held-out third: a hash of
// the commit id, so the split does not depend on the selection order.
func HeldOut(commit string) bool {
	h := fnv.New32a()
	h.Write([]byte(commit))
	return h.Sum32()%3 == 0
}

// ReadCases reads cases, one JSON object a line.
func ReadCases(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return decodeCases(f)
}

func decodeCases(r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("eval: cases line %d: %w", n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return out, nil
}

// WriteCases writes cases, one JSON object a line, sorted by repo then
// commit so the file is stable.
func WriteCases(w io.Writer, cases []Case) error {
	sorted := append([]Case(nil), cases...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Repo != sorted[j].Repo {
			return sorted[i].Repo < sorted[j].Repo
		}
		return sorted[i].Commit < sorted[j].Commit
	})
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, c := range sorted {
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
	}
	return nil
}
