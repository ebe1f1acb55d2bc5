package pack

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/acode-lsp/acode-lsp/config"
)

// TestOneOffSamePack: a one-off pack of a real tree (GOROOT's net/rpc and
// net/textproto, copied) is the pack a server gives on its first, second
// and third pack of it (memos seen once, filled, then read), and it leaves
// the memos empty.
func TestOneOffSamePack(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"net/rpc", "net/textproto"} {
		src := filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(dir))
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Skipf("no GOROOT sources: %v", err)
		}
		for _, e := range ents {
			if e.Type().IsRegular() {
				data, err := os.ReadFile(filepath.Join(src, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(root, filepath.FromSlash(dir), e.Name()), data)
			}
		}
	}
	t.Cleanup(func() { oneOff.Store(false) })
	for _, query := range []string{"how does the server close the connection after an error", "read the MIME header continuation lines"} {
		total := 3000
		req := Request{Query: query, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: ptr(0), ResponseReserve: ptr(0)}}
		var server []string
		for range 3 {
			server = append(server, jsonOf(t, packTree(t, root, req, nil, nil)))
		}
		for i, s := range server[1:] {
			if s != server[0] {
				t.Fatalf("%q: server pack %d differs from the first", query, i+2)
			}
		}
		clearMemos()
		oneOff.Store(true)
		got := jsonOf(t, packTree(t, root, req, nil, nil))
		oneOff.Store(false)
		if got != server[0] {
			t.Errorf("%q: the one-off pack differs from the server's", query)
		}
		if after := memoSizes(); after != [5]int{} {
			t.Errorf("%q: a one-off pack filled the memos: %v", query, after)
		}
	}
}

// memoSizes returns the sizes of the memos a one-off pack leaves alone.
func memoSizes() [5]int {
	chunkTermsMemo.Lock()
	defer chunkTermsMemo.Unlock()
	graphWordsMemo.Lock()
	defer graphWordsMemo.Unlock()
	graphMemo.Lock()
	defer graphMemo.Unlock()
	return [5]int{len(chunkTermsMemo.m), chunkTermsMemo.bytes, len(graphWordsMemo.m), graphWordsMemo.bytes, len(graphMemo.kept)}
}

// clearMemos empties the memos a one-off pack leaves alone.
func clearMemos() {
	chunkTermsMemo.Lock()
	clear(chunkTermsMemo.m)
	chunkTermsMemo.bytes = 0
	chunkTermsMemo.Unlock()
	graphWordsMemo.Lock()
	clear(graphWordsMemo.m)
	graphWordsMemo.bytes = 0
	graphWordsMemo.Unlock()
	graphMemo.Lock()
	graphMemo.kept = nil
	graphMemo.Unlock()
}
