package eval

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os/exec"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Git runs git on a bare mirror.
type Git struct{ Dir string }

// Run returns the standard output of git --git-dir=Dir args….
func (g Git) Run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + g.Dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("eval: git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// sourceExt are the extensions of source files a case may change.
var sourceExt = map[string]bool{
	".go": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true,
	".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".java": true, ".kt": true,
}

// generated are path parts of vendored, built or generated code.
var generated = regexp.MustCompile(`(^|/)(vendor|node_modules|dist|build|third_party)/|\.min\.js$|\.d\.ts$`)

// IsSource reports whether p is a hand-written source file.
func IsSource(p string) bool {
	return sourceExt[strings.ToLower(path.Ext(p))] && !generated.MatchString(p)
}

var testPath = regexp.MustCompile(`(^|/)(tests?|__tests__|testdata|testing|spec|fixtures?)/|_test\.go$|(^|/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.java$|(^|/)conftest\.py$`)

// IsTest reports whether p is a test file or test data.
func IsTest(p string) bool { return testPath.MatchString(p) }

var (
	trailer     = regexp.MustCompile(`(?i)^(signed-off-by|co-authored-by|reviewed-by|acked-by|change-id|cc|fixes|closes|refs?|pr-url|piperorigin-revid):`)
	versionRe   = regexp.MustCompile(`(?i)^\W*(v?\d+\.\d+(\.\d+)?\b|release\b|releasing\b|bump\b|prepare\b.*\brelease|version\b|merge\b|revert\b|chore\(release\))|\brelease v?\d`)
	versionFile = regexp.MustCompile(`(^|/)_*version_*\.(go|py|js|ts|java)$`)
)

// CleanMessage removes trailers ("Signed-off-by: …") and surrounding space
// from a commit message.
func CleanMessage(msg string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(msg), "\n") {
		if trailer.MatchString(strings.TrimSpace(l)) {
			continue
		}
		keep = append(keep, strings.TrimRight(l, " \t\r"))
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// SelectOptions are the rules of case selection.
type SelectOptions struct {
	Repo string // owner/name
	Head string // commit to walk back from
	Seed uint64
	N    int // cases wanted
}

type candidate struct {
	commit, parent, msg string
	files               []string // changed source files
}

// Select picks opt.N commits of the mirror at random (seeded by opt.Seed
// and the repository name, so each repository draws independently and the
// draw is reproducible) among those that qualify: not a merge; 1–4 source
// files changed (vendored and generated code does not count) with 2–150
// lines added plus removed in them; at least one of them a non-test file
// that exists in the parent; a message of at least 4 words (trailers
// removed) that is not a release or version bump or a revert; and at least
// one needed line.
func Select(ctx context.Context, g Git, opt SelectOptions) ([]Case, error) {
	cands, err := candidates(ctx, g, opt.Head)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(opt.Repo))
	rng := rand.New(rand.NewPCG(opt.Seed, h.Sum64()))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	var out []Case
	for _, c := range cands {
		if len(out) == opt.N {
			break
		}
		if n, ok := changedLines(ctx, g, c); !ok || n < 2 || n > 150 {
			continue
		}
		needed, err := neededOf(ctx, g, c)
		if err != nil {
			return nil, err
		}
		if len(needed) == 0 {
			continue
		}
		out = append(out, Case{Repo: opt.Repo, Commit: c.commit, Parent: c.parent, Query: c.msg, Heldout: HeldOut(c.commit), Needed: needed})
	}
	if len(out) < opt.N {
		return out, fmt.Errorf("eval: %s: only %d qualifying commits, %d wanted", opt.Repo, len(out), opt.N)
	}
	return out, nil
}

// candidates lists the commits that pass the filters that need no file
// content (message, which files), in log order. The files come from --raw,
// which reads trees only: a mirror that lacks some large blobs still lists
// every commit.
func candidates(ctx context.Context, g Git, head string) ([]candidate, error) {
	logOut, err := g.Run(ctx, "log", "--no-merges", "--format=%x1e%H %P%x1f%B%x1f", "--raw", "--no-renames", "--no-abbrev", head)
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, rec := range strings.Split(logOut, "\x1e") {
		if c, ok := parseCandidate(rec); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// parseCandidate returns the commit of one log record (ids, message, raw
// diff) and whether it passes the filters: one parent, a message of at
// least 4 words that is no version bump, and 1–4 source files of which
// one is neither a test nor a version file.
func parseCandidate(rec string) (candidate, bool) {
	parts := strings.SplitN(rec, "\x1f", 3)
	if len(parts) != 3 {
		return candidate{}, false
	}
	ids := strings.Fields(parts[0])
	if len(ids) != 2 {
		return candidate{}, false // root commit or merge
	}
	msg := CleanMessage(parts[1])
	if len(strings.Fields(msg)) < 4 {
		return candidate{}, false
	}
	if versionRe.MatchString(strings.SplitN(msg, "\n", 2)[0]) {
		return candidate{}, false
	}
	files, nonTest := rawSourceFiles(parts[2])
	if len(files) < 1 || len(files) > 4 || !nonTest {
		return candidate{}, false
	}
	return candidate{commit: ids[0], parent: ids[1], msg: msg, files: files}, true
}

// rawSourceFiles returns the source files a --raw diff lists and whether
// one of them is neither a test nor a version file.
func rawSourceFiles(raw string) (files []string, nonTest bool) {
	for _, l := range strings.Split(strings.TrimSpace(raw), "\n") {
		_, p, ok := strings.Cut(l, "\t")
		if !ok || !strings.HasPrefix(l, ":") || !IsSource(p) {
			continue
		}
		files = append(files, p)
		if !IsTest(p) && !versionFile.MatchString(p) {
			nonTest = true // that it exists in the parent: neededOf
		}
	}
	return files, nonTest
}

// changedLines returns the lines added plus removed in the candidate's
// source files; ok is false for binary changes or unreadable objects.
func changedLines(ctx context.Context, g Git, c candidate) (n int, ok bool) {
	out, err := g.Run(ctx, append([]string{"diff", "--numstat", "--no-renames", c.parent, c.commit, "--"}, c.files...)...)
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			continue
		}
		a, err1 := strconv.Atoi(f[0])
		d, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return 0, false
		}
		n += a + d
	}
	return n, true
}

// neededOf computes a candidate's needed lines over its source files; it
// returns nil when no non-test file of the parent is touched.
func neededOf(ctx context.Context, g Git, c candidate) ([]FileLines, error) {
	diff, err := g.Run(ctx, append([]string{"diff", "-U0", "--no-renames", "--no-color", "--no-ext-diff", c.parent, c.commit, "--"}, c.files...)...)
	if err != nil {
		return nil, err
	}
	var lerr error
	needed, err := NeededLines(diff, func(p string) int {
		blob, err := g.Run(ctx, "cat-file", "blob", c.parent+":"+p)
		if err != nil {
			lerr = err
			return 0
		}
		return strings.Count(blob, "\n") + btoi(blob != "" && !strings.HasSuffix(blob, "\n"))
	})
	if err != nil {
		return nil, err
	}
	if lerr != nil {
		return nil, lerr
	}
	for _, f := range needed {
		if !IsTest(f.Path) {
			return needed, nil
		}
	}
	return nil, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
