package tokenizer

import (
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// The reference implementation, pkoukk/tiktoken-go (regexp2 and a Go map),
// with ranks from the same offline loader.
var (
	refOnce sync.Once
	refEncs = map[string]*tiktoken.Tiktoken{}
	refErr  error
)

func reference(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		for _, n := range officialEncodings {
			tk, err := tiktoken.GetEncoding(n)
			if err != nil {
				refErr = err
				return
			}
			refEncs[n] = tk
		}
	})
	if refErr != nil {
		t.Fatalf("load tiktoken-go: %v", refErr)
	}
	return refEncs[name]
}

// refCount counts text with tiktoken-go. The text is first made
// comparable: invalid UTF-8 replaced as Count does, and the characters on
// which tiktoken-go knowingly differs from OpenAI's core replaced by
// U+FFFD (see comparable).
func refCount(t testing.TB, name, text string) int {
	return len(reference(t, name).EncodeOrdinary(text))
}

// comparable returns text, valid UTF-8, with the characters where
// tiktoken-go differs from OpenAI's core replaced by U+FFFD, which both
// treat alike:
//   - characters whose class (letter, mark, number, space) differs between
//     Go's Unicode tables (15.0.0, used by regexp2) and the core's
//     (16.0.0; mostly characters new in 15.1 and 16.0);
//   - U+017F (ſ), which the core's (?i:'s) matches by Unicode case folding
//     and regexp2's does not.
func comparable(text string) string {
	text = toValidUTF8(text)
	return strings.Map(func(r rune) rune {
		if r == 'ſ' || goClass(r) != classOf(r) {
			return utf8.RuneError
		}
		return r
	}, text)
}

// goClass computes the class flags of r from Go's unicode package.
func goClass(r rune) uint8 {
	var c uint8
	switch {
	case unicode.In(r, unicode.Lu, unicode.Lt):
		c = fL | fU
	case unicode.Is(unicode.Ll, r):
		c = fL | fW
	case unicode.In(r, unicode.Lm, unicode.Lo):
		c = fL | fU | fW
	case unicode.Is(unicode.M, r):
		c = fU | fW
	case unicode.Is(unicode.N, r):
		c = fN
	}
	if unicode.Is(unicode.White_Space, r) {
		c |= fS
	}
	if r == '\r' || r == '\n' {
		c |= fNL
	}
	return c
}

// referenceSeeds are texts on which the splitter's hand-written
// alternatives are easy to get wrong.
var referenceSeeds = []string{
	"",
	"hello world",
	"Hello, World! It's a test.",
	"func main() {\n\tfmt.Println(\"hi\")\n}\n",
	"  leading and trailing  ",
	"a\u0085b \u0085 c",            // NEL is \s
	"\uFEFFpackage main",           // BOM is not \s
	"a\u00A0b\u2028c\u3000d\u2029", // Unicode spaces
	"line1\rline2\r\rline3\r",      // lone CR
	"crlf\r\n\r\n  \r\nend\r\n",
	"   \n  \n\t\n    \nx",    // whitespace-only lines
	"  \t  \n",                // trailing whitespace at the end
	" \u3000x  \u3000 y\t\tz", // wide spaces before words
	"日本語のテキストです。中文字符，한국어 텍스트",
	"👨‍👩‍👧‍👦 family 🏳️‍🌈 flag 👍🏽 ok",
	"مرحبا بالعالم שלום עולם",
	"e\u0301 cafe\u0301 n\u0303o A\u0301B\u0301 \u0301\u0301x",
	"I'M HERE, YOU'RE THERE, WE'LL SEE, THEY'VE, HE'D, IT'S, DON'T",
	"i'm i'M I'm 'S 's 're 'RE 'Ll 'lL",
	"1234567890 ١٢٣٤٥ ४२ ½ Ⅻ 3.14159 1e10 0xFF",
	"<|endoftext|> <|fim_prefix|>x<|fim_middle|>y<|fim_suffix|> <|endofprompt|>",
	"CamelCaseIdentifier snake_case_name SCREAMING_CASE kebab-case",
	"ABC\u0301 ΑΒΓδεζ ǅungla ǈ Ǉ",
	"path/to/file.go:12:3 // comment\n/* block */",
	";;\n\n// x\r\n/",
	"\u2028\u2029\u0085\v\f",
	"x  ", "x\t\t", " ", "\n", "'", "''s", "'ſ", "'ſt",
	strings.Repeat("a", 200),
	strings.Repeat(" ", 150) + "x",
	strings.Repeat("AB", 100) + "cd",
	strings.Repeat("0", 100),
	strings.Repeat("é", 80),
	"\xff\xfe invalid \xe2\x82 utf8 \xc0\x80",
}

func TestMatchesReference(t *testing.T) {
	for _, name := range officialEncodings {
		tk, err := ForEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range referenceSeeds {
			text := comparable(text)
			t.Run(name+"/"+text, func(t *testing.T) {
				if got, want := tk.Count(text), refCount(t, name, text); got != want {
					t.Errorf("Count(%q) = %d, tiktoken-go says %d", text, got, want)
				}
			})
		}
	}
}
