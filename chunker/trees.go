package chunker

import (
	"runtime"
	"sync/atomic"

	sitter "github.com/smacker/go-tree-sitter"
)

// leftBytes is how many more source bytes may have their syntax trees left
// to the process's exit ([LeaveTreesToExit]); 0 frees every tree.
var leftBytes atomic.Int64

// LeaveTreesToExit makes [Split] and [Outline] stop freeing the syntax
// trees of the next sources they parse, up to maxSourceBytes of source in
// total, for a process that ends as soon as its work is done (the command
// line). tree-sitter frees a tree node by node, which costs several percent
// of a pack; the operating system takes the memory back at exit at once.
// Past the limit, trees are freed as usual, so memory stays bounded. A
// long-running process (the language server) never calls it.
func LeaveTreesToExit(maxSourceBytes int64) { leftBytes.Store(maxSourceBytes) }

// release frees tree, a parse of n source bytes, unless it may be left to
// the process's exit. A tree left so also loses the library's finalizer,
// which would free it at the next garbage collection instead.
func release(tree *sitter.Tree, n int) {
	for {
		left := leftBytes.Load()
		if left < int64(n) || left == 0 {
			tree.Close()
			return
		}
		if leftBytes.CompareAndSwap(left, left-int64(n)) {
			runtime.SetFinalizer(tree.BaseTree, nil)
			return
		}
	}
}
