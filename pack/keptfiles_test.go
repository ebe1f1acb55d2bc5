package pack

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// TestKeptFiles: an engine that keeps its files packs what an engine that
// reads them packs, pack after pack; it keeps the files it read, not one
// changed in the last two seconds; a file changed on disk (another stat)
// is read again; Forget and ForgetFiles drop files and the names of their
// chunks.
func TestKeptFiles(t *testing.T) {
	root := fileFirstTree(t, 150)
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	fresh := filepath.Join(root, "cart", "fresh.go")
	writeFile(t, fresh, []byte(checkoutFile+"\n// Checkout again for an empty cart.\n"))
	soon := time.Now().Add(time.Hour) // within the racy window however slow the test runs
	os.Chtimes(fresh, soon, soon)

	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	e.KeepFiles()
	total := 3000
	req := Request{Query: "why does checkout fail for empty carts", Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
	same := func(what string) {
		t.Helper()
		got, err := e.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := packTree(t, root, req, nil, nil)
		if got.Content != want.Content || len(got.Included) != len(want.Included) || len(got.Excluded) != len(want.Excluded) {
			t.Fatalf("%s: the kept files' pack differs from a pack that reads them", what)
		}
	}
	same("first")
	kept := e.kept.c.Len()
	if kept == 0 {
		t.Fatal("no file kept")
	}
	if _, ok := e.kept.c.Get(fresh); ok {
		t.Error("a file changed within two seconds was kept")
	}
	named := textid.Len()
	same("second")
	same("third")
	if e.kept.c.Len() != kept || textid.Len() != named {
		t.Errorf("warm packs kept %d files and %d names, want %d and %d", e.kept.c.Len(), textid.Len(), kept, named)
	}

	checkout := filepath.Join(root, "cart", "checkout.go")
	f, ok := e.kept.c.Get(checkout)
	if !ok {
		t.Fatal("the checkout file is not kept")
	}
	writeFile(t, checkout, []byte(checkoutFile+"\n// ErrEmptyCart: checkout of an empty cart, changed.\n"))
	os.Chtimes(checkout, old.Add(time.Minute), old.Add(time.Minute))
	same("after a change on disk")
	f2, ok := e.kept.c.Get(checkout)
	if !ok || f2 == f {
		t.Fatal("a changed file was not read and kept again")
	}
	// A change the listing did not see (the same stat as listed, a new
	// one on disk) goes to the collector, not to the kept text.
	writeFile(t, checkout, []byte(checkoutFile+"\n// ErrEmptyCart: checkout of an empty cart, unlisted.\n"))
	os.Chtimes(checkout, old.Add(2*time.Minute), old.Add(2*time.Minute))
	ref := collector.FileRef{Abs: checkout, Path: "cart/checkout.go", Info: statInfo{f2.size, time.Unix(0, f2.mtime)}}
	p := &pipeline{e: e, ctx: context.Background()}
	if s, _, x := p.readRef(context.Background(), ref); x == nil && !strings.Contains(s.Content, "unlisted") {
		t.Error("a kept file changed on disk under its listed stat was taken as kept") // (the collector reads it, or refuses a stale listing's)
	}
	e.Forget(checkout)
	if _, ok := e.kept.c.Get(checkout); ok {
		t.Error("Forget kept the file")
	}
	e.ForgetFiles()
	if e.kept.c.Len() != 0 || e.kept.bytes.Load() != 0 {
		t.Errorf("ForgetFiles left %d files, %d bytes", e.kept.c.Len(), e.kept.bytes.Load())
	}
	if textid.Len() >= named {
		t.Errorf("the kept chunks are still named (%d names, %d when kept)", textid.Len(), named)
	}
	same("after ForgetFiles")
}
