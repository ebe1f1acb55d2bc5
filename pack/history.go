package pack

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// File choice from history (docs/ranking.md "History"): when the files of a
// pack live in a git repository, its recent commits say which files change
// together and which changed lately. Read with `git log` (no network,
// nothing written: GIT_OPTIONAL_LOCKS=0), bounded in commits, time and
// output; off cleanly outside git or when git is missing or fails.
const (
	featHistory  = "history" // co-change partners and recent commits (history.go)
	featCochange = "cochange"
	featRecent   = "recent"

	// historyCommits is how many commits of HEAD are read.
	historyCommits = 300
	// historyTimeout bounds the git call; historyMaxBytes its output.
	historyTimeout  = 2 * time.Second
	historyMaxBytes = 8 << 20
	// historyWideCommit: a commit touching more files is a sweep
	// (formatting, renames, a release) and says nothing of co-change or
	// recency.
	historyWideCommit = 40
	// recentCommits are the commits whose files get the recency prior.
	recentCommits = 10
	// recentFactor is the prior of a file changed in the recent commits.
	recentFactor = 0.15
	// cochangeSeeds are the best lexically ranked files whose co-change
	// partners gain; cochangeWeight scales a partner's gain (at most
	// cochangeWeight × 1).
	cochangeSeeds  = 5
	cochangeWeight = 0.5
)

// history is what a repository's recent commits say about its files,
// keyed by absolute path.
type history struct {
	commits [][]string     // each commit's files (absolute), newest first; sweeps left out
	touched map[string]int // commits touching each file
	recent  map[string]bool
	// said are the commits whose messages were read (histwords.go),
	// newest first, sweeps left out; nil unless asked for.
	said []saidCommit
}

// historyRead is what loadHistory reads besides the files of each
// commit: the messages (histwords.go) of up to commits commits.
type historyRead struct {
	// msgs: 0 no message, 1 the subject, 2 the subject and body.
	msgs    int
	commits int
}

// logFormat is git log's --format for r: a NUL line opens each commit,
// followed by its subject (msgs ≥ 1) and its body up to a 0x1E byte
// (msgs 2).
func (r historyRead) logFormat() string {
	switch r.msgs {
	case 0:
		return "--format=%x00"
	case 1:
		return "--format=%x00%s"
	}
	return "--format=%x00%s%n%b%x1e"
}

// count is how many commits git log reads: historyCommits, or more when
// the messages are read from more commits.
func (r historyRead) count() int {
	if r.msgs > 0 && r.commits > historyCommits {
		return r.commits
	}
	return historyCommits
}

// loadHistory reads the history of the git repository holding abs (a
// file's absolute path); nil outside git or on any failure.
func loadHistory(ctx context.Context, abs string, r historyRead) *history {
	top := gitTop(filepath.Dir(abs))
	if top == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", top, "-c", "core.quotepath=off", "log", "--no-renames", "--no-merges",
		"--name-only", r.logFormat(), "-n", strconv.Itoa(r.count()), "HEAD", "--")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.Stdin = nil
	var out limitedBuffer
	out.max = historyMaxBytes
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil && !out.full {
		return nil
	}
	data := out.Bytes()
	if out.full {
		// the last commit may be cut: keep the whole ones
		if i := bytes.LastIndex(data, []byte("\x00")); i >= 0 {
			data = data[:i]
		}
	}
	return parseHistory(top, data, r)
}

// parseHistory reads `git log --name-only` output in r's format: commits
// separated by lines starting with NUL (the subject after it), one path a
// line relative to top. Only the first historyCommits commits give
// co-change and recency; the messages (r.msgs > 0) are kept for all.
func parseHistory(top string, data []byte, r historyRead) *history {
	h := &history{touched: map[string]int{}, recent: map[string]bool{}}
	var cur []string
	var msg strings.Builder
	n := 0
	inBody := false
	flush := func() {
		if n > 0 && len(cur) > 0 && len(cur) <= historyWideCommit {
			h.addCommit(cur, n)
			if r.msgs > 0 {
				h.said = append(h.said, saidCommit{files: cur, terms: messageTerms(msg.String())})
			}
		}
		cur = nil
		msg.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "\x00"):
			flush()
			n++
			subject, end := strings.CutSuffix(line[1:], "\x1e")
			inBody = r.msgs > 1 && !end
			msg.WriteString(subject)
		case inBody:
			body, end := strings.CutSuffix(line, "\x1e")
			inBody = !end
			if !isTrailer(body) {
				msg.WriteString("\n" + body)
			}
		case line == "" || strings.HasPrefix(line, "\""):
		default:
			cur = append(cur, filepath.Join(top, filepath.FromSlash(line)))
		}
	}
	flush()
	return h
}

// addCommit records the files of the n-th commit read (1: the newest)
// for co-change and recency when it is among the first historyCommits.
func (h *history) addCommit(files []string, n int) {
	if n > historyCommits {
		return
	}
	h.commits = append(h.commits, files)
	for _, f := range files {
		h.touched[f]++
		if len(h.commits) <= recentCommits {
			h.recent[f] = true
		}
	}
}

// historyOnce is the history of a pipeline, read at most once.
type historyOnce struct {
	h *history
}

// history returns the git history of the repository holding abs (read on
// first use; nil outside git or when git failed).
func (p *pipeline) history(abs string) *history {
	if p.hist == nil {
		p.hist = &historyOnce{h: loadHistory(p.ctx, abs, newFeatures(p.e.Ablate).historyRead())}
	}
	return p.hist.h
}

// gitTop is the nearest directory at or above dir holding .git; "" if none.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// factors returns each file's history factor given the lexical scores of
// files (absolute path → score): 1 + recentW for a file changed in the
// last recentCommits commits, plus cochangeW × the co-change share
// with the cochangeSeeds best files, each seed weighted by its score over
// the best:
//
//	co(g) = Σ_s score(s)/best · n(s,g)/n(s)        n: commits touching
//
// Files absent from the result have factor 1.
func (h *history) factors(scores map[string]float64, recentW, cochangeW float64) map[string]float64 {
	out := map[string]float64{}
	if h == nil {
		return out
	}
	if recentW > 0 {
		for f := range h.recent {
			if _, ok := scores[f]; ok {
				out[f] = 1 + recentW
			}
		}
	}
	if cochangeW <= 0 || len(scores) == 0 {
		return out
	}
	for f, v := range h.cochange(scores) {
		if v <= 0 {
			continue
		}
		if out[f] == 0 {
			out[f] = 1
		}
		out[f] += cochangeW * min(1, v)
	}
	return out
}

// cochange returns, for each file of scores, how strongly it changed
// together with the seeds (the best-scored files the history touched):
// over the commits, the summed weight of the seeds each commit touched,
// a seed weighing its score relative to the best over its commit count.
// A seed does not pair with itself. Nil when there is no seed.
func (h *history) cochange(scores map[string]float64) map[string]float64 {
	seeds := bestFiles(scores, cochangeSeeds, func(p string) bool { return h.touched[p] > 0 })
	if len(seeds) == 0 {
		return nil
	}
	best := 0.0
	for _, s := range scores {
		best = max(best, s)
	}
	seedW := map[string]float64{}
	for _, s := range seeds {
		seedW[s.path] = s.score / best / float64(h.touched[s.path])
	}
	co := map[string]float64{}
	for _, c := range h.commits {
		w := 0.0
		for _, f := range c {
			w += seedW[f]
		}
		if w == 0 {
			continue
		}
		for _, f := range c {
			if _, ok := scores[f]; ok {
				co[f] += w - seedW[f] // a seed does not pair with itself
			}
		}
	}
	return co
}

// limitedBuffer keeps at most max bytes and then reports itself full
// (the rest is dropped and the write fails, so git stops).
type limitedBuffer struct {
	bytes.Buffer
	max  int
	full bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.full = true
		b.Buffer.Write(p[:max(0, b.max-b.Len())])
		return 0, errHistoryFull
	}
	return b.Buffer.Write(p)
}

var errHistoryFull = &historyError{"git log output past its cap"}

type historyError struct{ s string }

func (e *historyError) Error() string { return e.s }
