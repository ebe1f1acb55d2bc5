package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchedPacksSeeEdits: with the file watcher, the workspace's listing
// is kept across packs (a file added behind the watcher's back is not
// seen), and every edit, new file and deletion on disk the watcher
// reports is seen by the next pack, which equals a pack of a server
// without the watcher.
func TestWatchedPacksSeeEdits(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"cart/service.go": "package cart\n\n// Checkout charges the cart.\nfunc Checkout() {}\n",
		"cart/model.go":   "package cart\n\n// Cart holds checkout items.\ntype Cart struct{}\n",
		"main.go":         "package main\n\nfunc main() {}\n",
	})
	cs, srv := connect(t, Options{Root: root, WatchFiles: true}, nil)
	t.Cleanup(srv.closeWatcher)
	plain, _ := connect(t, Options{Root: root}, nil)
	args := map[string]any{"query": "checkout cart", "budget": 4000}
	pack := func(step string) string {
		t.Helper()
		got := callTool(t, cs, "pack_context", args)
		if got.isError {
			t.Fatalf("%s: %s", step, got.text)
		}
		if want := callTool(t, plain, "pack_context", args); got.text != want.text {
			t.Fatalf("%s: the watched server's pack differs from a fresh walk's:\n%s\nwant:\n%s", step, got.text, want.text)
		}
		return got.text
	}
	// settle waits until the watcher has reported n more changes.
	settle := func(before uint64, n uint64) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for srv.watch.seen() < before+n {
			if ctx.Err() != nil {
				t.Fatalf("the watcher reported %d of %d changes in 10 s", srv.watch.seen()-before, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	write := func(rel, text string) {
		t.Helper()
		before := srv.watch.seen()
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		settle(before, 1)
	}
	pack("first")  // walks, starts watching
	pack("second") // walks again, kept
	if srv.watch == nil || !srv.currentWorkspace().ListingsKept() {
		t.Fatal("no watcher, or the workspace does not keep listings")
	}

	write("cart/service.go", "package cart\n\n// Checkout charges the cart, wombatCheckout.\nfunc Checkout() {}\n")
	if !strings.Contains(pack("edited"), "wombatCheckout") {
		t.Error("the edit is not in the next pack")
	}
	write("cart/extra.go", "package cart\n\n// Refund undoes a checkout of the cart: quokkaRefund.\nfunc Refund() {}\n")
	if !strings.Contains(pack("created"), "quokkaRefund") {
		t.Error("the new file is not in the next pack")
	}
	before := srv.watch.seen()
	if err := os.Remove(filepath.Join(root, "cart", "extra.go")); err != nil {
		t.Fatal(err)
	}
	settle(before, 1)
	if strings.Contains(pack("deleted"), "quokkaRefund") {
		t.Error("the deleted file is still in the next pack")
	}
	pack("kept again")

	// Behind the watcher's back: the kept listing does not have the file,
	// which shows the walk was skipped.
	srv.watch.close()
	writeTree(t, root, map[string]string{"cart/hidden.go": "package cart\n\n// Hidden checkout of the cart: numbatHidden.\nfunc Hidden() {}\n"})
	if got := callTool(t, cs, "pack_context", args); strings.Contains(got.text, "numbatHidden") {
		t.Error("a file added without a reported change is packed: the listing was walked again, not kept")
	}
}
