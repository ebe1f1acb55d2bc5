package chunker

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// These mirror TSNode, TSTreeCursor, TSPoint and TSRange of tree-sitter's
// api.h (the C library compiled into github.com/smacker/go-tree-sitter).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } acodeNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } acodeCursor;
typedef struct { uint32_t row; uint32_t column; } acodeRangePoint;
typedef struct { acodeRangePoint start_point; acodeRangePoint end_point; uint32_t start_byte; uint32_t end_byte; } acodeRange;

struct TSTree;
acodeNode ts_tree_root_node(const struct TSTree *self);
acodeCursor ts_tree_cursor_new(acodeNode node);
void ts_tree_cursor_delete(acodeCursor *self);
bool ts_tree_cursor_goto_first_child(acodeCursor *self);
bool ts_tree_cursor_goto_next_sibling(acodeCursor *self);
acodeNode ts_tree_cursor_current_node(const acodeCursor *self);
uint32_t ts_node_start_byte(acodeNode self);
uint32_t ts_node_end_byte(acodeNode self);
uint16_t ts_node_symbol(acodeNode self);
bool ts_node_is_named(acodeNode self);
bool ts_node_has_error(acodeNode self);
uint32_t ts_node_child_count(acodeNode self);
acodeRange *ts_tree_get_changed_ranges(const struct TSTree *old_tree, const struct TSTree *new_tree, uint32_t *length);

static uint32_t acode_root_child_count(void *tree) {
	return ts_node_child_count(ts_tree_root_node(tree));
}

// acode_root_kids writes, for each named child of the root (at most cap),
// five numbers: its index among all children, start byte, end byte,
// symbol, and whether it holds an error. It returns how many it wrote.
static uint32_t acode_root_kids(void *tree, uint32_t *out, uint32_t cap) {
	acodeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t n = 0, i = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			acodeNode k = ts_tree_cursor_current_node(&c);
			if (ts_node_is_named(k) && n < cap) {
				uint32_t *o = out + 5 * n++;
				o[0] = i;
				o[1] = ts_node_start_byte(k);
				o[2] = ts_node_end_byte(k);
				o[3] = ts_node_symbol(k);
				o[4] = ts_node_has_error(k);
			}
			i++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return n;
}

bool ts_tree_cursor_goto_parent(acodeCursor *self);

// acode_find_body is findBody in one call: it searches the named
// descendants of n in pre-order, down to depth+1 levels, for the first
// whose symbol has flag 1 (a body type). It writes the body's start byte
// to out[0] and, when the body's first named child has flag 2 (an
// expression statement) and holds one named child, of flag 4 (a string),
// that first child's end byte plus one to out[1] (else 0). It returns
// whether it found a body.
static bool acode_find_body(acodeNode n, int depth, const uint8_t *flags, uint32_t nflags, uint32_t *out) {
	acodeCursor c = ts_tree_cursor_new(n);
	bool found = false;
	int level = 1;
	bool more = ts_tree_cursor_goto_first_child(&c);
	while (more) {
		acodeNode k = ts_tree_cursor_current_node(&c);
		bool named = ts_node_is_named(k);
		uint16_t s = ts_node_symbol(k);
		if (named && s < nflags && (flags[s] & 1)) {
			found = true;
			out[0] = ts_node_start_byte(k);
			out[1] = 0;
			if (ts_tree_cursor_goto_first_child(&c)) {
				acodeNode first = {0};
				bool have = false;
				do {
					acodeNode x = ts_tree_cursor_current_node(&c);
					if (ts_node_is_named(x)) {
						first = x;
						have = true;
						break;
					}
				} while (ts_tree_cursor_goto_next_sibling(&c));
				uint16_t fs = have ? ts_node_symbol(first) : 0;
				if (have && fs < nflags && (flags[fs] & 2)) {
					acodeCursor d = ts_tree_cursor_new(first);
					uint32_t named_kids = 0;
					bool str = false;
					if (ts_tree_cursor_goto_first_child(&d)) {
						do {
							acodeNode x = ts_tree_cursor_current_node(&d);
							if (ts_node_is_named(x)) {
								uint16_t xs = ts_node_symbol(x);
								named_kids++;
								str = xs < nflags && (flags[xs] & 4);
							}
						} while (ts_tree_cursor_goto_next_sibling(&d));
					}
					ts_tree_cursor_delete(&d);
					if (named_kids == 1 && str) {
						out[1] = ts_node_end_byte(first) + 1;
					}
				}
			}
			break;
		}
		if (named && level <= depth && ts_tree_cursor_goto_first_child(&c)) {
			level++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (level == 1 || !ts_tree_cursor_goto_parent(&c)) {
				more = false;
				break;
			}
			level--;
		}
	}
	ts_tree_cursor_delete(&c);
	return found;
}

// acode_changed_ranges writes the byte ranges of the changed ranges
// between two trees (at most cap) and returns how many there are.
static uint32_t acode_changed_ranges(void *old_tree, void *new_tree, uint32_t *out, uint32_t cap) {
	uint32_t n = 0;
	acodeRange *r = ts_tree_get_changed_ranges(old_tree, new_tree, &n);
	for (uint32_t i = 0; i < n && i < cap; i++) {
		out[2 * i] = r[i].start_byte;
		out[2 * i + 1] = r[i].end_byte;
	}
	free(r);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// rootKid is a named child of a tree's root, read without a Node.
type rootKid struct {
	index      int // among all the root's children
	start, end int
	sym        sitter.Symbol
	bad        bool
}

// treePtr returns the C tree of t: the first field of sitter.BaseTree (as
// in editTree).
func treePtr(t *sitter.Tree) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(t.BaseTree))
}

// rootKids lists the named children of t's root in one call into C (a
// Node per child through the bindings costs several calls and a map entry
// each, which on 10,000 top-level nodes is most of a re-chunk).
func rootKids(t *sitter.Tree) []rootKid {
	p := treePtr(t)
	n := int(C.acode_root_child_count(p))
	if n == 0 {
		return nil
	}
	buf := make([]C.uint32_t, 5*n)
	got := int(C.acode_root_kids(p, &buf[0], C.uint32_t(n)))
	kids := make([]rootKid, got)
	for i := range kids {
		o := buf[5*i:]
		kids[i] = rootKid{index: int(o[0]), start: int(o[1]), end: int(o[2]), sym: sitter.Symbol(o[3]), bad: o[4] != 0}
	}
	return kids
}

// bodyFlags returns, per symbol of lang, the flags acode_find_body reads:
// 1 for the body types (bodyTypes), 2 for an expression statement, 4 for
// a string.
func bodyFlags(lang *sitter.Language) []uint8 {
	flags := make([]uint8, lang.SymbolCount())
	for i := range flags {
		switch name := lang.SymbolName(sitter.Symbol(i)); {
		case bodyTypes[name]:
			flags[i] = 1
		case name == "expression_statement":
			flags[i] = 2
		case name == "string":
			flags[i] = 4
		}
	}
	return flags
}

// nodeOf returns the C node of n: the first field of sitter.Node (as
// treePtr reads sitter.BaseTree's).
func nodeOf(n *sitter.Node) C.acodeNode {
	return *(*C.acodeNode)(unsafe.Pointer(n))
}

// findBodyC is findBody (at most depth levels down) in one call into C,
// with the flags of n's language (bodyFlags): the start byte of the body
// found and, when the body opens with a docstring (an expression
// statement of one string), that statement's end byte (else -1).
func findBodyC(n *sitter.Node, depth int, flags []uint8) (start, docEnd int, ok bool) {
	if n == nil || depth < 0 || len(flags) == 0 {
		return 0, -1, false
	}
	var out [2]C.uint32_t
	if !C.acode_find_body(nodeOf(n), C.int(depth), (*C.uint8_t)(unsafe.Pointer(&flags[0])), C.uint32_t(len(flags)), &out[0]) {
		return 0, -1, false
	}
	return int(out[0]), int(out[1]) - 1, true
}

// changedRanges returns the byte ranges (in new's text) where the syntax
// of new differs from old, the tree it was re-parsed from.
func changedRanges(old, new *sitter.Tree) [][2]int {
	const most = 64
	var buf [2 * most]C.uint32_t
	n := int(C.acode_changed_ranges(treePtr(old), treePtr(new), &buf[0], most))
	if n > most {
		return [][2]int{{0, int(^uint32(0))}} // too many to list: all of it
	}
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{int(buf[2*i]), int(buf[2*i+1])}
	}
	return out
}
