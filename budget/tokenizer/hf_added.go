package tokenizer

// addedSet finds added tokens in text: at each position the longest token
// starting there, then on after it (Hugging Face tokenizers' leftmost-
// longest split; for JavaScript, its DictionarySplitter). Its cost is
// linear in the text whatever the tokens (issue 21: one 20,000-byte token
// made a walk of the trie at every position never finish on 1 MB; 60,000
// tokens sharing a prefix took 27 s per MB):
//
// an Aho–Corasick automaton over the reversed tokens reads the text from
// its end, so that the state reached at position i is the longest reversed
// token prefix ending the reversed text there, and out[state] is the
// length of the longest token that starts at i — one amortised O(1) step
// per byte (a failure link for each byte read at most), over the stretches
// of text where a token can start (see split), in blocks of at least four
// times the longest token: the memory is one int32 per byte of a block.
type addedSet struct {
	first  [256]bool  // bytes that start a token
	root   [256]int32 // root's child per byte, 0 for none
	edges  edgeTable  // (node, byte) → child, for nodes other than the root
	fail   []int32    // per node: the longest proper suffix that is a node
	out    []int32    // per node: the longest token ending the node's string, 0 if none
	maxLen int
}

// maxAddedBytes bounds the bytes of a tokenizer.json's added tokens (one
// node of the automaton each): real tokenizers have a few hundred short
// ones (DeepSeek V3's 800 take ~25 KB).
const maxAddedBytes = 1 << 20

// addedBlock is the smallest block of text the reverse scan computes at once.
const addedBlock = 32 << 10

func newAddedSet(tokens []string) *addedSet {
	a := &addedSet{fail: []int32{0}, out: []int32{0}}
	type edge struct {
		node int32
		b    byte
		to   int32
	}
	var list []edge
	depth := []int32{0}
	edges := map[uint64]int32{}
	for _, tok := range tokens {
		if tok == "" {
			continue
		}
		a.maxLen = max(a.maxLen, len(tok))
		a.first[tok[0]] = true
		node := int32(0)
		for i := len(tok) - 1; i >= 0; i-- { // reversed
			k := uint64(node)<<8 | uint64(tok[i])
			c, ok := edges[k]
			if !ok {
				c = int32(len(depth))
				depth = append(depth, depth[node]+1)
				a.fail = append(a.fail, 0)
				a.out = append(a.out, 0)
				edges[k] = c
				list = append(list, edge{node, tok[i], c})
				if node == 0 {
					a.root[tok[i]] = c
				}
			}
			node = c
		}
		a.out[node] = int32(len(tok))
	}
	a.edges = newEdgeTable(len(list))
	children := make([][]edge, len(depth))
	for _, e := range list {
		if e.node != 0 {
			a.edges.put(e.node, e.b, e.to)
		}
		children[e.node] = append(children[e.node], e)
	}
	// Breadth first: a node's failure link and output come from nodes
	// that are shallower.
	queue := make([]int32, 0, len(depth))
	for _, e := range children[0] {
		queue = append(queue, e.to) // fail = root
	}
	for q := 0; q < len(queue); q++ {
		n := queue[q]
		if a.out[n] == 0 {
			a.out[n] = a.out[a.fail[n]]
		}
		for _, e := range children[n] {
			a.fail[e.to] = a.step(a.fail[n], e.b)
			queue = append(queue, e.to)
		}
	}
	return a
}

func (a *addedSet) empty() bool { return a == nil || a.maxLen == 0 }

// step is the automaton's transition from node on byte c.
func (a *addedSet) step(node int32, c byte) int32 {
	for node != 0 {
		if t := a.edges.get(node, c); t != 0 {
			return t
		}
		node = a.fail[node]
	}
	return a.root[c]
}

// longest sets lens[k] to the length of the longest token starting at
// s[lo+k], for lo ≤ lo+k < hi, reading s backwards from end (≥ hi): exact
// at every position p with p+maxLen ≤ end or end = len(s).
func (a *addedSet) longest(s string, lo, hi, end int, lens []int32) {
	node := int32(0)
	for i := end - 1; i >= lo; i-- {
		node = a.step(node, s[i])
		if i < hi {
			lens[i-lo] = a.out[node]
		}
	}
}

// split calls f for each section of s between added tokens (added false)
// and for each added token (added true), in order.
//
// Only positions whose byte starts some token can start one, and in most
// text they are rare: split skips to the next such candidate with a table
// lookup per byte, gathers the candidates whose windows [i, i+maxLen)
// overlap into one interval (at most a block long), runs the reverse
// automaton over that interval alone — the state at a candidate needs the
// maxLen bytes from it, all inside — and consumes it. Each byte is scanned
// at most once per interval, and intervals overlap only at block edges (by
// less than maxLen, a quarter of a block): linear in s.
func (a *addedSet) split(s string, f func(sec string, added bool)) {
	if a.empty() {
		if s != "" {
			f(s, false)
		}
		return
	}
	block := max(addedBlock, 4*a.maxLen)
	var stack [256]int32
	lens := stack[:]
	start, i := 0, 0
	for i < len(s) {
		// The next candidate.
		c := i
		for c < len(s) && !a.first[s[c]] {
			c++
		}
		if c == len(s) {
			break
		}
		hi, end := a.interval(s, c, block)
		if hi-c > len(lens) {
			lens = make([]int32, block)
		}
		a.longest(s, c, hi, end, lens)
		for i = c; i < hi; {
			m := int(lens[i-c])
			if m == 0 || !a.first[s[i]] {
				i++
				continue
			}
			if i > start {
				f(s[start:i], false)
			}
			f(s[i:i+m], true)
			i += m
			start = i
		}
	}
	if start < len(s) {
		f(s[start:], false)
	}
}

// interval gathers the candidates from c whose windows overlap, at most a
// block of them: split computes the positions [c, hi), whose windows end
// by end.
func (a *addedSet) interval(s string, c, block int) (hi, end int) {
	e := min(len(s), c+a.maxLen)
	for j := c + 1; j < e && e-c < block; j++ {
		if a.first[s[j]] {
			e = min(len(s), j+a.maxLen)
		}
	}
	hi = min(e, c+block)
	// Every candidate before e has its window inside e; a block cut at hi
	// needs the windows of the candidates before hi.
	if hi < e {
		return hi, min(len(s), hi+a.maxLen)
	}
	return hi, e
}

// edgeTable maps (node, byte) to a child node: open addressing with linear
// probing, load ≤ 0.5.
type edgeTable struct {
	keys  []uint64 // (node << 8 | byte) + 1; 0 is empty
	vals  []int32
	shift uint
}

func newEdgeTable(n int) edgeTable {
	size, bits := 1, uint(0)
	for size < 2*n+2 {
		size <<= 1
		bits++
	}
	return edgeTable{keys: make([]uint64, size), vals: make([]int32, size), shift: 64 - bits}
}

func (t *edgeTable) put(node int32, c byte, to int32) {
	k := (uint64(node)<<8 | uint64(c)) + 1
	mask := uint64(len(t.keys) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		if t.keys[i] == 0 || t.keys[i] == k {
			t.keys[i], t.vals[i] = k, to
			return
		}
	}
}

// get returns the child of node on c, 0 if none.
func (t *edgeTable) get(node int32, c byte) int32 {
	k := (uint64(node)<<8 | uint64(c)) + 1
	mask := uint64(len(t.keys) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i]
		case 0:
			return 0
		}
	}
}
