// Command secreteval measures the secret scanner (collector.Redact): the
// leak rate per family on the project's generated corpus
// (collector/internal/secreteval), the leak rates on a corpus built from
// gitleaks' rule set (by measure, family and shape, development and
// held-out rules apart; gitleaks is read from $GITLEAKS_REPO, a checkout
// or a bare mirror, never committed here), the false positives on real
// sources (every line Redact changes) and the throughput.
// docs/security.md records its numbers.
//
//	go run ./collector/internal/cmd/secreteval [-seed N] [-split 1|2] [-leaks] [-fp] [-repo DIR] [-gitleaks-only|-no-gitleaks] [DIR…]
//
// Without DIRs the false-positive trees are $(go env GOROOT)/src, npm's lib
// (found beside the npm on PATH) and the installed node_modules of the
// repository at -repo (tools/*/node_modules, editors/vscode/node_modules);
// it says which were found. -leaks prints the leaked cases of the
// development rules only: held-out cases are counted, never shown. -split
// picks which gitleaks rules are held out (secreteval.SplitV2 by default;
// 1 reproduces rounds one and two).
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

func main() {
	seed := flag.Uint64("seed", 1, "corpus seed")
	showLeaks := flag.Bool("leaks", false, "print every leaked case")
	showFP := flag.Bool("fp", false, "print every line changed in the real sources")
	glOnly := flag.Bool("gitleaks-only", false, "run the gitleaks corpus only (no project corpus, no real sources)")
	noGL := flag.Bool("no-gitleaks", false, "skip the gitleaks corpus")
	split := flag.Int("split", secreteval.CurrentSplit, "which rules of the gitleaks corpus are held out: 2 (round three on), or 1 (rounds one and two, to reproduce their numbers)")
	repo := flag.String("repo", ".", "the repository whose tools/*/node_modules and editors/vscode/node_modules are scanned for false positives")
	flag.Parse()
	if !secreteval.ValidSplit(*split) {
		fmt.Fprintf(os.Stderr, "secreteval: -split %d: want 1 or 2\n", *split)
		os.Exit(2)
	}
	code := 0
	if !*glOnly && !corpus(*seed, *showLeaks) {
		code = 1
	}
	if !*noGL {
		if !gitleaksCorpus(*seed, *split, *showLeaks) {
			code = 1
		}
	}
	if *glOnly {
		os.Exit(code)
	}
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = defaultTrees(*repo)
	}
	falsePositives(dirs, *showFP)
	os.Exit(code)
}

// corpus runs the generated corpus and reports leaks per family; it returns
// false when any planted secret leaked.
func corpus(seed uint64, show bool) bool {
	cases := secreteval.Corpus(seed)
	type stat struct{ cases, leaked int }
	by := map[string]*stat{}
	var order []string
	total, leaked, secrets := 0, 0, 0
	var leaks []string
	for _, c := range cases {
		st := by[c.Family]
		if st == nil {
			st = &stat{}
			by[c.Family] = st
			order = append(order, c.Family)
		}
		out, _ := collector.Redact(c.Text)
		total++
		st.cases++
		secrets += len(c.Secrets)
		if l := secreteval.Leaked(c, out); len(l) > 0 {
			leaked++
			st.leaked++
			leaks = append(leaks, fmt.Sprintf("--- %s / %s (%s)\n%s", c.Family, c.Form, c.Path, out))
		}
	}
	fams, shapes := 0, 0
	for _, f := range order {
		if strings.HasPrefix(f, "shape:") {
			shapes++
		} else {
			fams++
		}
	}
	fmt.Printf("corpus (seed %d): %d families, %d forms, %d hostile shapes; %d files, %d planted secrets\n",
		seed, fams, len(secreteval.Forms()), shapes, total, secrets)
	fmt.Printf("leaked: %d of %d files (%.2f %%)\n", leaked, total, 100*float64(leaked)/float64(total))
	var bad []string
	for _, f := range order {
		if st := by[f]; st.leaked > 0 {
			bad = append(bad, fmt.Sprintf("  %-32s %3d of %3d leaked", f, st.leaked, st.cases))
		}
	}
	if len(bad) > 0 {
		fmt.Println("families with leaks:")
		fmt.Println(strings.Join(bad, "\n"))
	}
	if show {
		fmt.Println(strings.Join(leaks, "\n"))
	}
	return leaked == 0
}

// defaultTrees are Go's whole src, npm's lib, and the node_modules the
// repository's tests installed (tools/*/node_modules,
// editors/vscode/node_modules); it says which were found.
func defaultTrees(repo string) []string {
	root := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		root = strings.TrimSpace(string(out))
	}
	dirs := []string{filepath.Join(root, "src")}
	if npm, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		lib := filepath.Join(strings.TrimSpace(string(npm)), "npm", "lib")
		if _, err := os.Stat(lib); err == nil {
			dirs = append(dirs, lib)
		}
	}
	mods, _ := filepath.Glob(filepath.Join(repo, "tools", "*", "node_modules"))
	mods = append(mods, filepath.Join(repo, "editors", "vscode", "node_modules"))
	var found, missing []string
	for _, m := range mods {
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			dirs = append(dirs, m)
			found = append(found, m)
		} else {
			missing = append(missing, m)
		}
	}
	fmt.Printf("installed npm sources found: %s\n", listOrNone(found))
	if len(missing) > 0 {
		fmt.Printf("not installed (run npm ci there to include them): %s\n", strings.Join(missing, ", "))
	}
	return dirs
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// falsePositives redacts every text file under dirs and reports the lines
// that changed, with the throughput.
func falsePositives(dirs []string, show bool) {
	var t fpTally
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Type().IsRegular() {
				t.file(p)
			}
			return nil
		})
	}
	sort.Strings(t.changes)
	fmt.Printf("real sources: %d files, %.1f MB in %s: %d redactions in %d files, %d lines changed; %.0f MB/s of CPU time\n",
		t.files, float64(t.bytes)/1e6, strings.Join(shortDirs(dirs), ", "), t.redactions, t.changedFiles, len(t.changes), float64(t.bytes)/1e6/t.elapsed.Seconds())
	for _, s := range t.slowest {
		fmt.Printf("  slowest: %s (%d KB) %s\n", s.path, s.size>>10, s.d.Round(time.Millisecond))
	}
	if show {
		for _, c := range t.changes {
			fmt.Println("  " + c)
		}
	}
}

// fpTally counts what Redact changes in real sources.
type fpTally struct {
	files, bytes, redactions, changedFiles int
	elapsed                                time.Duration
	changes                                []string // path:line: the changed line
	slowest                                []slowFile
}

// slowFile is a file and the CPU time its redaction took.
type slowFile struct {
	path string
	d    time.Duration
	size int
}

// file redacts one file (a text file under 1 MiB) and records the lines
// it changed.
func (t *fpTally) file(p string) {
	data, err := os.ReadFile(p)
	if err != nil || len(data) > 1<<20 || !utf8.Valid(data) || strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0 {
		return
	}
	text := string(data)
	start := cpuTime()
	out, n := collector.Redact(text)
	dt := cpuTime() - start
	t.elapsed += dt
	t.slowest = append(t.slowest, slowFile{p, dt, len(data)})
	sort.Slice(t.slowest, func(i, j int) bool { return t.slowest[i].d > t.slowest[j].d })
	if len(t.slowest) > 5 {
		t.slowest = t.slowest[:5]
	}
	t.files++
	t.bytes += len(data)
	if n == 0 {
		return
	}
	t.redactions += n
	t.changedFiles++
	a, b := strings.Split(text, "\n"), strings.Split(out, "\n")
	for i := range a {
		if a[i] != b[i] {
			t.changes = append(t.changes, fmt.Sprintf("%s:%d: %s", p, i+1, strings.TrimSpace(b[i])))
		}
	}
}

// cpuTime is the CPU time (user and system) the process has used: on a
// shared machine the wall clock measures the neighbours, not Redact.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func shortDirs(dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		parts := strings.Split(filepath.ToSlash(d), "/")
		if len(parts) > 2 {
			parts = parts[len(parts)-2:]
		}
		out[i] = strings.Join(parts, "/")
	}
	return out
}
