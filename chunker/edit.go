package chunker

/*
#include <stdint.h>

// These mirror TSPoint and TSInputEdit of tree-sitter's api.h (the layout
// of the C library compiled into github.com/smacker/go-tree-sitter).
typedef struct { uint32_t row; uint32_t column; } acodePoint;
typedef struct {
	uint32_t start_byte;
	uint32_t old_end_byte;
	uint32_t new_end_byte;
	acodePoint start_point;
	acodePoint old_end_point;
	acodePoint new_end_point;
} acodeInputEdit;

struct TSTree;
void ts_tree_edit(struct TSTree *self, const acodeInputEdit *edit);

static void acode_tree_edit(void *tree, acodeInputEdit edit) {
	ts_tree_edit((struct TSTree *)tree, &edit);
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// editTree applies edit e to tree t.
//
// Library defect (smacker/go-tree-sitter v0.0.0-20240827094217): Tree.Edit
// and Node.Edit build the C TSInputEdit with new_end_point set from
// OldEndPoint, so every edit that changes line structure leaves wrong rows
// and columns in the edited tree. We call ts_tree_edit (linked into the
// binary by that package) ourselves with all six fields. The C tree pointer
// is the first field of sitter.BaseTree; TestEditTreeKeepsNewEndPoint
// checks that this still holds.
func editTree(t *sitter.Tree, e sitter.EditInput) {
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(t.BaseTree))
	C.acode_tree_edit(ptr, C.acodeInputEdit{
		start_byte:    C.uint32_t(e.StartIndex),
		old_end_byte:  C.uint32_t(e.OldEndIndex),
		new_end_byte:  C.uint32_t(e.NewEndIndex),
		start_point:   cPoint(e.StartPoint),
		old_end_point: cPoint(e.OldEndPoint),
		new_end_point: cPoint(e.NewEndPoint),
	})
}

func cPoint(p sitter.Point) C.acodePoint {
	return C.acodePoint{row: C.uint32_t(p.Row), column: C.uint32_t(p.Column)}
}
