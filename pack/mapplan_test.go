package pack

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// memPlans is an in-memory MapPlanStore over a memSetIndex: the listing
// digest of paths, sizes and modification times (a file changed within
// two seconds does not settle).
type memPlans struct {
	*memSetIndex
	pmu   sync.Mutex
	plans map[[32]byte]memPlan
	puts  int
}

type memPlan struct {
	listing [32]byte
	body    []byte
}

func newMemPlans() *memPlans {
	return &memPlans{memSetIndex: newMemSetIndex(), plans: map[[32]byte]memPlan{}}
}

func (m *memPlans) MapPlans(string) MapPlanStore { return m }

func (m *memPlans) Listing(refs []collector.FileRef, extra []byte) ([32]byte, bool) {
	h := sha256.New()
	for _, r := range refs {
		if time.Since(r.Info.ModTime()) < 2*time.Second {
			return [32]byte{}, false
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00", r.Abs, r.Path, r.Info.Size(), r.Info.ModTime().UnixNano())
	}
	h.Write(extra)
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out, true
}

func (m *memPlans) Plan(key, listing [32]byte) ([]byte, bool) {
	m.pmu.Lock()
	defer m.pmu.Unlock()
	p, ok := m.plans[key]
	return p.body, ok && p.listing == listing
}

func (m *memPlans) PutPlan(key, listing [32]byte, body []byte) {
	m.pmu.Lock()
	defer m.pmu.Unlock()
	m.plans[key] = memPlan{listing, slices.Clone(body)}
	m.puts++
}

func (m *memPlans) PathHash(path string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("salt\x00" + path))
	return h.Sum64()
}

func (m *memPlans) TextHash(text string) (out [16]byte) {
	s := sha256.Sum256([]byte("salt\x00" + text))
	copy(out[:], s[:])
	return out
}

// planTree is mapCutTree's tree of n files, made an hour old (settled).
func planTree(t *testing.T, n int) string {
	t.Helper()
	_, root := mapCutTree(t, n)
	old := time.Now().Add(-time.Hour)
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("f%03d.go", i))
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// planEngine is an engine over root with idx as its index (nil: none).
func planEngine(t *testing.T, root string, idx FileIndex) *Engine {
	t.Helper()
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	if idx != nil {
		e.Index = idx
	}
	return e
}

// planRequest is a map of root within total tokens, reading the text only.
func planRequest(root string, total int) Request {
	zero := 0
	return Request{Paths: []string{root}, TextOnly: true, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
}

// countReads counts, by absolute path, the files a planned map reads.
func countReads(t *testing.T) map[string]int {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{}
	plannedReads = func(abs string) {
		mu.Lock()
		reads[abs]++
		mu.Unlock()
	}
	t.Cleanup(func() { plannedReads = nil })
	return reads
}

func packText(t *testing.T, e *Engine, req Request) *Result {
	t.Helper()
	res, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMapPlanReadsOnlyPlannedFiles: a warm map of an unchanged tree is
// answered from its plan — it reads the files it packs, each once, and
// nothing else (the index is not asked for any file's facts) — with the
// text, count and included entries of the map without an index.
func TestMapPlanReadsOnlyPlannedFiles(t *testing.T) {
	const files = 60
	root := planTree(t, files)
	for _, format := range []string{FormatMarkdown, FormatXML} {
		req := planRequest(root, 3000)
		req.Format = format
		want := packText(t, planEngine(t, root, nil), req)
		idx := newMemPlans()
		e := planEngine(t, root, idx)
		cold := packText(t, e, req)
		if idx.puts != 1 {
			t.Fatalf("%s: the cold map stored %d plans, want 1", format, idx.puts)
		}
		reads := countReads(t)
		hits := idx.hits
		warm := packText(t, planEngine(t, root, idx), req)
		if idx.hits != hits {
			t.Errorf("%s: the planned map asked the index for %d files' facts, want none", format, idx.hits-hits)
		}
		packed := map[string]bool{}
		for _, e := range want.Included {
			packed[filepath.Join(root, e.Path)] = true
		}
		if len(reads) != len(packed) || len(packed) == 0 || len(packed) >= files {
			t.Errorf("%s: the planned map read %d files, want the %d of %d it packs", format, len(reads), len(packed), files)
		}
		for abs, n := range reads {
			if !packed[abs] || n != 1 {
				t.Errorf("%s: the planned map read %s %d times (packed: %v)", format, abs, n, packed[abs])
			}
		}
		for name, res := range map[string]*Result{"cold": cold, "warm": warm} {
			if res.Content != want.Content || res.TokenCount != want.TokenCount || !slices.Equal(res.Included, want.Included) {
				t.Errorf("%s %s: the map differs from the one without an index (%d/%d bytes, %d/%d tokens)", format, name, len(res.Content), len(want.Content), res.TokenCount, want.TokenCount)
			}
		}
	}
}

// TestMapPlanNotForFullResults: a request that reads more than the text
// (the JSON result, a report) runs the map, whatever plan is stored.
func TestMapPlanNotForFullResults(t *testing.T) {
	root := planTree(t, 30)
	idx := newMemPlans()
	req := planRequest(root, 2000)
	packText(t, planEngine(t, root, idx), req)
	reads := countReads(t)
	req.TextOnly = false
	res := packText(t, planEngine(t, root, idx), req)
	if len(reads) != 0 || len(res.Excluded) == 0 {
		t.Errorf("a full result came from the plan (%d files read by it, %d excluded entries)", len(reads), len(res.Excluded))
	}
}

// TestMapPlanAfterEdits: after an edit of a file the plan packs, of one
// it does not, and of one that comes to hold a secret (redacted), the map
// — first with the listing racy, then settled, then from the plan made
// after the edit — is the map without an index.
func TestMapPlanAfterEdits(t *testing.T) {
	const files = 40
	root := planTree(t, files)
	idx := newMemPlans()
	req := planRequest(root, 2000)
	first := packText(t, planEngine(t, root, idx), req)
	inPlan := filepath.Join(root, first.Included[len(first.Included)-1].Path)
	var notIn string
	for i := files - 1; i >= 0; i-- {
		p := filepath.Join(root, fmt.Sprintf("f%03d.go", i))
		if !strings.Contains(first.Content, filepath.Base(p)) {
			notIn = p
			break
		}
	}
	if notIn == "" {
		t.Fatal("the map packs every file: no file outside the plan to edit")
	}
	edits := []struct {
		name, path, from, to string
	}{
		{"packed file", inPlan, "func Step", "func Stage"},
		{"file not packed", notIn, "Step0_0(y)", "Step0_0(y) + Step1_1(y) + Step2_2(y) + Step3_3(y)"},
		{"file made secret", inPlan, "package gen\n", "package gen\n\nconst awsKey = \"" + fakeKey + "\"\n"},
	}
	for k, ed := range edits {
		b, err := os.ReadFile(ed.path)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, ed.path, []byte(strings.Replace(string(b), ed.from, ed.to, 1)))
		racy := packText(t, planEngine(t, root, idx), req)
		check := func(when string, res *Result) {
			t.Helper()
			want := packText(t, planEngine(t, root, nil), req)
			if res.Content != want.Content || res.TokenCount != want.TokenCount {
				t.Errorf("%s, %s: the map (%d bytes) differs from the one without an index (%d bytes)", ed.name, when, len(res.Content), len(want.Content))
			}
		}
		check("racy", racy)
		settled := time.Now().Add(-time.Duration(k+1) * time.Minute)
		if err := os.Chtimes(ed.path, settled, settled); err != nil {
			t.Fatal(err)
		}
		puts := idx.puts
		check("settled", packText(t, planEngine(t, root, idx), req))
		if idx.puts != puts+1 {
			t.Errorf("%s: the settled map stored %d plans, want 1", ed.name, idx.puts-puts)
		}
		reads := countReads(t)
		check("planned", packText(t, planEngine(t, root, idx), req))
		if len(reads) == 0 {
			t.Errorf("%s: the map after the edit was not answered from its plan", ed.name)
		}
		plannedReads = nil
	}
	if sec := packText(t, planEngine(t, root, idx), req); strings.Contains(sec.Content, fakeKey) {
		t.Error("the planned map holds the secret")
	}
}

// TestMapPlanEncoding: a plan decodes to what was encoded; a truncated,
// extended or altered body is refused.
func TestMapPlanEncoding(t *testing.T) {
	pn := plan{tokens: 1234, text: [16]byte{1, 2, 3}, files: []uint64{7, 1 << 63},
		items: []planItem{{file: 1, start: 3, end: 9, tokens: 40, score: 0.8123, outline: true}, {file: 0, start: 1, end: 1, tokens: 2, score: 0.5}}}
	b := encodePlan(pn)
	got, ok := decodePlan(b)
	if !ok || got.tokens != pn.tokens || got.text != pn.text || !slices.Equal(got.files, pn.files) || !slices.Equal(got.items, pn.items) {
		t.Fatalf("decoded %+v, %v; want %+v", got, ok, pn)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(slices.Clone(b), 0), nil, append([]byte{2}, b[1:]...)} {
		if _, ok := decodePlan(bad); ok {
			t.Errorf("a bad plan of %d bytes decoded", len(bad))
		}
	}
	// An item naming a file the plan does not list.
	pn.items[0].file = 2
	if _, ok := decodePlan(encodePlan(pn)); ok {
		t.Error("a plan with an item of an unlisted file decoded")
	}
}

// TestMapPlanChecksTheText: a packed file changed without a change the
// listing shows (same size and modification time) makes the replayed
// text differ from the plan's hash: the map runs instead (here over an
// index that knows none of the files, which a stat could fool).
func TestMapPlanChecksTheText(t *testing.T) {
	root := planTree(t, 30)
	idx := newMemPlans()
	req := planRequest(root, 2000)
	first := packText(t, planEngine(t, root, idx), req)
	p := filepath.Join(root, first.Included[0].Path)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	writeFile(t, p, []byte(strings.ReplaceAll(string(b), " is step ", " zqxjkvw ")))
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	fresh := newMemPlans()
	fresh.plans = idx.plans
	got := packText(t, planEngine(t, root, fresh), req)
	want := packText(t, planEngine(t, root, nil), req)
	if got.Content != want.Content || !slices.Equal(got.Included, want.Included) || !strings.Contains(want.Content, "zqxjkvw") {
		t.Errorf("a packed file changed under the same stat: the map (%d bytes) differs from the one without an index (%d bytes)", len(got.Content), len(want.Content))
	}
}

// fakeKey is an AWS key id's shape (split: no secret in the source).
const fakeKey = "AKIA" + "Q3ZR7XK2M4PL8NB5"

// TestMapPlanKeyedByRequest: a plan answers only the request it was made
// for — another budget, format, include glob or configuration runs the
// map (and packs what the map without an index packs).
func TestMapPlanKeyedByRequest(t *testing.T) {
	root := planTree(t, 30)
	idx := newMemPlans()
	req := planRequest(root, 3000)
	packText(t, planEngine(t, root, idx), req)
	other := []func(*Request, *Engine){
		func(r *Request, _ *Engine) { *r = planRequest(root, 2500) },
		func(r *Request, _ *Engine) { r.Format = FormatXML },
		func(r *Request, _ *Engine) { r.Include = []string{"f00*.go"} },
		func(_ *Request, e *Engine) { e.cfg.Context.Dedup.Enabled = false },
		func(_ *Request, e *Engine) { e.cfg.Context.Chunking.MaxChunkTokens = 60 },
	}
	for i, change := range other {
		r := req
		e, none := planEngine(t, root, idx), planEngine(t, root, nil)
		change(&r, e)
		change(&r, none)
		reads := countReads(t)
		got := packText(t, e, r)
		if len(reads) != 0 {
			t.Errorf("change %d: answered from the plan of another request", i)
		}
		if want := packText(t, none, r); got.Content != want.Content {
			t.Errorf("change %d: the map (%d bytes) differs from the one without an index (%d bytes)", i, len(got.Content), len(want.Content))
		}
		plannedReads = nil
	}
}
