package index

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

func testPlans(t *testing.T) (planStore, string) {
	t.Helper()
	dir := t.TempDir()
	x := openTest(t, t.TempDir(), dir)
	return planStore{x: x, mu: &sync.Mutex{}}, filepath.Join(dir, planName)
}

func planKey(b byte) (k [32]byte) {
	k[0] = b
	return k
}

// TestPlanRoundTrip: a plan comes back for its key and listing only; a
// later plan of the key replaces it; past maxPlans the plan put longest
// ago goes; the file holds neither key nor listing as given.
func TestPlanRoundTrip(t *testing.T) {
	ps, p := testPlans(t)
	if _, ok := ps.Plan(planKey(1), planKey(9)); ok {
		t.Fatal("a plan without a file")
	}
	ps.PutPlan(planKey(1), planKey(9), []byte("one"))
	if b, ok := ps.Plan(planKey(1), planKey(9)); !ok || string(b) != "one" {
		t.Fatalf("plan = %q, %v", b, ok)
	}
	if _, ok := ps.Plan(planKey(1), planKey(8)); ok {
		t.Error("a plan for another listing")
	}
	ps.PutPlan(planKey(1), planKey(8), []byte("two"))
	if b, ok := ps.Plan(planKey(1), planKey(8)); !ok || string(b) != "two" {
		t.Errorf("replaced plan = %q, %v", b, ok)
	}
	for k := byte(2); k <= maxPlans+1; k++ {
		ps.PutPlan(planKey(k), planKey(9), []byte{k})
	}
	if _, ok := ps.Plan(planKey(1), planKey(8)); ok {
		t.Errorf("%d plans kept, want at most %d", maxPlans+1, maxPlans)
	}
	if b, ok := ps.Plan(planKey(maxPlans+1), planKey(9)); !ok || !bytes.Equal(b, []byte{maxPlans + 1}) {
		t.Errorf("the last plan = %v, %v", b, ok)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	k := planKey(maxPlans + 1)
	if bytes.Contains(raw, k[:]) {
		t.Error("the plan file holds a key as given (not keyed)")
	}
	ps.PutPlan(planKey(1), planKey(1), make([]byte, maxPlanBody+1))
	if _, ok := ps.Plan(planKey(1), planKey(1)); ok {
		t.Error("a plan over maxPlanBody was kept")
	}
}

// TestPlanFileUntrusted: a plan file altered anywhere, cut short, or
// replaced by a link is ignored; the next plan writes a good file.
func TestPlanFileUntrusted(t *testing.T) {
	ps, p := testPlans(t)
	ps.PutPlan(planKey(1), planKey(2), []byte("plan body"))
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range map[string][]byte{
		"flipped": append(append([]byte{}, good[:40]...), append([]byte{good[40] ^ 1}, good[41:]...)...),
		"short":   good[:len(good)-1],
		"empty":   {},
	} {
		if err := os.WriteFile(p, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := ps.Plan(planKey(1), planKey(2)); ok {
			t.Errorf("a plan from a file of %d bytes (of %d) was used", len(bad), len(good))
		}
	}
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, good, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if err := os.Symlink(other, p); err != nil {
		t.Fatal(err)
	}
	if _, ok := ps.Plan(planKey(1), planKey(2)); ok {
		t.Error("a plan was read through a link")
	}
	os.Remove(p)
	ps.PutPlan(planKey(3), planKey(4), []byte("again"))
	if b, ok := ps.Plan(planKey(3), planKey(4)); !ok || string(b) != "again" {
		t.Errorf("after a bad file, plan = %q, %v", b, ok)
	}
}

// TestPlanListing: the listing's digest changes with a file's size, its
// path and the extra bytes, and does not settle while a file is racy.
func TestPlanListing(t *testing.T) {
	ps, _ := testPlans(t)
	root := t.TempDir()
	ref := func(name, content string) collector.FileRef {
		p := filepath.Join(root, name)
		return collector.FileRef{Abs: p, Path: name, Info: write(t, p, content)}
	}
	refs := []collector.FileRef{ref("a.go", "package a\n"), ref("b.go", "package b\n")}
	base, ok := ps.Listing(refs, nil)
	if !ok {
		t.Fatal("a listing of settled files did not settle")
	}
	if d, _ := ps.Listing(refs, []byte("x")); d == base {
		t.Error("extra bytes do not change the digest")
	}
	grown := []collector.FileRef{refs[0], ref("b.go", "package bb\n")}
	if d, _ := ps.Listing(grown, nil); d == base {
		t.Error("a file's new size does not change the digest")
	}
	moved := []collector.FileRef{refs[0], {Abs: refs[1].Abs, Path: "c.go", Info: refs[1].Info}}
	if d, _ := ps.Listing(moved, nil); d == base {
		t.Error("a file's path does not change the digest")
	}
	ps.x.now = func() time.Time { return time.Now() }
	if _, ok := ps.Listing(refs, nil); ok {
		t.Error("a listing of files written just now settled")
	}
}
