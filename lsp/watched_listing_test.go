package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchedListing: once the client watches every file for the server,
// the workspace keeps its listing across packs (a file added without a
// reported change is not searched), and an edit, a new file or a deletion
// reported by workspace/didChangeWatchedFiles is seen by the next pack.
// Without the client's watcher every pack walks the tree. With the
// workspace index on, the searches ask it too (TestSearchUsesIndex).
func TestWatchedListing(t *testing.T) {
	for _, tc := range []struct {
		name           string
		watch, indexed bool
	}{{"watched", true, false}, {"polled", false, false}, {"watched, indexed", true, true}} {
		watch := tc.watch
		t.Run(tc.name, func(t *testing.T) {
			root := tempRoot(t)
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			writeFiles(t, root, map[string]string{
				"cart/service.go": "package cart\n\n// Checkout charges the cart.\nfunc Checkout() {}\n",
				"main.go":         "package main\n\nfunc main() {}\n",
			})
			var srv *Server
			c := startServer(t, Options{ConfigPollInterval: time.Hour, WorkspaceIndex: tc.indexed}, func(s *Server) { srv = s })
			caps := map[string]any{}
			if watch {
				caps = map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
			}
			c.initialize(caps, nil, root)
			if watch {
				reg, _ := c.waitNote("client/registerCapability", 0, nil)
				if !strings.Contains(string(reg.Params), `"**/*"`) || !strings.Contains(string(reg.Params), `"kind":7`) {
					t.Fatalf("no watcher of every file's creation, change and deletion: %s", reg.Params)
				}
				deadline := time.Now().Add(10 * time.Second)
				for !srv.watching.Load() {
					if time.Now().After(deadline) {
						t.Fatal("the registration was not answered in 10 s")
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			search := func(pattern string) string {
				t.Helper()
				var res struct {
					Content string `json:"content"`
				}
				msg := c.call("acode/packContext", map[string]any{"search": map[string]any{"pattern": pattern}, "includeOpenFiles": false})
				if msg.Error != nil && strings.Contains(msg.Error.Message, "no content") {
					return "" // nothing matched
				}
				if msg.Error != nil {
					t.Fatalf("search %s: %s", pattern, msg.Error.Message)
				}
				if err := json.Unmarshal(msg.Result, &res); err != nil {
					t.Fatal(err)
				}
				return res.Content
			}
			changed := func(rel string, typ int) {
				c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
					{"uri": string(pathToURI(filepath.Join(root, filepath.FromSlash(rel)))), "type": typ}}})
			}
			if !strings.Contains(search("Checkout"), "func Checkout") {
				t.Fatal("the first search found nothing")
			}
			writeFiles(t, root, map[string]string{"cart/service.go": "package cart\n\n// Checkout charges the cart.\nfunc Checkout() { wombat() }\n"})
			changed("cart/service.go", 2)
			if !strings.Contains(search("wombat"), "wombat()") {
				t.Error("the edit is not in the next pack")
			}
			writeFiles(t, root, map[string]string{"cart/refund.go": "package cart\n\nfunc Refund() { quokka() }\n"})
			changed("cart/refund.go", 1)
			if !strings.Contains(search("quokka"), "quokka()") {
				t.Error("the new file is not in the next pack")
			}
			if err := os.Remove(filepath.Join(root, "cart", "refund.go")); err != nil {
				t.Fatal(err)
			}
			changed("cart/refund.go", 3)
			if strings.Contains(search("quokka"), "quokka()") {
				t.Error("the deleted file is still in the next pack")
			}
			// Not reported: found only when every pack walks.
			writeFiles(t, root, map[string]string{"cart/hidden.go": "package cart\n\nfunc Hidden() { numbat() }\n"})
			found := strings.Contains(search("numbat"), "numbat()")
			if watch && found {
				t.Error("a file added without a reported change was searched: the listing was walked again, not kept")
			}
			if !watch && !found {
				t.Error("without the client's watcher a new file was not found: the listing was kept")
			}
		})
	}
}
