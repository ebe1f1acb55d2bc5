package tokenizer

// smallPiece is the longest piece merged with the quadratic scan on stack
// arrays; longer pieces use a heap.
const smallPiece = 64

// countPiece returns the number of tokens of one piece of the split:
// tiktoken's byte-pair merge, which repeatedly joins the adjacent pair of
// parts whose concatenation has the lowest rank (the leftmost such pair on
// ties) until no adjacent pair is a token.
func (t *rankTable) countPiece(p string) int {
	if len(p) == 1 {
		return 1 // every byte is a token
	}
	if t.get(p) != noRank {
		return 1
	}
	if len(p) <= smallPiece {
		return t.mergeSmall(p)
	}
	return t.mergeLarge(p)
}

// mergeSmall is tiktoken's _byte_pair_merge: pos holds the part
// boundaries, rk[i] the rank of p[pos[i]:pos[i+2]] (parts i and i+1 joined).
func (t *rankTable) mergeSmall(p string) int {
	var pos [smallPiece + 1]uint8
	var rk [smallPiece + 1]uint32
	n := len(p) + 1 // boundaries
	for i := range n {
		pos[i] = uint8(i)
	}
	for i := 0; i+2 < n; i++ {
		rk[i] = t.pair[uint16(p[i])<<8|uint16(p[i+1])]
	}
	rk[n-2] = noRank
	for n > 2 {
		best, bi := noRank, -1
		for i := 0; i+2 < n; i++ {
			if rk[i] < best {
				best, bi = rk[i], i
			}
		}
		if bi < 0 {
			break
		}
		// Join parts bi and bi+1: drop boundary bi+1.
		copy(pos[bi+1:n-1], pos[bi+2:n])
		copy(rk[bi+1:n-1], rk[bi+2:n])
		n--
		rk[bi] = t.pairRank(p, pos[:n], bi)
		if bi > 0 {
			rk[bi-1] = t.pairRank(p, pos[:n], bi-1)
		}
	}
	return n - 1
}

// pairRank is the rank of parts i and i+1 joined, noRank if there is no
// part i+1.
func (t *rankTable) pairRank(p string, pos []uint8, i int) uint32 {
	if i+2 >= len(pos) {
		return noRank
	}
	return t.get(p[pos[i]:pos[i+2]])
}

// mergeLarge is the same merge in O(n log n) for long pieces (a long run of
// spaces or letters): parts form a linked list and candidate pairs sit in
// a min-heap ordered by (rank, start), so the heap's top is the pair
// tiktoken's linear scan would pick. Entries whose pair has changed since
// they were pushed are skipped when popped.
func (t *rankTable) mergeLarge(p string) int {
	n := len(p)
	next := make([]int32, n+1) // next[b]: the boundary after boundary b
	prev := make([]int32, n+1)
	cur := make([]uint32, n+1) // cur[b]: rank of the pair starting at boundary b
	h := pairHeap(make([]uint64, 0, n))
	for b := 0; b <= n; b++ {
		next[b], prev[b] = int32(b+1), int32(b-1)
		cur[b] = noRank
	}
	pair := func(b int32) uint32 {
		m := next[b]
		if int(m) >= n {
			return noRank
		}
		return t.get(p[b:next[m]])
	}
	for b := int32(0); int(b)+2 <= n; b++ {
		if r := t.get(p[b : b+2]); r != noRank {
			cur[b] = r
			h = append(h, uint64(r)<<32|uint64(b))
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		top := h.pop()
		r, b := uint32(top>>32), int32(uint32(top))
		if cur[b] != r {
			continue // stale: the pair at b has changed or b was dropped
		}
		// Join the two parts starting at b: drop boundary next[b].
		m := next[b]
		cur[m] = noRank
		next[b] = next[m]
		if int(next[m]) <= n {
			prev[next[m]] = b
		}
		parts--
		if cur[b] = pair(b); cur[b] != noRank {
			h.push(uint64(cur[b])<<32 | uint64(b))
		}
		if pb := prev[b]; pb >= 0 {
			if cur[pb] = pair(pb); cur[pb] != noRank {
				h.push(uint64(cur[pb])<<32 | uint64(pb))
			}
		}
	}
	return parts
}

// pairHeap is a binary min-heap of rank<<32 | start.
type pairHeap []uint64

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(x uint64) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if s[parent] <= s[i] {
			break
		}
		s[parent], s[i] = s[i], s[parent]
		i = parent
	}
}

func (h *pairHeap) pop() uint64 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
