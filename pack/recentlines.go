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

	"github.com/acode-lsp/acode-lsp/budget"
)

// The lines a file's last commits changed (issue 23, sixth pass): when
// the right file is packed but the chunk the task needs holds no query
// word, that chunk is often where the file changed last — on the
// evaluation's dev cases, 22 % of the needed lines of a touched file lie
// in the hunks of the last commit that touched it, which cover 4 % of its
// lines (5.5×; docs/quality.md "sixth pass"). For each of the
// recentLinesFiles best files, the chunks overlapping the hunks of its
// last recentLinesCommits commits gain recentLinesWeight × the file's
// best score. One `git log -p -U0` over those files, bounded like the
// history (history.go). A switch ("+recentlines"; "recentlinesw=x",
// "recentlinesk=x" commits, "recentlinesn=x" files), off unless it
// gained on the evaluation.
const (
	featRecentLines = "recentlines"
	// featRecentFloor: a recent chunk is lifted to recentLinesW × its
	// file's best score instead of gaining that (as featImportsFloor).
	featRecentFloor    = "recentlinesfloor"
	recentLinesFiles   = 5
	recentLinesCommits = 1
	recentLinesWeight  = 0.3
	// recentLinesLog is how many commits git log reads to find each
	// file's last ones.
	recentLinesLog = 100
	// recentLinesMaxBytes bounds git's output.
	recentLinesMaxBytes = 4 << 20
)

// lineSpan is a range of lines, 1-based and inclusive.
type lineSpan struct{ from, to int }

// recentHunks returns, for each of the best files by fileBest × ff
// (ff: the file factors; absent is 1), the line spans its last commits
// changed, by path; nil when the switch is off or outside git.
func (p *pipeline) recentHunks(fileBest, ff map[string]float64, srcs []source, items []*budget.Item, feat features) map[string][]lineSpan {
	if !feat.recentLines || feat.recentLinesW <= 0 {
		return nil
	}
	scores := make(map[string]float64, len(fileBest))
	for path, s := range fileBest {
		if f, ok := ff[path]; ok {
			s *= f
		}
		scores[path] = s
	}
	abs, first := p.absPaths(srcs, items)
	top := gitTop(filepath.Dir(first))
	if first == "" || top == "" {
		return nil
	}
	rel := map[string]string{} // path relative to top → pack path
	for _, f := range bestFiles(scores, int(feat.recentLinesN), func(path string) bool { return abs[path] != "" }) {
		r, err := filepath.Rel(top, abs[f.path])
		if err == nil && !strings.HasPrefix(r, "..") {
			rel[filepath.ToSlash(r)] = f.path
		}
	}
	byRel := gitHunks(p.ctx, top, rel, int(feat.recentLinesK))
	out := make(map[string][]lineSpan, len(byRel))
	for r, spans := range byRel {
		out[rel[r]] = spans
	}
	return out
}

// gitHunks reads the hunks of the last k commits touching each of files
// (paths relative to top) from `git log -p -U0`; nil on any failure.
func gitHunks(ctx context.Context, top string, files map[string]string, k int) map[string][]lineSpan {
	if len(files) == 0 || k <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	args := []string{"-C", top, "-c", "core.quotepath=off", "log", "--no-renames", "--no-merges", "-p", "-U0",
		"--no-color", "--no-ext-diff", "--format=%x00", "-n", strconv.Itoa(recentLinesLog), "HEAD", "--"}
	for r := range files {
		args = append(args, r)
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var out limitedBuffer
	out.max = recentLinesMaxBytes
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil && !out.full {
		return nil
	}
	return parseHunks(out.Bytes(), files, k)
}

// parseHunks reads `git log -p -U0 --format=%x00` output: the new-side
// spans of the hunks of each wanted file's first k commits (a pure
// deletion at line L: L−2 … L+3, as the evaluation counts an insertion).
func parseHunks(data []byte, files map[string]string, k int) map[string][]lineSpan {
	out := map[string][]lineSpan{}
	seen := map[string]int{} // commits read of each file
	cur, header := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, header = "", true
		case header && strings.HasPrefix(line, "+++ "):
			header = false
			name := strings.TrimPrefix(line[4:], "b/")
			if _, ok := files[name]; ok && seen[name] < k {
				seen[name]++
				cur = name
			}
		case cur != "" && strings.HasPrefix(line, "@@ "):
			if s, ok := hunkSpan(line); ok {
				out[cur] = append(out[cur], s)
			}
		}
	}
	return out
}

// hunkSpan is the new side of a hunk header "@@ -a,b +c,d @@".
func hunkSpan(line string) (lineSpan, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
		return lineSpan{}, false
	}
	start, count, hasCount := strings.Cut(f[2][1:], ",")
	c, err := strconv.Atoi(start)
	if err != nil {
		return lineSpan{}, false
	}
	n := 1
	if hasCount {
		if n, err = strconv.Atoi(count); err != nil {
			return lineSpan{}, false
		}
	}
	if n == 0 {
		return lineSpan{max(1, c-2), c + 3}, true
	}
	return lineSpan{c, c + n - 1}, true
}

// addRecentLines: a chunk of a best file overlapping the lines its last
// commits changed gains recentLinesW × the file's best score.
func (q *query) addRecentLines(items []*budget.Item, add map[int]float64) {
	if len(q.recentHunks) == 0 {
		return
	}
	for _, it := range items {
		spans := q.recentHunks[it.Path]
		for _, s := range spans {
			if s.from <= it.EndLine && it.StartLine <= s.to {
				g := q.feat.recentLinesW * q.fileBest[it.Path]
				if q.feat.recentLinesFloor {
					g -= q.raw[it.Seq]
				}
				add[it.Seq] = max(add[it.Seq], g)
				break
			}
		}
	}
}
