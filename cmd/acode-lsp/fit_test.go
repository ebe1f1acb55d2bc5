package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var cursorFlag = regexp.MustCompile(`--cursor (\S+)`)

func TestRunFitPagesToTheEnd(t *testing.T) {
	var in strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&in, "internal/pkg%d/file%d.go\n", i%17, i)
	}
	var pages strings.Builder
	cursor := ""
	for n := 0; ; n++ {
		args := []string{"--tool", "project_files", "--max", "1000"}
		if cursor != "" {
			args = append(args, "--cursor", cursor)
		}
		var stdout, stderr bytes.Buffer
		if code := runFit(context.Background(), args, strings.NewReader(in.String()), &stdout, &stderr); code != 0 {
			t.Fatalf("page %d: exit %d: %s", n, code, stderr.String())
		}
		pages.Write(stdout.Bytes())
		m := cursorFlag.FindStringSubmatch(stderr.String())
		if m == nil {
			if !strings.Contains(stderr.String(), "of 2000 shown, nothing more") {
				t.Errorf("last page report %q", stderr.String())
			}
			break
		}
		cursor = m[1]
		if n > 100 {
			t.Fatal("paging does not end")
		}
	}
	if pages.String() != in.String() {
		t.Errorf("pages do not rebuild the input (%d of %d bytes)", pages.Len(), in.Len())
	}
}

func TestRunFit(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		stdin     string
		code      int
		stdoutHas string
		stderrHas string
	}{
		{"first page", []string{"--tool", "read_file", "--max", "3"}, "alpha\nbeta\ngamma\ndelta\n", 0, "alpha\n", "continue with --cursor"},
		{"history", []string{"--tool", "project_files", "--max", "200", "--mode", "history"}, "a.go\nb.go\nc.md\n", 0, "Listed 3 files", "history summary"},
		{"json", []string{"--tool", "read_file", "--max", "100", "--json"}, "x\n", 0, `"continuation": null`, "nothing more"},
		// Issue 16: --max defaults to 8,000 like acode/fitToolResult's maxTokens.
		{"default max", []string{"--tool", "read_file"}, "x\n", 0, "x\n", "nothing more"},
		{"zero max", []string{"--tool", "read_file", "--max", "0"}, "x\n", 2, "", "--max 0: must be a positive number of tokens (leave it out for 8000)"},
		{"history with pattern", []string{"--tool", "search_content", "--mode", "history", "--pattern", "Foo"}, "a.go:1:Foo\nb.go:2:Foo\n", 0,
			"Found 2 matches for 'Foo' in 2 files", "history summary"},
		{"history over its cap", []string{"--tool", "read_file", "--mode", "history", "--history-tokens", "12000", "--json"}, "x\n", 0,
			`"historyOver": `, ""},
		{"read_file outline", []string{"--tool", "read_file", "--mode", "history", "--path", "a.go"}, "package a\n\nfunc A() {}\n", 0,
			"Key sections: function A.", ""},
		{"bad cursor", []string{"--max", "10", "--cursor", "nope"}, "x\n", 1, "", "cursor"},
		{"bad mode", []string{"--max", "10", "--mode", "summary"}, "x\n", 1, "", "mode"},
		{"bad flag", []string{"--bogus"}, "", 2, "", "unknown flag --bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runFit(context.Background(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdoutHas) || !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", stdout.String(), stderr.String(), tt.stdoutHas, tt.stderrHas)
			}
		})
	}
}

func TestRunFitJSONFields(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runFit(context.Background(), []string{"--max", "2", "--json"}, strings.NewReader("a\nb\nc\n"), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"content", "tokens", "returned", "total", "continuation", "note"} {
		if _, ok := got[k]; !ok {
			t.Errorf("result has no %q: %v", k, got)
		}
	}
}
