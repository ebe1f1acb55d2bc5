// Package benchcorpus builds the deterministic inputs of the tokenizer
// benchmarks: Go source from the toolchain's own GOROOT/src and generated
// multilingual text. Start with [Mixed], the ~4 MB input of make
// bench-tokens; [GoSource] and [Unicode] are its parts.
package benchcorpus

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// GOROOT returns the Go toolchain's root directory.
func GOROOT() (string, error) {
	if r := os.Getenv("GOROOT"); r != "" {
		return r, nil
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("benchcorpus: go env GOROOT: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// GoSource returns the first n bytes (cut at a line end) of the Go files
// under GOROOT/src/<dirs...>, in path order.
func GoSource(n int, dirs ...string) (string, error) {
	root, err := GOROOT()
	if err != nil {
		return "", err
	}
	if len(dirs) == 0 {
		dirs = []string{"net/http", "runtime", "go", "encoding", "strings", "fmt"}
	}
	var paths []string
	for _, d := range dirs {
		err := filepath.WalkDir(filepath.Join(root, "src", d), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, "testdata") {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("benchcorpus: walk %s: %w", d, err)
		}
	}
	sort.Strings(paths)
	var sb strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("benchcorpus: %w", err)
		}
		sb.Write(data)
		if sb.Len() >= n {
			break
		}
	}
	s := sb.String()
	if len(s) > n {
		s = s[:n]
		if i := strings.LastIndexByte(s, '\n'); i > 0 {
			s = s[:i+1]
		}
	}
	return s, nil
}

// words are phrases of many scripts: CJK, Arabic and Hebrew (with
// diacritics), Devanagari, Thai, Cyrillic, Greek, emoji with ZWJ joiners
// and skin tones, combining marks, digits of other scripts.
var words = []string{
	"人工智能正在改变软件开发的方式。", "大型语言模型可以阅读代码", "東京都は日本の首都です。", "ひらがなとカタカナ",
	"서울은 대한민국의 수도입니다.", "한글", "مرحبا بالعالم", "بِسْمِ اللَّهِ الرَّحْمَٰنِ", "שלום עולם", "בְּרֵאשִׁית בָּרָא",
	"नमस्ते दुनिया", "हिन्दी में लिखा गया पाठ।", "สวัสดีชาวโลก", "Привет, мир!", "Ελληνικά κείμενα", "Tiếng Việt có dấu",
	"👨‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🚀🔥✅", "🇩🇪🇯🇵", "e\u0301te\u0301", "Z\u0334\u0321\u0300a\u0338l\u0337g\u0336o\u0335",
	"٠١٢٣٤٥", "०१२३", "２０２４年", "«guillemets»", "naïve café", "ＡＢＣ全角", "𠀀𠀁𠂉",
}

// Unicode returns about n bytes of multilingual text, the same every time.
func Unicode(n int) string {
	r := rand.New(rand.NewPCG(2024, 11))
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(words[r.IntN(len(words))])
		switch r.IntN(10) {
		case 0:
			sb.WriteString("\n")
		case 1:
			sb.WriteString(", ")
		default:
			sb.WriteString(" ")
		}
	}
	return sb.String()
}

// Mixed returns the ~4 MB corpus of make bench-tokens: 3 MB of Go source
// and 1 MB of multilingual text.
func Mixed() (string, error) {
	src, err := GoSource(3 << 20)
	if err != nil {
		return "", err
	}
	return src + Unicode(1<<20), nil
}
