package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/pack"
)

// whatIfSrc has top-level functions of a few hundred tokens each, so that a
// small budget takes some and leaves the others out.
func whatIfSrc(funcs int) string {
	var b strings.Builder
	b.WriteString("package a\n\n")
	for i := 0; i < funcs; i++ {
		fmt.Fprintf(&b, "// F%d computes the checkout total number %d.\nfunc F%d(items []int) int {\n", i, i, i)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&b, "\tif len(items) > %d { total%d := items[%d] * %d; _ = total%d }\n", j, j, j, i+j, j)
		}
		b.WriteString("\treturn 0\n}\n\n")
	}
	return b.String()
}

// fullLens is a lens with its command.
type fullLens struct {
	Line    int
	Title   string
	Command string
	Args    []chunkArgs
}

// getFullLenses asks for the lenses of u with their commands.
func getFullLenses(t *testing.T, c *fakeClient, u string) []fullLens {
	t.Helper()
	var lenses []struct {
		Range struct {
			Start struct{ Line int } `json:"start"`
		} `json:"range"`
		Command struct {
			Title     string      `json:"title"`
			Command   string      `json:"command"`
			Arguments []chunkArgs `json:"arguments"`
		} `json:"command"`
	}
	c.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	out := make([]fullLens, len(lenses))
	for i, l := range lenses {
		out[i] = fullLens{l.Range.Start.Line, l.Command.Title, l.Command.Command, l.Command.Arguments}
	}
	return out
}

var toFitRE = regexp.MustCompile(` · \+([0-9,]+) to fit$`)

// packedLines returns, per path, the lines the pipeline's selection of the
// open files at a total budget includes (what the lenses promise).
func packedLines(t *testing.T, s *Server, total int) map[string]map[int]bool {
	t.Helper()
	res, err := s.conf.env().engine.Preview(context.Background(), whatIfRequest(total), s.openDocs())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[int]bool{}
	for _, it := range res.Included {
		if out[it.Path] == nil {
			out[it.Path] = map[int]bool{}
		}
		for l := it.StartLine; l <= it.EndLine; l++ {
			out[it.Path][l] = true
		}
	}
	return out
}

// inPack reports whether every non-blank line of [start, end] is packed.
func inPack(packed map[int]bool, text string, start, end int) bool {
	lines := strings.Split(text, "\n")
	for l := start; l <= end; l++ {
		if l-1 < len(lines) && strings.TrimSpace(lines[l-1]) == "" {
			continue
		}
		if !packed[l] {
			return false
		}
	}
	return true
}

// waitRefresh waits for a workspace/codeLens/refresh after the first
// `after` server messages, then until every lens of u has its what-if state
// (a configuration change sends a refresh of its own, before the states of
// the new budget are known), and returns the new message count.
func waitRefresh(t *testing.T, c *fakeClient, u string, after int) int {
	t.Helper()
	_, n := c.waitNote("workspace/codeLens/refresh", after, nil)
	deadline := time.Now().Add(waitLimit)
	for {
		done := true
		for _, l := range getFullLenses(t, c, u) {
			if len(l.Args) == 0 {
				done = false
			}
		}
		if done {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("lenses of %s never got their what-if states", u)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkWhatIf checks every lens of u against real packs: a "✓" chunk is in
// the pack at the current total, a "+M" chunk is not, and is at total+M;
// commands and their arguments match. It returns how many lenses were in
// and out.
func checkWhatIf(t *testing.T, c *fakeClient, s *Server, u, path, text string, total int) (in, out int) {
	t.Helper()
	lenses := getFullLenses(t, c, u)
	now := packedLines(t, s, total)["a.go"]
	for _, l := range lenses {
		if len(l.Args) != 1 {
			t.Fatalf("lens %q on line %d: want one command argument, got %+v", l.Title, l.Line, l.Args)
		}
		a := l.Args[0]
		if string(a.URI) != u || a.Path != path || a.StartLine != l.Line+1 || a.Total != total {
			t.Errorf("lens %q: arguments %+v", l.Title, a)
		}
		switch m := toFitRE.FindStringSubmatch(l.Title); {
		case strings.HasSuffix(l.Title, " · ✓ in context"):
			in++
			if l.Command != cmdShowChunkReport || !a.InContext {
				t.Errorf("lens %q: command %s %+v", l.Title, l.Command, a)
			}
			if !inPack(now, text, a.StartLine, a.EndLine) {
				t.Errorf("lens %q (lines %d-%d) says in context, but a pack at %d leaves it out", l.Title, a.StartLine, a.EndLine, total)
			}
		case m != nil:
			out++
			more, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			if l.Command != cmdPinChunk || a.InContext || a.ToFit != more || more <= 0 {
				t.Errorf("lens %q: command %s %+v", l.Title, l.Command, a)
			}
			if inPack(now, text, a.StartLine, a.EndLine) {
				t.Errorf("lens %q (lines %d-%d) says +%d to fit, but a pack at %d includes it", l.Title, a.StartLine, a.EndLine, more, total)
			}
			if !inPack(packedLines(t, s, total+more)["a.go"], text, a.StartLine, a.EndLine) {
				t.Errorf("lens %q (lines %d-%d): a pack at %d+%d still leaves it out", l.Title, a.StartLine, a.EndLine, total, more)
			}
		default:
			t.Errorf("lens %q on line %d has no what-if state", l.Title, l.Line)
		}
	}
	return in, out
}

func TestWhatIfLenses(t *testing.T) {
	root := tempRoot(t)
	path := filepath.Join(root, "a.go")
	var srv *Server
	c := startServer(t, Options{}, func(s *Server) { srv = s })
	budget := func(total int) map[string]any {
		return map[string]any{"acode": map[string]any{"budget": map[string]any{"totalTokens": total, "systemReserve": 100, "responseReserve": 100, "redistribute": true}}}
	}
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}, budget(1000)["acode"], root)
	text := whatIfSrc(6)
	seen := c.noteCount()
	u := c.open(path, "go", text)
	seen = waitRefresh(t, c, u, seen)

	in, out := checkWhatIf(t, c, srv, u, path, text, 1000)
	if in < 2 || out < 2 {
		t.Errorf("at 1,000 tokens: %d lenses in context and %d out; want some of each (the file's lens and later functions out)", in, out)
	}
	if l := getFullLenses(t, c, u)[0]; !toFitRE.MatchString(l.Title) {
		t.Errorf("file lens %q: the whole file does not fit 1,000 tokens", l.Title)
	}

	// A budget that holds everything: every lens says so.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": budget(100000)})
	seen = waitRefresh(t, c, u, seen)
	if in, out := checkWhatIf(t, c, srv, u, path, text, 100000); out != 0 || in != 7 {
		t.Errorf("at 100,000 tokens: %d in, %d out; want all 7 in", in, out)
	}

	// Back to a small budget, and an edit that adds two functions: the new
	// version gets its own states, checked against packs of it.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": budget(1000)})
	seen = waitRefresh(t, c, u, seen)
	text2 := whatIfSrc(8)
	change(c, u, 2, map[string]any{"text": text2})
	waitRefresh(t, c, u, seen)
	in, out = checkWhatIf(t, c, srv, u, path, text2, 1000)
	if in+out != 9 || out < 3 {
		t.Errorf("after the edit: %d in, %d out; want 9 lenses, at least 3 out", in, out)
	}
}

func TestWhatIfSuffix(t *testing.T) {
	tests := []struct {
		st   fitState
		want string
	}{
		{fitState{in: true}, " · ✓ in context"},
		{fitState{toFit: 34099}, " · +34,099 to fit"},
		{fitState{toFit: 7}, " · +7 to fit"},
		{fitState{reason: "secret (private key)"}, " · not packed: secret (private key)"},
		{fitState{}, ""},
	}
	for _, tt := range tests {
		if got := tt.st.suffix(); got != tt.want {
			t.Errorf("%+v.suffix() = %q, want %q", tt.st, got, tt.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 34099: "34,099", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestWhatIfLensesWithoutRefresh: a client that cannot refresh gets the
// states on its next request, and no refresh request is sent.
func TestWhatIfLensesWithoutRefresh(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	u := c.open(filepath.Join(root, "a.go"), "go", whatIfSrc(2))
	c.waitNote("acode/budget", 0, nil)
	var lenses []fullLens
	for i := 0; i < 200; i++ {
		lenses = getFullLenses(t, c, u)
		if strings.HasSuffix(lenses[0].Title, " · ✓ in context") {
			break
		}
		time.Sleep(10 * time.Millisecond) // the state comes in the background
	}
	if !strings.HasSuffix(lenses[0].Title, " · ✓ in context") {
		t.Fatalf("lenses never got their what-if state: %+v", lenses)
	}
	for _, n := range c.Notes() {
		if n.Method == "workspace/codeLens/refresh" {
			t.Errorf("refresh sent to a client without refreshSupport")
		}
	}
}

// TestWhatIfDuplicate: lines another open file already brings are never
// packed twice; their lenses say why instead of a budget.
func TestWhatIfDuplicate(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}, nil, root)
	a := c.open(filepath.Join(root, "a.go"), "go", whatIfSrc(2))
	b := c.open(filepath.Join(root, "b.go"), "go", whatIfSrc(2))
	waitRefresh(t, c, b, 0)
	waitRefresh(t, c, a, 0)
	var titles []string
	dup := 0
	for _, u := range []string{a, b} {
		for _, l := range getFullLenses(t, c, u) {
			titles = append(titles, l.Title)
			if strings.Contains(l.Title, " · not packed: duplicate (same lines as ") && l.Command == cmdShowChunkReport {
				dup++
			}
		}
	}
	if dup != 3 {
		t.Errorf("want the 3 lenses of one file to say it duplicates the other, got %d:\n%s", dup, strings.Join(titles, "\n"))
	}
}

// licenceHeader is a 14-line licence comment, as many repositories start
// every file with.
const licenceHeader = `// Copyright 2026 The Acode Authors. All rights reserved.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

`

// TestWhatIfSharedLicenceHeader: two files that share only their licence
// header are both in context. The second copy of the header is left out as
// a duplicate (its lines are in the context once), which its own chunk
// lens may say, but the file's lens does not call the file "not packed".
func TestWhatIfSharedLicenceHeader(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}, nil, root)
	srcA := licenceHeader + "package a\n\n// Total sums the items.\nfunc Total(items []int) int {\n\tt := 0\n\tfor _, it := range items {\n\t\tt += it\n\t}\n\treturn t\n}\n"
	srcB := licenceHeader + "package a\n\n// Count counts the positive items.\nfunc Count(items []int) int {\n\tn := 0\n\tfor _, it := range items {\n\t\tif it > 0 {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n"
	a := c.open(filepath.Join(root, "command.go"), "go", srcA)
	b := c.open(filepath.Join(root, "count.go"), "go", srcB)
	waitRefresh(t, c, b, 0)
	waitRefresh(t, c, a, 0)
	var titles []string
	dupChunks := 0
	for _, u := range []string{a, b} {
		ls := getFullLenses(t, c, u)
		for _, l := range ls {
			titles = append(titles, l.Title)
			if strings.Contains(l.Title, "not packed: duplicate") {
				dupChunks++
			}
		}
		// The file lens is the one whose arguments span the whole file.
		file := 0
		for _, l := range ls {
			if len(l.Args) == 1 && l.Args[0].WholeFile {
				file++
				if !strings.HasSuffix(l.Title, " · ✓ in context") {
					t.Errorf("%s: file lens %q, want it in context", u, l.Title)
				}
			}
		}
		if file != 1 {
			t.Fatalf("%s: %d file lenses, want 1:\n%s", u, file, strings.Join(titles, "\n"))
		}
	}
	if dupChunks > 1 {
		t.Errorf("%d lenses say duplicate, want at most the header chunk's:\n%s", dupChunks, strings.Join(titles, "\n"))
	}
}

// TestCoverageDuplicates: lines of chunks left out as exact duplicates do
// not decide a target that has other lines; a target that is all duplicate
// is not covered; a file's own reason comes before its header's.
func TestCoverageDuplicates(t *testing.T) {
	lines := strings.Split(strings.Repeat("// licence\n", 14)+"\npackage a\n\nfunc F() {}\n", "\n")
	header := pack.Entry{Path: "b.go", StartLine: 1, EndLine: 14, Reason: "duplicate", Detail: "same lines as a.go lines 1-14"}
	rest := pack.Entry{Path: "b.go", StartLine: 15, EndLine: 18, Score: 0.5}
	cov := &coverage{spans: map[string][]pack.Entry{"b.go": {rest}}, left: map[string][]pack.Entry{"b.go": {header}}, dup: map[string][]pack.Entry{"b.go": {header}}}
	file := &whatIfTarget{rel: "b.go", start: 1, end: 18, lines: lines}
	if in, score := cov.covers(file); !in || score != 0.5 {
		t.Errorf("file sharing only its header: covers = %v %v, want true 0.5", in, score)
	}
	if in, _ := cov.covers(&whatIfTarget{rel: "b.go", start: 1, end: 14, lines: lines}); in {
		t.Errorf("the duplicate header chunk itself is covered, want not")
	}
	cov.spans["b.go"] = []pack.Entry{{Path: "b.go", StartLine: 15, EndLine: 16}} // F left out
	if in, _ := cov.covers(file); in {
		t.Errorf("file whose function is left out is covered")
	}
	cov.left["b.go"] = append(cov.left["b.go"], pack.Entry{Path: "b.go", StartLine: 17, EndLine: 18, Reason: "redacted"})
	if got := cov.leftReason(file); got != "redacted" {
		t.Errorf("leftReason = %q, want the file's own reason before its header's", got)
	}
	if got := cov.leftReason(&whatIfTarget{rel: "b.go", start: 1, end: 14}); got != "duplicate (same lines as a.go lines 1-14)" {
		t.Errorf("header leftReason = %q", got)
	}
}

// BenchmarkWhatIf measures one what-if computation after an edit: five open
// Go files (one of 5,000 lines, ≈34K tokens, four of 500 whose lines repeat
// the big file's), reserves of 4,000 tokens, at two total budgets.
// "total=30000": the big file fits once the pack's dedup has dropped its
// near-duplicate functions (≈9.5K tokens), so the computation is one pack
// at the budget and three at larger ones for the duplicates.
// "total=20000": it does not, and its chunks are bisected — the most packs
// a computation runs (maxWhatIfPreviews). It runs in the background; lens
// requests never wait for it. previews/op is the packs per computation.
func BenchmarkWhatIf(b *testing.B) {
	for _, total := range []int{30000, 20000} {
		b.Run(fmt.Sprintf("total=%d", total), func(b *testing.B) { benchWhatIf(b, total) })
	}
}

func benchWhatIf(b *testing.B, total int) {
	root := b.TempDir()
	var srv *Server
	c := startServer(b, Options{Logger: zap.NewNop(), BudgetDebounce: time.Hour}, func(s *Server) { srv = s })
	c.initialize(nil, map[string]any{"budget": map[string]any{"totalTokens": total, "systemReserve": 1000, "responseReserve": 3000}}, root)
	big := goFile(5000)
	u := c.open(filepath.Join(root, "big.go"), "go", big)
	for i := 0; i < 4; i++ {
		c.open(filepath.Join(root, fmt.Sprintf("small%d.go", i)), "go", goFile(500))
	}
	line := strings.Count(big, "\n") / 2
	tokens := srv.counts.get(mustDoc(b, srv, u), srv.conf.env().tok)
	b.ReportMetric(float64(tokens), "big-file-tokens")
	previews := 0
	srv.whatif.onPreview = func() { previews++ }
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		change(c, u, i+2, map[string]any{"range": rng(line, 1, line, 1), "text": strconv.Itoa(i % 10)})
		c.call("acode/budgetStatus", nil) // the change is applied once this answers
		if _, err := srv.whatif.compute(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(previews)/float64(b.N), "previews/op")
	if cpu1, ok := processCPU(); ok && cpuOK {
		// CPU time of the whole process per computation (the edit, its
		// answer and the computation): steadier than the wall time on a
		// shared machine.
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

func mustDoc(b *testing.B, s *Server, u string) *document {
	d, ok := s.docs.get(protocol.DocumentURI(u))
	if !ok {
		b.Fatal("not open")
	}
	return d
}

// settled reports whether no what-if computation is scheduled or under way
// and the states are those of the open documents under the current
// configuration (every refresh request of the computations is sent).
func (w *whatIf) settled() bool {
	e := w.s.conf.env()
	docs := w.s.docs.all()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending || w.running || w.env != e || len(w.docs) != len(docs) {
		return false
	}
	for _, d := range docs {
		if c := w.docs[d.URI]; c == nil || c.doc != d {
			return false
		}
	}
	return true
}

// waitSettled waits until the change sent last is applied and its what-if
// computation done.
func waitSettled(t testing.TB, c *fakeClient, s *Server) {
	t.Helper()
	c.call("acode/budgetStatus", nil) // the change is applied once this answers
	deadline := time.Now().Add(waitLimit)
	for !s.whatif.settled() {
		if time.Now().After(deadline) {
			t.Fatal("the what-if computation never settled")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// refreshes counts the workspace/codeLens/refresh requests among the server
// messages after the first `after`.
func refreshes(c *fakeClient, after int) int {
	n := 0
	for _, m := range c.Notes()[after:] {
		if m.Method == "workspace/codeLens/refresh" {
			n++
		}
	}
	return n
}

// suffixes returns the what-if part of every lens title of u.
func suffixes(t *testing.T, c *fakeClient, u string) []string {
	t.Helper()
	var out []string
	for _, l := range getFullLenses(t, c, u) {
		out = append(out, strings.TrimPrefix(l.Title, stripWhatIf(l.Title)))
	}
	return out
}

// whatIfSession opens whatIfSrc(6) under a total budget of 1,000 tokens
// (some lenses in context, some not) for a client that can refresh, and
// waits for its what-if states.
func whatIfSession(t testing.TB) (c *fakeClient, s *Server, u string, text string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c = startServer(t, Options{Logger: zap.NewNop()}, func(srv *Server) { s = srv })
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}},
		map[string]any{"budget": map[string]any{"totalTokens": 1000, "systemReserve": 100, "responseReserve": 100, "redistribute": true}}, root)
	text = whatIfSrc(6)
	u = c.open(filepath.Join(root, "a.go"), "go", text)
	waitSettled(t, c, s)
	return c, s, u, text
}

// bodyLine is the 0-based line of the first statement of F2 in whatIfSrc.
const bodyLine = 2 + 2*17 + 2

// TestWhatIfRefreshOnlyWhenTitlesChange: an edit that keeps every what-if
// suffix sends no workspace/codeLens/refresh (its lenses show the previous
// version's states at once); an edit that changes a title sends exactly one.
func TestWhatIfRefreshOnlyWhenTitlesChange(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(text string) map[string]any
		want  int
		check func(t *testing.T, before, after []string)
	}{
		{
			name: "a digit replaced in a function body",
			edit: func(text string) map[string]any {
				line := strings.Split(text, "\n")[bodyLine]
				col := strings.Index(line, " * ") + 3
				return map[string]any{"range": rng(bodyLine, col, bodyLine, col+1), "text": "7"}
			},
			want: 0,
			check: func(t *testing.T, before, after []string) {
				if strings.Join(before, "|") != strings.Join(after, "|") {
					t.Errorf("suffixes changed: %q → %q", before, after)
				}
			},
		},
		{
			name: "two functions added",
			edit: func(string) map[string]any { return map[string]any{"text": whatIfSrc(8)} },
			want: 1,
			check: func(t *testing.T, before, after []string) {
				if len(after) != len(before)+2 {
					t.Errorf("want two more lenses: %q → %q", before, after)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s, u, text := whatIfSession(t)
			before := suffixes(t, c, u)
			for _, sfx := range before {
				if sfx == "" {
					t.Fatalf("a lens has no what-if state before the edit: %q", before)
				}
			}
			mark := c.noteCount()
			change(c, u, 2, tt.edit(text))
			c.call("acode/budgetStatus", nil)
			// Before the new computation (or after it), the lenses of the
			// chunks kept by the edit show a state.
			if now := suffixes(t, c, u); now[1] == "" || now[2] == "" {
				t.Errorf("right after the edit, kept chunks lost their states: %q", now)
			}
			waitSettled(t, c, s)
			if got := refreshes(c, mark); got != tt.want {
				t.Errorf("%d codeLens/refresh requests after the edit, want %d", got, tt.want)
			}
			tt.check(t, before, suffixes(t, c, u))
		})
	}
}

// TestWhatIfMappedStates: the states of the previous version are shown for
// the chunks of the same kind and name (moved by an edit above them), and
// none for a new chunk, until the new version's are computed.
func TestWhatIfMappedStates(t *testing.T) {
	prev := &docWhatIf{doc: &document{}, file: fitState{in: true}, byKey: map[string]fitState{
		"function\x00F1": {toFit: 40}, "function\x00F2": {in: true},
	}}
	doc := &document{}
	chunks := []lensChunk{{line: 5, key: "function\x00F0"}, {line: 20, key: "function\x00F1"}, {line: 40, key: "function\x00F2"}}
	file, states, exact := prev.view(doc, chunks)
	if exact || !file.in {
		t.Errorf("file state %+v exact %v", file, exact)
	}
	want := []string{"", " · +40 to fit", " · ✓ in context"}
	for i, st := range states {
		if st.suffix() != want[i] {
			t.Errorf("chunk %d: %q, want %q", i, st.suffix(), want[i])
		}
	}
}

// BenchmarkWhatIfRefreshes counts the workspace/codeLens/refresh requests
// of a session of 50 keystrokes in a function body (F2 of whatIfSrc(6),
// the first function left out at 1,000 tokens), each applied and its
// what-if computation done before the next (a typist slower than the
// debounce: the most computations). "typing" types a comment at the end of
// a statement (every key adds to the file's tokens, so the "+M to fit"
// titles really change now and then); "replacing" overwrites a digit of
// the statement with another (no title changes).
func BenchmarkWhatIfRefreshes(b *testing.B) {
	const typed = " // the running total of the items in this checkout, kept"
	sessions := []struct {
		name string
		key  func(line string, k int) map[string]any
	}{
		{"typing", func(line string, k int) map[string]any {
			col := len(line) + k
			return map[string]any{"range": rng(bodyLine, col, bodyLine, col), "text": typed[k : k+1]}
		}},
		{"replacing", func(line string, k int) map[string]any {
			col := strings.Index(line, " * ") + 3
			return map[string]any{"range": rng(bodyLine, col, bodyLine, col+1), "text": strconv.Itoa(7 + k%2)}
		}},
	}
	for _, sess := range sessions {
		b.Run(sess.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c, s, u, text := whatIfSession(b)
				line := strings.Split(text, "\n")[bodyLine]
				mark := c.noteCount()
				for k := 0; k < 50; k++ {
					change(c, u, k+2, sess.key(line, k))
					waitSettled(b, c, s)
				}
				b.ReportMetric(float64(refreshes(c, mark)), "refreshes/50keys")
			}
		})
	}
}
