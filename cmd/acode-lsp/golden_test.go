package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/golden"
)

// TestCLIGolden runs each testdata/cli/*.txtar: the command line in "args"
// (split like a shell, quotes allowed), run in a fresh directory holding the
// archive's "files/…" (with "stdin" as standard input); its exit code,
// stdout and stderr must equal the archive's sections ($WORK stands for the
// directory). `go test ./cmd/acode-lsp -run TestCLIGolden -update` rewrites
// them after an intended change.
func TestCLIGolden(t *testing.T) {
	pattern, err := filepath.Abs(filepath.Join("testdata", "cli", "*.txtar")) // the test runs in another directory
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, pattern, func(t *testing.T, c *golden.Case) {
		ar := c.Archive
		sections := map[string]string{}
		dir := t.TempDir()
		for _, f := range ar.Files {
			if name, ok := strings.CutPrefix(f.Name, "files/"); ok {
				write(t, filepath.Join(dir, filepath.FromSlash(name)), string(f.Data))
				continue
			}
			sections[f.Name] = string(f.Data)
		}
		args, err := splitArgs(strings.TrimSpace(sections["args"]))
		if err != nil {
			t.Fatalf("args: %v", err)
		}
		t.Chdir(dir)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(sections["stdin"]), &stdout, &stderr)
		work, _ := filepath.EvalSymlinks(dir)
		clean := func(s string) string {
			s = strings.ReplaceAll(s, work, "$WORK")
			return strings.ReplaceAll(s, dir, "$WORK")
		}
		got := map[string]string{"exit": fmt.Sprintln(code), "stdout": clean(stdout.String()), "stderr": clean(stderr.String())}
		c.Check(t, "acode-lsp "+strings.Join(args, " "), got)
	})
}

// splitArgs splits a command line like a shell: spaces separate, single
// and double quotes group.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unclosed %c in %s", c, strconv.Quote(s))
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inArg = true
		case c == ' ' || c == '\t' || c == '\n':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}
