package chunker

import (
	"bytes"
	"sort"
)

// lineIndex maps between 0-based line numbers and byte offsets of a source.
// Lines end at '\n' (a '\r' before it stays part of the line); a final
// newline does not start an extra empty line.
type lineIndex struct {
	src    []byte
	starts []int // starts[i] is the byte offset where line i begins
}

func newLineIndex(src []byte) *lineIndex {
	li := &lineIndex{src: src}
	if len(src) == 0 {
		return li
	}
	li.starts = make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 || i+j+1 >= len(src) {
			return li
		}
		i += j + 1
		li.starts = append(li.starts, i)
	}
}

// count returns the number of lines.
func (li *lineIndex) count() int { return len(li.starts) }

// start returns the byte offset where line i begins.
func (li *lineIndex) start(i int) int { return li.starts[i] }

// end returns the byte offset just after line i, including its newline.
func (li *lineIndex) end(i int) int {
	if i+1 < len(li.starts) {
		return li.starts[i+1]
	}
	return len(li.src)
}

// lineOf returns the line that holds byte offset off (clamped to the file).
func (li *lineIndex) lineOf(off int) int {
	n := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off })
	if n == 0 {
		return 0
	}
	return n - 1
}

// span returns the line range [first, last] covered by bytes [start, end).
// An empty range covers the line of start.
func (li *lineIndex) span(start, end int) (first, last int) {
	first = li.lineOf(start)
	if end > start {
		end--
	}
	return first, li.lineOf(end)
}

// text returns lines first..last (inclusive) as bytes, newlines included.
func (li *lineIndex) text(first, last int) []byte {
	return li.src[li.start(first):li.end(last)]
}

// blank reports whether line i holds only white space.
func (li *lineIndex) blank(i int) bool {
	for _, b := range li.src[li.start(i):li.end(i)] {
		switch b {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// startsLine reports whether only white space precedes byte offset off on its line.
func (li *lineIndex) startsLine(off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch li.src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}
