package pack

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// fillerFile is Go code about nothing the tests ask for (distinct words per
// file, so that no two are duplicates).
func fillerFile(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package filler%d\n\n", i)
	for f := 0; f < 12; f++ {
		fmt.Fprintf(&b, "// Widget%d%d arranges the gadgets of shelf %d.\nfunc Widget%d%d(n int) int {\n\ttotal := n\n\tfor k := 0; k < %d; k++ {\n\t\ttotal += k * %d\n\t}\n\treturn total\n}\n\n", i, f, f, i, f, f+3, i+1)
	}
	return b.String()
}

const checkoutFile = `package cart

// Checkout charges the cart and fails for an empty cart.
func Checkout(c *Cart) error {
	if len(c.Items) == 0 {
		return ErrEmptyCart
	}
	return charge(c)
}
`

// fileFirstTree writes n filler files, the checkout file, a binary file
// and a note that names the query's words under root.
func fileFirstTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := 0; i < n; i++ {
		writeFile(t, filepath.Join(root, "fill", fmt.Sprintf("f%03d.go", i)), []byte(fillerFile(i)))
	}
	writeFile(t, filepath.Join(root, "cart", "checkout.go"), []byte(checkoutFile))
	writeFile(t, filepath.Join(root, "zz", "blob.bin"), []byte("\x00\x01\x02 checkout cart"))
	writeFile(t, filepath.Join(root, "docs", "notes.md"), []byte("# Notes\n\nThe checkout of an empty cart fails.\n"))
	return root
}

func packTree(t testing.TB, root string, req Request, ablate []string, idx FileIndex) *Result {
	t.Helper()
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	e.Ablate, e.Index = ablate, idx
	req.Paths = []string{root}
	res, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatalf("Pack: %v", err)
	}
	return res
}

func jsonOf(t testing.TB, r *Result) string {
	t.Helper()
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFileFirstUnchangedWhenAllFit: when every file is chunked (fewer than
// minCandidateFiles, or a budget whose multiple exceeds the tree) the
// result is byte for byte that of chunking every file (the ablation).
func TestFileFirstUnchangedWhenAllFit(t *testing.T) {
	for _, tt := range []struct {
		name   string
		files  int
		budget int
	}{
		{"fewer files than the minimum", 20, 2000},
		{"budget covers the tree", 150, 100000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := fileFirstTree(t, tt.files)
			total := tt.budget
			req := Request{Query: "why does checkout fail for empty carts", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
			got := packTree(t, root, req, nil, nil)
			want := packTree(t, root, req, []string{featFileFirst}, nil)
			if diff := cmp.Diff(jsonOf(t, want), jsonOf(t, got)); diff != "" {
				t.Errorf("file-first result differs from chunking every file (-all +file-first):\n%s", diff)
			}
			// Every file is chunked whatever its score: the scan is skipped.
			if got.Stats.FilesRanked != 0 || got.Stats.Sources != tt.files+2 {
				t.Errorf("ranked %d files, %d sources; want 0, %d", got.Stats.FilesRanked, got.Stats.Sources, tt.files+2)
			}
			checkInvariants(t, got)
		})
	}
}

// TestFileFirstCut: with more files than the budget needs, only the best
// ranked are chunked (the file the query is about among them), the rest
// are counted in a warning and the report, exclusions of files read by
// the scan stay, and the invariants hold.
func TestFileFirstCut(t *testing.T) {
	root := fileFirstTree(t, 200)
	total := 1000
	req := Request{Query: "why does checkout fail for empty carts", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
	res := packTree(t, root, req, nil, nil)
	checkInvariants(t, res)
	s := res.Stats
	// 8 × 1,000 tokens, each file counting at most 125: the 64 minimum
	// and two small files (checkout.go, notes.md count less).
	if s.FilesRanked != 202 || s.FilesChunked != 66 || s.Sources != 66 {
		t.Errorf("ranked %d, chunked %d, sources %d; want 202, 66, 66", s.FilesRanked, s.FilesChunked, s.Sources)
	}
	if len(res.Included) == 0 || res.Included[0].Path != "cart/checkout.go" {
		t.Errorf("first included = %+v, want cart/checkout.go", res.Included)
	}
	want := fmt.Sprintf("%d files (", 202-66)
	found := false
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, want) && strings.Contains(w, "ranked below the 66 files chunked") {
			found = true
		}
	}
	if !found {
		t.Errorf("warnings %q lack the files not examined", res.Warnings)
	}
	binary := false
	for _, x := range res.Excluded {
		if x.Path == "zz/blob.bin" && x.Reason == "binary" {
			binary = true
		}
	}
	if !binary {
		t.Errorf("the binary file below the cut is not excluded as binary")
	}
	if rep := Report(res); !strings.Contains(rep, fmt.Sprintf("Not examined further: %d", 202-66)) {
		t.Errorf("report lacks the files not examined:\n%s", rep)
	}
	again := packTree(t, root, req, nil, nil)
	if jsonOf(t, again) != jsonOf(t, res) {
		t.Errorf("a second pack of the same tree differs")
	}
}

// memIndex is an in-memory FileIndex keyed by path and validated by size
// and mtime, counting its hits.
type memIndex struct {
	mu                  sync.Mutex
	terms               map[string]map[string]int
	chunks              map[string][]chunker.Chunk
	termHits, chunkHits int
	termPuts, chunkPuts int
}

func newMemIndex() *memIndex {
	return &memIndex{terms: map[string]map[string]int{}, chunks: map[string][]chunker.Chunk{}}
}

func statKey(f collector.FileRef) string {
	return fmt.Sprintf("%s\x00%d\x00%d", f.Abs, f.Info.Size(), f.Info.ModTime().UnixNano())
}

func (m *memIndex) Terms(f collector.FileRef, terms []string) (FileTerms, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	all, ok := m.terms[statKey(f)]
	if !ok {
		return FileTerms{}, false
	}
	m.termHits++
	ft := FileTerms{Counts: map[string]int{}}
	for _, c := range all {
		ft.Length += c
	}
	for _, t := range terms {
		if c := all[t]; c > 0 {
			ft.Counts[t] = c
		}
	}
	return ft, true
}

func (m *memIndex) PutTerms(f collector.FileRef, content []byte, all map[string]int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.termPuts++
	m.terms[statKey(f)] = all
}

func (m *memIndex) Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.chunks[statKey(f)+"\x00"+key]
	if ok {
		m.chunkHits++
	}
	return c, ok
}

func (m *memIndex) PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chunkPuts++
	for _, c := range chunks {
		if c.Content != "" {
			panic("PutChunks given file text")
		}
	}
	m.chunks[statKey(f)+"\x00"+key] = chunks
}

func (m *memIndex) Forget(abs string) {}

// TestFileFirstIndex: with an index the result is the same as without;
// the second pack takes every file's terms and the chunked files' chunks
// from it, and a file edited in between is read again.
func TestFileFirstIndex(t *testing.T) {
	root := fileFirstTree(t, 120)
	total := 1000
	req := Request{Query: "why does checkout fail for empty carts", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
	want := jsonOf(t, packTree(t, root, req, nil, nil))
	idx := newMemIndex()
	first := packTree(t, root, req, nil, idx)
	if got := jsonOf(t, first); got != want {
		t.Errorf("first pack with an index differs:\n%s", cmp.Diff(want, got))
	}
	// 120 filler files, checkout.go and notes.md are text; blob.bin is not.
	chunked := first.Stats.FilesChunked
	if chunked >= first.Stats.FilesRanked || chunked < minCandidateFiles {
		t.Fatalf("chunked %d of %d files; want a cut at or above %d", chunked, first.Stats.FilesRanked, minCandidateFiles)
	}
	if idx.termPuts != 122 || idx.termHits != 0 || idx.chunkPuts != chunked {
		t.Errorf("first pack: %d term puts, %d hits, %d chunk puts; want 122, 0, %d", idx.termPuts, idx.termHits, idx.chunkPuts, chunked)
	}
	// A fresh engine: the engine's own chunk cache does not answer.
	second := packTree(t, root, req, nil, idx)
	if got := jsonOf(t, second); got != want {
		t.Errorf("second pack with an index differs:\n%s", cmp.Diff(want, got))
	}
	if idx.termHits != 122 || idx.chunkHits != chunked {
		t.Errorf("second pack: %d term hits, %d chunk hits; want 122, %d", idx.termHits, idx.chunkHits, chunked)
	}
	edited := filepath.Join(root, "fill", "f007.go")
	writeFile(t, edited, []byte(fillerFile(7)+"// checkout\n"))
	puts := idx.termPuts
	packTree(t, root, req, nil, idx)
	if idx.termPuts != puts+1 {
		t.Errorf("after an edit: %d term puts, want %d", idx.termPuts, puts+1)
	}
	if _, err := os.Stat(edited); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusExtra: files not chunked add their estimated chunks and the
// expected number of chunks holding each term.
func TestCorpusExtra(t *testing.T) {
	p := &pipeline{files: &fileSelection{terms: []string{"cart", "fail"}, rest: []*fileScan{
		{ref: collector.FileRef{Path: "a.go"}, size: 400, tf: []uint16{4, 0}},
		{ref: collector.FileRef{Path: "README.md"}, size: 50, tf: []uint16{1, 2}},
	}}}
	items := []*budget.Item{{Content: strings.Repeat("x", 100)}, {Content: strings.Repeat("y", 100)}}
	x := p.corpusExtra(items)
	// a.go: 4 chunks, cart 4·(1−(3/4)^4); README.md: 1 chunk (rounded up to one), both terms once.
	wantCart := 4*(1-math.Pow(0.75, 4)) + 1
	if x.n != 5 || x.nProse != 1 || math.Abs(x.df[0]-wantCart) > 1e-9 || x.df[1] != 1 || x.dfProse[0] != 1 || x.dfProse[1] != 1 {
		t.Errorf("extra = %+v; want n 5, nProse 1, df [%.4f 1], dfProse [1 1]", x, wantCart)
	}
	if (&pipeline{}).corpusExtra(items) != nil {
		t.Errorf("no file selection: extra is not nil")
	}
}

// TestCandidateTarget: 8 × available up to 8,000 tokens (the target the
// evaluation measured at 8K), then growing with the budget, continuously,
// but less than in proportion to it.
func TestCandidateTarget(t *testing.T) {
	for _, tt := range []struct{ available, want int64 }{
		{1, 8}, {1000, 8000}, {8000, 64000},
		{16000, 107634}, {32000, 181019}, {100000, 425463}, {1000000, 2392558},
	} {
		if got := candidateTarget(tt.available); got < tt.want-1 || got > tt.want+1 {
			t.Errorf("candidateTarget(%d) = %d, want %d", tt.available, got, tt.want)
		}
	}
	prev, prevRatio := candidateTarget(candidateBase), float64(candidateFactor)
	for a := int64(candidateBase + 1); a < 2_000_000; a += 997 {
		got := candidateTarget(a)
		ratio := float64(got) / float64(a)
		if got < prev || ratio > prevRatio+1e-9 || got < a {
			t.Fatalf("candidateTarget(%d) = %d (%.3f× the budget) after %d (%.3f×): want it growing, below 8× and falling, above the budget", a, got, ratio, prev, prevRatio)
		}
		prev, prevRatio = got, ratio
	}
}

// TestFileFirstCutLargeBudget: above 8,000 available tokens the files
// chunked are those whose estimated tokens reach candidateTarget, fewer
// than 8 × available would chunk.
func TestFileFirstCutLargeBudget(t *testing.T) {
	const n = 400
	root := fileFirstTree(t, n)
	total := 16000
	req := Request{Query: "why does checkout fail for empty carts", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
	res := packTree(t, root, req, nil, nil)
	checkInvariants(t, res)
	// The two files that hold the query's words first, then the fillers
	// (no query word: path order), until the target.
	target, share := candidateTarget(int64(total)), int64(total/fileShare)
	sizes := []int{len(checkoutFile), len("# Notes\n\nThe checkout of an empty cart fails.\n")}
	for i := 0; i < n; i++ {
		sizes = append(sizes, len(fillerFile(i)))
	}
	cut := func(target int64) int {
		k, est := 0, int64(0)
		for k < len(sizes) && (est < target || k < minCandidateFiles) {
			est += min(int64(sizes[k])/bytesPerToken, share)
			k++
		}
		return k
	}
	want, linear := cut(target), cut(candidateFactor*int64(total))
	if want >= linear || linear >= len(sizes) {
		t.Fatalf("target %d chunks %d files, 8 × the budget %d of %d: want fewer, and a cut at 8×", target, want, linear, len(sizes))
	}
	if s := res.Stats; s.FilesRanked != n+2 || s.FilesChunked != want {
		t.Errorf("ranked %d, chunked %d; want %d, %d", s.FilesRanked, s.FilesChunked, n+2, want)
	}
}

// TestCutFilesEarlyStop: computing priors only while a file could still
// enter selects the same files as scoring every file, for random scores,
// sizes and paths (tests, built files, ties).
func TestCutFilesEarlyStop(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dirs := []string{"src/", "test/", "dist/", "lib/", "vendor/x/", "pkg/"}
	for round := 0; round < 40; round++ {
		n := 50 + rng.Intn(5000)
		files := make([]*fileScan, n)
		for i := range files {
			raw := float64(rng.Intn(20)) / 4 // many ties, some zeros
			files[i] = &fileScan{ref: collector.FileRef{Path: fmt.Sprintf("%sf%05d.go", dirs[rng.Intn(len(dirs))], i)}, size: int64(100 + rng.Intn(20000)), raw: raw}
		}
		p := &pipeline{e: &Engine{}}
		target, share := int64(1000+rng.Intn(200000)), int64(100+rng.Intn(3000))
		keep, rest := p.cutFiles(files, target, share)
		// Brute force: every file scored, sorted, cut.
		all := append([]*fileScan(nil), files...)
		for _, f := range all {
			f.score = f.raw * p.prior(f.ref.Path)
		}
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].score != all[j].score {
				return all[i].score > all[j].score
			}
			return all[i].ref.Path < all[j].ref.Path
		})
		k, est := 0, int64(0)
		for k < len(all) && (est < target || k < minCandidateFiles) {
			est += min(all[k].size/bytesPerToken, share)
			k++
		}
		var got, want []string
		for _, f := range keep {
			got = append(got, f.ref.Path)
		}
		for _, f := range all[:k] {
			want = append(want, f.ref.Path)
		}
		if diff := cmp.Diff(want, got); diff != "" || len(keep)+len(rest) != n {
			t.Fatalf("round %d: %d kept + %d rest of %d; selection differs (-all scored +early stop):\n%s", round, len(keep), len(rest), n, diff)
		}
	}
}
