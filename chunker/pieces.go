package chunker

import "fmt"

// pieces cuts u at line boundaries into pieces of pieceTokens to twice
// that, none over MaxTokens. The number of pieces comes from the sum of per-line
// counts, each piece aims at an equal share of it, and each cut is moved
// back, within the second half of its piece, to where the next piece starts
// best: at the least indented line, after a blank line, not on a closing
// bracket. So a long function, a Go raw-string template or a big table is
// cut between statements or paragraphs rather than mid-expression, into
// pieces of similar size. Pieces keep the kind of u; a named u gives its
// pieces a " (part i/n)" suffix.
func (l *layout) pieces(u unit) ([]unit, error) {
	sums, err := l.lineSums(u)
	if err != nil {
		return nil, err
	}
	total := sums[len(sums)-1]
	per := l.pieceTokens()
	n := total / per // so each piece aims at per..2·per tokens
	if n <= 1 || per >= l.opts.MaxTokens {
		return l.windows(u)
	}
	target := (total + n - 1) / n
	sum := func(a, b int) int { return sums[b-u.first+1] - sums[a-u.first] } // lines a..b
	var out []unit
	for i := u.first; i <= u.last; {
		if err := l.ctx.Err(); err != nil {
			return nil, fmt.Errorf("chunker: %w", err)
		}
		j := l.pieceEnd(i, u.last, sum, target)
		p := u
		p.first, p.last = i, j
		p.members = nil
		p.oversize = i == j && l.tokens(i, j) > l.opts.MaxTokens
		out = append(out, p)
		i = j + 1
	}
	if len(out) > 1 && u.name != "" {
		for k := range out {
			out[k].name = fmt.Sprintf("%s (part %d/%d)", u.name, k+1, len(out))
		}
	}
	return out, nil
}

// lineSums returns the running per-line token sums of u: sums[k] is the
// sum of lines u.first..u.first+k-1.
func (l *layout) lineSums(u unit) ([]int, error) {
	sums := make([]int, u.last-u.first+2)
	for i := u.first; i <= u.last; i++ {
		if (i-u.first)%4096 == 0 {
			if err := l.ctx.Err(); err != nil {
				return nil, fmt.Errorf("chunker: %w", err)
			}
		}
		sums[i-u.first+1] = sums[i-u.first] + l.lineTokens(i)
	}
	return sums, nil
}

// pieceEnd returns the last line of the piece that starts at line i: the
// rest up to last when it is within a quarter over target, else the best
// cut near target tokens; never over MaxTokens unless one line is.
func (l *layout) pieceEnd(i, last int, sum func(a, b int) int, target int) int {
	j := last
	if sum(i, last) > target+target/4 { // else the rest is the last piece
		j = i
		for j < last && sum(i, j+1) <= target {
			j++
		}
		j = l.bestCut(i, j, last, func(k int) int { return sum(i, k) }, target)
	}
	for j > i && l.tokens(i, j) > l.opts.MaxTokens {
		j--
	}
	return j
}

// bestCut returns the line k in [i, j] after which a piece starting on line
// i ends best: among the lines where the piece holds at least half the
// target (and MinTokens), the one whose next piece starts least indented, right after a
// blank line, and not with a closing bracket; ties go to the later line.
// last is the last line of the whole range.
func (l *layout) bestCut(i, j, last int, upTo func(k int) int, target int) int {
	best, bestBad := j, -1
	for k := j; k >= i; k-- {
		if k < j && upTo(k) < max(target/2, l.opts.MinTokens) {
			break
		}
		bad := l.cutBadness(k, last)
		if bestBad < 0 || bad < bestBad {
			best, bestBad = k, bad
		}
	}
	return best
}

// cutBadness rates a cut after line k (lower is better).
func (l *layout) cutBadness(k, last int) int {
	if k >= last {
		return 0
	}
	m := k + 1 // the first non-blank line of the next piece
	for m <= last && l.li.blank(m) {
		m++
	}
	if m > last {
		return 0
	}
	bad := 4 * l.indent(m)
	switch {
	case l.li.blank(k + 1):
		bad += 2 // the next piece would start with a blank line
	case !l.li.blank(k):
		bad++ // no paragraph break
	}
	if l.startsWithCloser(m) {
		bad += 1 << 20
	}
	return bad
}

// indent returns the width of line i's leading white space (a tab counts 4).
func (l *layout) indent(i int) int {
	w := 0
	for _, b := range l.li.text(i, i) {
		switch b {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w
		}
	}
	return w
}

// startsWithCloser reports whether line i's first non-blank byte closes a
// bracket (so the line continues what comes before it).
func (l *layout) startsWithCloser(i int) bool {
	for _, b := range l.li.text(i, i) {
		switch b {
		case ' ', '\t':
			continue
		case '}', ')', ']':
			return true
		}
		return false
	}
	return false
}
