package invariant

import (
	"strings"
	"testing"
)

// words counts whitespace-separated words: a stand-in tokenizer that makes
// the expected counts obvious.
func words(s string) int { return len(strings.Fields(s)) }

const goodMD = "## File: a.go (lines 1-2, 4-4)\n```go\npackage a\n// one\n// … lines 3-3 omitted …\n// three\n```\n\n## Tool: go test (lines 1-1)\n```text\nok\n```\n"

var goodFiles = map[string]string{"a.go": "package a\n// one\n// two\n// three\n"}

func goodPack() Pack {
	return Pack{Content: goodMD, TokenCount: words(goodMD), Available: 100, Encoding: "words",
		Included: []Item{
			{Type: "open_file", Path: "a.go", StartLine: 1, EndLine: 2, Score: 0.5},
			{Type: "open_file", Path: "a.go", StartLine: 4, EndLine: 4, Score: 0.4},
			{Type: "tool_result", StartLine: 1, EndLine: 1, Score: 1},
		}}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *Pack, files map[string]string)
		want   string // a part of the first violation; "" for none
	}{
		{"good", func(*Pack, map[string]string) {}, ""},
		{"tokenCount is not the count", func(p *Pack, _ map[string]string) { p.TokenCount++ }, "counts"},
		{"over available", func(p *Pack, _ map[string]string) { p.Available = 3 }, "exceeds available"},
		{"a line twice", func(p *Pack, _ map[string]string) { p.Included[1].StartLine = 2 }, "included twice"},
		{"lines not 1-based", func(p *Pack, _ map[string]string) { p.Included[2].StartLine = 0 }, "1-based"},
		{"score over 1", func(p *Pack, _ map[string]string) { p.Included[0].Score = 1.5 }, "score"},
		{"a file shown twice", func(p *Pack, _ map[string]string) {
			p.Content += "\n## File: a.go (lines 9-9)\n```go\nx\n```\n"
		}, "two headers"},
		{"ranges not ascending", func(p *Pack, _ map[string]string) {
			p.Content = strings.Replace(p.Content, "(lines 1-2, 4-4)", "(lines 4-4, 1-2)", 1)
		}, "ascending"},
		{"body shorter than its ranges", func(p *Pack, _ map[string]string) {
			p.Content = strings.Replace(p.Content, "// three\n", "", 1)
		}, "body has 3 lines, want 4"},
		{"a line that is not the file's", func(p *Pack, files map[string]string) { files["a.go"] = "package a\n// ONE\n// two\n// three\n" }, "want the source line 2"},
		{"a redacted line may differ", func(p *Pack, files map[string]string) {
			p.Content = strings.Replace(p.Content, "// one", "// [REDACTED]", 1)
		}, ""},
		{"no gap marker", func(p *Pack, _ map[string]string) {
			p.Content = strings.Replace(p.Content, "// … lines 3-3 omitted …", "// two", 1)
		}, "gap marker"},
		{"fence never closed", func(p *Pack, _ map[string]string) {
			p.Content = strings.TrimSuffix(p.Content, "```\n")
		}, "never closed"},
		{"file header without lines", func(p *Pack, _ map[string]string) {
			p.Content = strings.Replace(p.Content, " (lines 1-2, 4-4)", "", 1)
		}, "want \"## File: <path> (lines a-b, c-d)\""},
		{"an included chunk without its section", func(p *Pack, _ map[string]string) {
			p.Included = append(p.Included, Item{Type: "reference", Path: "b.go", StartLine: 1, EndLine: 1})
		}, "has no section"},
		{"an included chunk outside its section", func(p *Pack, _ map[string]string) {
			p.Included[1].EndLine = 5
		}, "outside its section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := goodPack()
			files := map[string]string{}
			for k, v := range goodFiles {
				files[k] = v
			}
			tt.change(&p, files)
			if tt.name != "tokenCount is not the count" {
				p.TokenCount = words(p.Content)
			}
			errs := Check(p, Options{Count: words, Files: files})
			switch {
			case tt.want == "" && len(errs) > 0:
				t.Errorf("violations of a good pack: %v", errs)
			case tt.want != "" && len(errs) == 0:
				t.Errorf("no violation, want one with %q", tt.want)
			case tt.want != "" && !strings.Contains(errs[0].Error(), tt.want):
				t.Errorf("first violation %q, want one with %q (all: %v)", errs[0], tt.want, errs)
			}
		})
	}
}

func TestCheckXML(t *testing.T) {
	file := "<file path=\"a.go\" lines=\"1-2\"><![CDATA[\npackage a\n// one\n]]></file>\n"
	tool := "<tool label=\"t\"><![CDATA[\nok & done ]]]]><![CDATA[>\n]]></tool>\n"
	good := "<context>\n" + file + tool + "</context>\n"
	p := Pack{Content: good, TokenCount: words(good), Available: 100, Included: []Item{{Type: "open_file", Path: "a.go", StartLine: 1, EndLine: 2}}}
	if errs := Check(p, Options{Count: words, Files: map[string]string{"a.go": "package a\n// one\n"}}); len(errs) > 0 {
		t.Errorf("violations of a good pack: %v", errs)
	}
	tests := []struct{ name, content, want string }{
		{"not well-formed", strings.Replace(good, "]]></tool>", "</tool>", 1), "not well-formed"},
		{"no root", file + tool, "root is <file>"},
		{"an element inside an element", strings.Replace(good, "// one", "]]><b>one</b><![CDATA[", 1), "inside"},
		{"body shorter than its ranges", strings.Replace(good, "// one\n", "", 1), "body has 1 lines, want 2"},
		{"a file twice", "<context>\n" + file + file + "</context>\n", "appears twice"},
		{"an unknown item", strings.Replace(good, "tool", "note", 2), "unknown element <note>"},
		{"another root", strings.Replace(good, "context", "pack", 2), "root is <pack>, want <context>"},
		{"not the file's lines", strings.Replace(good, "// one", "// two", 1), "want the source line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := p
			p.Content, p.TokenCount = tt.content, words(tt.content)
			errs := Check(p, Options{Count: words, Files: map[string]string{"a.go": "package a\n// one\n"}})
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.want) {
				t.Errorf("violations %v, want the first with %q", errs, tt.want)
			}
		})
	}
}

func TestCheckUsesTheEncoding(t *testing.T) {
	p := goodPack()
	p.Encoding = "o200k_base"
	if errs := Check(p, Options{}); len(errs) == 0 || !strings.Contains(errs[0].Error(), "under o200k_base") {
		t.Errorf("violations %v: want the word count to differ from o200k_base's", errs)
	}
	p.Encoding = "no_such_base"
	if errs := Check(p, Options{}); len(errs) == 0 || !strings.Contains(errs[0].Error(), "no tokenizer") {
		t.Errorf("violations %v: want no tokenizer for no_such_base", errs)
	}
}
