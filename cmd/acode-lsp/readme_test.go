package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMECommands runs every line of README.md's command-line block as
// a user pastes it from the repository root: the files it names must exist
// and each command must succeed (`serve` ends with 1 when its input closes
// without shutdown, as LSP says).
func TestREADMECommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := commandBlock(t, string(readme), "## Command line")
	// State and caches of the commands (calibration, the index) stay here.
	tmp := t.TempDir()
	t.Setenv("HOME", tmp)
	t.Setenv("XDG_STATE_HOME", filepath.Join(tmp, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	seen := map[string]bool{}
	for _, line := range lines {
		args, stdinFile := shellWords(t, line)
		if len(args) == 0 || args[0] != "acode-lsp" {
			t.Errorf("README line %q does not run acode-lsp", line)
			continue
		}
		seen[args[1]] = true
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			stdin := ""
			if stdinFile != "" {
				b, err := os.ReadFile(filepath.Join(root, stdinFile))
				if err != nil {
					t.Fatalf("README redirects from a file the repository does not ship: %v", err)
				}
				stdin = string(b)
			}
			want := 0
			if args[1] == "serve" {
				want = 1
			}
			code, out, errs := runCLI(t, root, stdin, args[1:]...)
			if code != want {
				t.Errorf("exit %d, want %d\nstdout: %.500s\nstderr: %.2000s", code, want, out, errs)
			}
			if want == 0 && args[1] != "mcp" && strings.TrimSpace(out) == "" {
				t.Errorf("no output on stdout; stderr: %.1000s", errs)
			}
		})
	}
	for _, cmd := range []string{"pack", "count", "config", "trim", "fit", "calibrate", "clear-cache", "mcp", "serve"} {
		if !seen[cmd] {
			t.Errorf("README's command block has no %s example", cmd)
		}
	}
}

// commandBlock returns the lines of the first ```sh block after heading.
func commandBlock(t *testing.T, text, heading string) []string {
	t.Helper()
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	rest := text[i:]
	start := strings.Index(rest, "```sh\n")
	if start < 0 {
		t.Fatalf("no ```sh block after %q", heading)
	}
	rest = rest[start+len("```sh\n"):]
	block := rest[:strings.Index(rest, "```")]
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// shellWords splits a command line as sh would for the README's simple
// lines: double-quoted words, one `< FILE` redirection, a trailing comment.
func shellWords(t *testing.T, line string) (args []string, stdinFile string) {
	t.Helper()
	var word strings.Builder
	inWord, quoted, redirect := false, false, false
	flush := func() {
		if !inWord {
			return
		}
		if redirect {
			stdinFile, redirect = word.String(), false
		} else {
			args = append(args, word.String())
		}
		word.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '"':
			quoted = false
		case quoted:
			word.WriteByte(c)
		case c == '"':
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return args, stdinFile
		case c == '<' && !inWord:
			redirect = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	flush()
	return args, stdinFile
}
