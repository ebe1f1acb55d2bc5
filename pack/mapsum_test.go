package pack

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// memSums is an in-memory index with map summaries and facts of redacted
// files over a memPlans (stamps and path hashes of paths, sizes and
// modification times; a file changed within two seconds has none).
type memSums struct {
	*memPlans
	keyedRed
	smu  sync.Mutex
	sums map[[32]byte][]byte
	red  map[string][]byte
	puts int
	// stats counts the files whose facts the index was asked for.
	stats int
}

func newMemSums() *memSums {
	return &memSums{memPlans: newMemPlans(), keyedRed: keyedRed{key: "k"}, sums: map[[32]byte][]byte{}, red: map[string][]byte{}}
}

func (m *memSums) MapSums(string) MapSumStore { return m }

func (m *memSums) Stamp(f collector.FileRef) (uint64, bool) {
	if time.Since(f.Info.ModTime()) < 2*time.Second {
		return 0, false
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "stamp\x00%s\x00%s\x00%d\x00%d", f.Abs, f.Path, f.Info.Size(), f.Info.ModTime().UnixNano())
	return h.Sum64(), true
}

func (m *memSums) Sum(key [32]byte) ([]byte, bool) {
	m.smu.Lock()
	defer m.smu.Unlock()
	b, ok := m.sums[key]
	return b, ok
}

func (m *memSums) PutSum(key [32]byte, size int, write func(io.Writer) error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil || buf.Len() != size {
		panic(fmt.Sprintf("a summary of %d bytes announced %d (%v)", buf.Len(), size, err))
	}
	m.smu.Lock()
	defer m.smu.Unlock()
	m.sums[key] = buf.Bytes()
	m.puts++
}

func (m *memSums) StatSets(f collector.FileRef, keys []string) ([][]chunker.Chunk, bool) {
	m.smu.Lock()
	m.stats++
	m.smu.Unlock()
	return m.memPlans.StatSets(f, keys)
}

func (m *memSums) PutMapRedacted(f collector.FileRef, key string, body []byte) {
	m.smu.Lock()
	defer m.smu.Unlock()
	m.red[statKey(f)+"\x00"+key] = slices.Clone(body)
}

func (m *memSums) MapRedacted(f collector.FileRef, key string) ([]byte, bool) {
	m.smu.Lock()
	defer m.smu.Unlock()
	m.stats++
	b, ok := m.red[statKey(f)+"\x00"+key]
	return b, ok
}

// sumTree is mapCutTree's tree of n files plus vaults files holding a
// secret (redacted), made an hour old.
func sumTree(t *testing.T, n, vaults int) string {
	t.Helper()
	_, root := mapCutTree(t, n)
	for i := 0; i < vaults; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package vault\n\nconst awsKey = %q\n\n", fakeKey)
		for j := 0; j < 3; j++ {
			fmt.Fprintf(&b, "// Vault%d_%d is a vault's step.\nfunc Vault%d_%d(x int) int { return Step%d_%d(x) + len(awsKey) }\n\n", i, j, i, j, i, j)
		}
		writeFile(t, filepath.Join(root, "vault", fmt.Sprintf("v%02d.go", i)), []byte(b.String()))
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return root
}

// TestMapSumAfterEdits: a map with a summary (mapsum.go) takes the files
// an edit left alone from it — the index is asked for the facts of the
// edited files and of the files the map's cut keeps only — and packs the
// text of the map without an index after every kind of edit: a comment
// appended, a definition added, a use added, a file removed, a file
// added, a redacted file edited, a file made secret; the ranks are the
// summary's exactly when no file's words changed.
func TestMapSumAfterEdits(t *testing.T) {
	const files, vaults = 4 * mapCutMinFiles, 6
	root := sumTree(t, files, vaults)
	idx := newMemSums()
	withSum := planEngine(t, root, idx)
	none := planEngine(t, root, nil)
	req := planRequest(root, 3000)
	type report struct {
		read           bool
		files, derived int
		same           bool
	}
	var got []report
	sumReport = func(read bool, files, derived int, same bool) { got = append(got, report{read, files, derived, same}) }
	t.Cleanup(func() { sumReport = nil })

	full, err := none.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved := limits
	t.Cleanup(func() { limits = saved })
	limits.candidates = int64(full.Stats.Chunks) * 2 / 3 // the map is cut: it keeps some files only

	stamp := time.Now().Add(-30 * time.Minute)
	edit := func(rel string, fn func(string) string) {
		t.Helper()
		p := filepath.Join(root, rel)
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		text := fn(string(b))
		if text == "" {
			os.Remove(p)
			return
		}
		writeFile(t, p, []byte(text))
		stamp = stamp.Add(time.Second) // settled, and a stat of its own
		os.Chtimes(p, stamp, stamp)
	}
	check := func(when string) report {
		t.Helper()
		got = nil
		idx.stats = 0
		want, err := none.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := withSum.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if res.Content != want.Content || res.TokenCount != want.TokenCount {
			t.Fatalf("%s: the map with a summary differs from the map without an index:\n--- with\n%s\n--- without\n%s", when, res.Content, want.Content)
		}
		if len(got) != 1 {
			t.Fatalf("%s: %d maps with a summary ran (%+v), want 1", when, len(got), got)
		}
		return got[0]
	}
	first := check("first")
	if first.read || first.derived != first.files || first.files < files {
		t.Fatalf("first map: %+v; want no summary read, every file derived", first)
	}
	packed := map[string]bool{}
	for _, e := range full.Included {
		packed[e.Path] = true
	}
	var notPacked string
	for i := files - 1; i >= 0 && notPacked == ""; i-- {
		if name := fmt.Sprintf("f%03d.go", i); !packed[name] {
			notPacked = name
		}
	}
	appendText := func(s string) func(string) string { return func(b string) string { return b + s } }
	for _, ed := range []struct {
		name, file string
		fn         func(string) string
		sameRanks  bool
		files      int // change in the files ranked
	}{
		{"comment appended", notPacked, appendText("// x y z 42\n"), true, 0},
		{"definition added", notPacked, appendText("func StepNewly(x int) int { return x }\n"), false, 0},
		{"use added", "f005.go", func(b string) string {
			return strings.Replace(b, "package gen\n", "package gen\n\nvar _ = StepNewly(1) + Step9_1(2) + Step9_2(3)\n", 1)
		}, false, 0},
		{"file removed", "f007.go", func(string) string { return "" }, false, -1},
		{"file added", "g/added.go", appendText("package g\n\n// Added uses its neighbours.\nfunc Added() int { return Step1_1(1) + Step2_1(2) + Vault1_1(3) }\n"), false, 1},
		{"redacted file edited", "vault/v01.go", appendText("func VaultMore(x int) int { return Step3_3(x) + len(awsKey) }\n"), false, 0},
		{"file made secret", "f009.go", func(b string) string {
			return strings.Replace(b, "package gen\n", "package gen\n\nconst awsKey = \""+fakeKey+"\"\n", 1)
		}, false, 0},
	} {
		before := first.files
		edit(ed.file, ed.fn)
		r := check(ed.name)
		if !r.read || r.files != before+ed.files {
			t.Errorf("%s: %+v; want the summary read and %d files", ed.name, r, before+ed.files)
		}
		if wantDerived := min(1, 1+ed.files); r.derived != wantDerived {
			t.Errorf("%s: %d files derived again, want %d (the edited one)", ed.name, r.derived, wantDerived)
		}
		if r.same != ed.sameRanks {
			t.Errorf("%s: the summary's ranks used: %v, want %v", ed.name, r.same, ed.sameRanks)
		}
		if idx.stats >= files/2 {
			t.Errorf("%s: the index was asked for the facts of %d files; want only the edited and the kept ones, not all %d", ed.name, idx.stats, r.files)
		}
		first = r
	}
}

// TestSumGraphSameAsMapGraph: the ranks of a map from summary entries
// (words by keyed hash, ids in one table, mapsum.go) are the ranks of
// mapGraph over the same files, bit for bit, on random trees of plain,
// split and repeated names and uses before and past the scan limit.
func TestSumGraphSameAsMapGraph(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	vocab := make([]string, 60)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("Word%dx", i)
	}
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.Intn(40)
		files := make([]mapFile, n)
		for f := range files {
			files[f].path = fmt.Sprintf("d%d/f%02d.go", f%3, f)
			for k := rng.Intn(5); k > 0; k-- {
				a, b := vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))]
				files[f].names = append(files[f].names, []string{a, a + "." + b, "(" + b + ") " + a}[rng.Intn(3)])
			}
			var parts []string
			for k := rng.Intn(30); k > 0; k-- {
				parts = append(parts, vocab[rng.Intn(len(vocab))]+"() + "+strings.Repeat(" ", rng.Intn(40000)))
			}
			files[f].parts = parts
		}
		want := newRepoMapOf(files, nil)
		ss := &sumState{st: newMemSums(), hash: keyedRed{key: "k"}.MapWordHash, extra: map[uint64]uint32{}, refOf: map[string]refNote{}}
		got, ok := ss.repoMap(context.Background(), files, nil)
		if !ok {
			t.Fatal("the summary could not rank the files")
		}
		if !slices.Equal(got.order, want.order) || fmt.Sprint(got.central) != fmt.Sprint(want.central) {
			t.Fatalf("trial %d: ranks differ:\nsum   %v\ngraph %v", trial, got.central, want.central)
		}
		// Read back: the same files give the summary's ranks.
		ss2 := &sumState{st: ss.st, hash: ss.hash, extra: map[uint64]uint32{}, refOf: map[string]refNote{}}
		body, _ := ss.st.Sum(ss.key)
		if ss2.old = decodeSum(body); ss2.old == nil {
			t.Fatal("the stored summary does not decode")
		}
		ss2.words = ss2.old.words
		again, ok := ss2.repoMap(context.Background(), files, nil)
		if !ok || fmt.Sprint(again.central) != fmt.Sprint(want.central) {
			t.Fatalf("trial %d: ranks from the summary read back differ", trial)
		}
	}
}

// TestSumEncoding: a summary decodes to what was encoded; a cut,
// extended or altered encoding is refused, never a panic.
func TestSumEncoding(t *testing.T) {
	words := []uint64{10, 30, 20}
	ents := []*sumEntry{
		{path: 1, stamp: 11, chunks: 3, tokens: 90, redactions: 1, central: 0.25, words: &sumWords{defs: []uint32{0, 2}, uses: []uint32{1, 2}, at: []int32{4, 70}}},
		{path: 2, stamp: 0, chunks: 1, tokens: 5, reach: 1024, central: 1, words: &sumWords{uses: []uint32{0}, at: []int32{0}}},
	}
	b := encodeSum(&sumEnc{limit: 1024, words: words, perm: []uint32{0, 1}, ents: ents, central: []float64{0.25, 1}}) // ids 0, 1 in order of hash; 2 added since
	s := decodeSum(b)
	if s == nil {
		t.Fatal("the encoding does not decode")
	}
	if s.limit != 1024 || !slices.Equal(s.words, words) || !slices.Equal(s.perm, []uint32{0, 2, 1}) || len(s.files) != 2 {
		t.Fatalf("decoded %+v", s)
	}
	for i := range ents {
		g, w := s.files[i], ents[i]
		gw := s.sumWordsOf(&g, &sumWords{})
		if g.path != w.path || g.stamp != w.stamp || g.chunks != w.chunks || g.tokens != w.tokens || g.redactions != w.redactions ||
			g.reach != w.reach || g.central != w.central || !slices.Equal(gw.defs, w.words.defs) || !slices.Equal(gw.uses, w.words.uses) || !slices.Equal(gw.at, w.words.at) {
			t.Errorf("file %d: decoded %+v %+v, want %+v %+v", i, g, gw, w, w.words)
		}
	}
	// Written again from the summary read (its entries' encodings
	// copied, the centralities new, a word added): the same bytes as
	// encoded from the words themselves.
	again := &sumEnc{limit: 1024, words: append(slices.Clone(words), 25), perm: s.perm, ents: []*sumEntry{&s.files[1], &s.files[0]}, central: []float64{0.5, 0.75}, old: s}
	fromWords := &sumEnc{limit: 1024, words: again.words, perm: s.perm, ents: []*sumEntry{ents[1], ents[0]}, central: again.central}
	if x, y := encodeSum(again), encodeSum(fromWords); !bytes.Equal(x, y) || again.size() != len(x) || fromWords.size() != len(y) {
		t.Errorf("written again from the summary read: %d bytes (size %d), from the words %d (size %d), or they differ", len(x), again.size(), len(y), fromWords.size())
	}
	if _, ok := s.byStamp[11]; !ok || len(s.byStamp) != 1 {
		t.Errorf("byStamp %v: want stamp 11 only (0 is none)", s.byStamp)
	}
	for i := 0; i < len(b); i++ {
		if decodeSum(b[:i]) != nil {
			t.Errorf("an encoding cut at %d of %d decodes", i, len(b))
		}
	}
	if decodeSum(append(slices.Clone(b), 0)) != nil {
		t.Error("an encoding with a byte left over decodes")
	}
	bad := encodeSum(&sumEnc{limit: 1024, words: words, ents: ents, central: []float64{0.25, 1}})
	copy(bad[4+24:], []byte{1, 0, 0, 0}) // the order of hashes: id 1 (30) first
	if decodeSum(bad) != nil {
		t.Error("a table out of order of hash decodes")
	}
	for i := range b {
		c := slices.Clone(b)
		c[i] ^= 0xff
		decodeSum(c) // refused or not, no panic
	}
}
