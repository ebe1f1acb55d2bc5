package tokenizer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The tests in this file compare Count with OpenAI's own tiktoken core (the
// npm "tiktoken" package, a WASM build of the Rust core) through
// tools/tiktoken-ref/count.mjs. They fail, rather than skip, when it is not
// installed: run make tokenizer-ref.

var (
	refDir    = filepath.Join("..", "..", "tools", "tiktoken-ref")
	corpusDir = filepath.Join("..", "..", "testdata", "tokcorpus")
)

// officialEncodings are the encodings compared with the core.
var officialEncodings = []string{O200kBase, Cl100kBase, P50kBase, R50kBase}

// runOfficial runs count.mjs with args and stdin and returns its output.
func runOfficial(t *testing.T, encodings []string, stdin []byte, args ...string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("starts node (the tiktoken reference); run without -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): install Node 20+, then run make tokenizer-ref", err)
	}
	if _, err := os.Stat(filepath.Join(refDir, "node_modules", "tiktoken", "package.json")); err != nil {
		t.Fatalf("OpenAI's tiktoken core is not installed (%v): run make tokenizer-ref", err)
	}
	args = append([]string{filepath.Join(refDir, "count.mjs"), "-e", strings.Join(encodings, ",")}, args...)
	cmd := exec.Command(node, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("count.mjs: %v\n%s", err, stderr.Bytes())
	}
	return out
}

type officialLine struct {
	Path   string         `json:"path"`
	Counts map[string]int `json:"counts"`
}

func decodeOfficial(t *testing.T, out []byte) []officialLine {
	t.Helper()
	var lines []officialLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l officialLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("count.mjs output %q: %v", sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines
}

// officialStrings counts each text with the core.
func officialStrings(t *testing.T, encodings []string, texts []string) []map[string]int {
	t.Helper()
	var in bytes.Buffer
	for _, s := range texts {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
		in.WriteByte('\n')
	}
	lines := decodeOfficial(t, runOfficial(t, encodings, in.Bytes(), "--jsonl"))
	if len(lines) != len(texts) {
		t.Fatalf("count.mjs answered %d lines for %d texts", len(lines), len(texts))
	}
	counts := make([]map[string]int, len(lines))
	for i, l := range lines {
		counts[i] = l.Counts
	}
	return counts
}

// generatedCorpus writes the corpus files too big to commit: a 500 KB
// single line of mixed code and prose, and long single pieces that take
// the heap merge (kept short enough for the core's quadratic merge).
func generatedCorpus(t *testing.T) []string {
	t.Helper()
	return generatedCorpusIn(t, t.TempDir())
}

// generatedCorpusIn writes the generated corpus files into dir.
func generatedCorpusIn(t *testing.T, dir string) []string {
	t.Helper()
	words := []string{
		"func", " main", "()", " {", "}", " return", " err", " !=", " nil", ";", " x", ":=", " 42", " 3.14",
		" if", " else", " for", " i", " <", " len", "(s)", " //", " comment", " \"string\"", " 'c'",
		" hello", " World", " It's", " DON'T", " 日本語", " 中文", " 😀", " 👨‍👩‍👧", " مرحبا", " שלום",
		" e\u0301", " ÀB\u0301C", " 1234567", " ٣٤٥", "\t", "  ", "   ", " <|endoftext|>", " /path/to/x.go",
		" CamelCase", " snake_case", " UPPER", "...", " ->", " =>", " &&", " ||", " \u00a0", " \u3000", " \u0085",
	}
	r := rand.New(rand.NewPCG(1, 2))
	var line strings.Builder
	for line.Len() < 500<<10 {
		line.WriteString(words[r.IntN(len(words))])
	}
	files := map[string]string{
		"long_line_500k.txt": line.String(),
		"long_spaces.txt":    strings.Repeat(" ", 6000) + "x" + strings.Repeat("\t ", 3000) + "\n" + strings.Repeat(" ", 5000),
		"long_letters.txt":   strings.Repeat("a", 4000) + " " + strings.Repeat("Ab", 2000) + " " + strings.Repeat("é", 2000),
		"long_digits.txt":    strings.Repeat("9876543210", 500),
		"long_symbols.txt":   strings.Repeat("-=", 2000) + strings.Repeat("/", 3000),
	}
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestMatchesOfficialCore compares the counts of every corpus file, under
// every encoding, with OpenAI's core: exact equality.
func TestMatchesOfficialCore(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		if !e.IsDir() {
			paths = append(paths, filepath.Join(corpusDir, e.Name()))
		}
	}
	if len(paths) < 15 {
		t.Fatalf("corpus %s has %d files, want the full corpus", corpusDir, len(paths))
	}
	paths = append(paths, generatedCorpus(t)...)
	lines := decodeOfficial(t, runOfficial(t, officialEncodings, nil, paths...))
	if len(lines) != len(paths) {
		t.Fatalf("count.mjs answered %d lines for %d files", len(lines), len(paths))
	}
	for _, l := range lines {
		data, err := os.ReadFile(l.Path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(l.Path), func(t *testing.T) {
			checkFileCounts(t, officialEncodings, l.Counts, string(data), "OpenAI's core")
		})
	}
}

// checkFileCounts compares the count of data under each encoding with the
// count ref (the reference's name, for the messages) gave: exact equality,
// and every encoding must have a count.
func checkFileCounts(t *testing.T, encodings []string, counts map[string]int, data, ref string) {
	t.Helper()
	for _, name := range encodings {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := counts[name]
		if !ok {
			t.Fatalf("no %s count from %s", name, ref)
		}
		if got := tk.Count(data); got != want {
			t.Errorf("%s: Count = %d, %s says %d", name, got, ref, want)
		}
	}
}

// TestClassesMatchOfficialCore sweeps the code points through the core:
// each is put in contexts where its class (letter case, mark, number,
// space, newline, other) changes the split, and the counts of groups of
// code points are compared under o200k_base (letter case, marks) and
// cl100k_base (the GPT-2 pattern's classes are the same). A differing group
// is narrowed down to its code points. Every assigned code point is swept;
// of planes 4-13 (unassigned) and 15-16 (private use) one in 61.
func TestClassesMatchOfficialCore(t *testing.T) {
	encs := []string{O200kBase, Cl100kBase}
	probe := func(c rune) string {
		s := string(c)
		return "x" + s + "x " + s + "1 " + s + "A" + s + "'S\n" + s + "\u0301" + s + " .\n"
	}
	var groups [][]rune
	var g []rune
	for c := rune(0); c <= utf8.MaxRune; c++ {
		if c >= 0x40000 && c < 0xE0000 || c >= 0xF0000 {
			if c%61 != 0 {
				continue
			}
		}
		if !utf8.ValidRune(c) {
			continue
		}
		if g = append(g, c); len(g) == 4096 {
			groups, g = append(groups, g), nil
		}
	}
	groups = append(groups, g)
	texts := make([]string, len(groups))
	for i, g := range groups {
		var sb strings.Builder
		for _, c := range g {
			sb.WriteString(probe(c))
		}
		texts[i] = sb.String()
	}
	want := officialStrings(t, encs, texts)
	for _, name := range encs {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if tk.Count(text) == want[i][name] {
				continue
			}
			one := make([]string, len(groups[i]))
			for k, c := range groups[i] {
				one[k] = probe(c)
			}
			w := officialStrings(t, encs, one)
			var cps []string
			for k, s := range one {
				if tk.Count(s) != w[k][name] {
					cps = append(cps, fmt.Sprintf("U+%04X", groups[i][k]))
				}
			}
			t.Errorf("%s: code points U+%04X..U+%04X: counts differ from OpenAI's core at %v", name, groups[i][0], groups[i][len(groups[i])-1], cps)
		}
	}
}

// TestRandomMatchesOfficialCore compares counts of random mixes of
// characters of every class (see palette) with the core.
func TestRandomMatchesOfficialCore(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	texts := make([]string, 3000)
	for i := range texts {
		b := make([]byte, 1+r.IntN(40))
		for k := range b {
			b[k] = byte(r.IntN(256))
		}
		if i%2 == 0 {
			texts[i] = fromPalette(b)
		} else {
			texts[i] = toValidUTF8(string(b))
		}
	}
	texts = append(texts, referenceSeeds...)
	for i := range texts {
		texts[i] = toValidUTF8(texts[i])
	}
	want := officialStrings(t, officialEncodings, texts)
	for _, name := range officialEncodings {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for i, text := range texts {
			if got := tk.Count(text); got != want[i][name] {
				if bad++; bad <= 20 {
					t.Errorf("%s: Count(%q) = %d, OpenAI's core says %d", name, text, got, want[i][name])
				}
			}
		}
	}
}

// TestModelsMatchOfficialCore checks EncodingForModel against the model
// table shipped with the npm tiktoken package. p50k_edit and gpt2 share the
// ranks and pattern of p50k_base and r50k_base, which count them.
func TestModelsMatchOfficialCore(t *testing.T) {
	path := filepath.Join(refDir, "node_modules", "tiktoken", "model_to_encoding.json")
	data, err := os.ReadFile(path)
	if err != nil {
		if testing.Short() { // a fresh clone without npm (make test-go installs it and runs without -short)
			t.Skipf("OpenAI's tiktoken core is not installed (%v): run make tokenizer-ref and test without -short", err)
		}
		t.Fatalf("OpenAI's tiktoken core is not installed (%v): run make tokenizer-ref", err)
	}
	var models map[string]string
	if err := json.Unmarshal(data, &models); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	same := map[string]string{"p50k_edit": P50kBase, "gpt2": R50kBase}
	for model, want := range models {
		if s, ok := same[want]; ok {
			want = s
		}
		t.Run(model, func(t *testing.T) {
			if got, ok := EncodingForModel(model); !ok || got != want {
				t.Errorf("EncodingForModel(%q) = %q, %v; want %q", model, got, ok, want)
			}
		})
	}
}
