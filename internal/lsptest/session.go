package lsptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/golden"
)

// Sessions runs language-server sessions kept as txtar archives: a script
// of what the editor sends, and one section per answer it records. With
// `go test -update` the recorded sections are rewritten (internal/golden).
//
// An archive holds:
//
//   - its comment: what the session shows;
//   - "script": one command a line (blank lines and lines starting with #
//     are skipped);
//   - "ws/<path>": files written into the workspace root before the
//     server starts;
//   - "files/<name>": texts that "write" puts into the workspace later;
//   - one section per recorded answer, named by the script.
//
// Commands (JSON arguments are one line; $ROOT and $ROOT_URI stand for the
// workspace root's path and URI):
//
//	workspace NAME              copy the workspace NAME of [Sessions.Workspaces] into the root (before any ws/ file)
//	initialize [JSON]           initialize with the root as the only folder, then initialized; JSON is merged into the params
//	call NAME METHOD [JSON]     send a request and record its answer ({"result": …} or {"error": …}) as section NAME
//	send ID METHOD [JSON]       send a request with the JSON id ID, without waiting
//	await NAME ID               wait for the answer to the request with the JSON id ID and record it as section NAME
//	notify METHOD [JSON]        send a notification
//	open PATH LANGUAGE          send didOpen with the text of the workspace file PATH
//	raw TEXT                    send TEXT as the body of one frame, as it is
//	mark                        later waits look only at messages from the server received from now on
//	wait METHOD [NAME] [JSON]   wait for a message from the server with METHOD whose params hold JSON (every field given,
//	                            recursively; none: any), after the mark or the previous wait, and record its params as NAME
//	write PATH SECTION          write the archive's section SECTION to the workspace file PATH (the server is not told)
//	close                       close the server's input
//	exit NAME                   wait for the server to end and record its exit code as section NAME
//	forbid TEXT                 at the end, no answer or message from the server may contain TEXT
//
// Recorded JSON is indented, with object keys sorted, the root's URI and
// path replaced by $ROOT_URI and $ROOT, and serverInfo.version by $VERSION
// (it differs between builds).
type Sessions struct {
	// Start starts a server for a session whose workspace root is root.
	Start func(t *testing.T, root string) *Editor
	// Workspaces are the directories that "workspace NAME" copies, by name.
	Workspaces map[string]string
}

// Run runs every archive that matches pattern, each in a subtest.
func (s Sessions) Run(t *testing.T, pattern string) {
	t.Helper()
	golden.Run(t, pattern, func(t *testing.T, c *golden.Case) {
		script, ok := c.Section("script")
		if !ok {
			t.Fatalf("%s has no script section", c.Path)
		}
		r := &sessionRun{t: t, s: s, c: c, got: map[string]string{}}
		r.root = tempDir(t)
		r.rootURI = URI(r.root)
		lines := strings.Split(string(script), "\n")
		// Workspace commands come first: the files exist before the server
		// starts.
		for _, line := range lines {
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "workspace "); ok {
				dir, ok := s.Workspaces[strings.TrimSpace(name)]
				if !ok {
					t.Fatalf("no workspace %q", name)
				}
				CopyDir(t, dir, r.root)
			}
		}
		for _, f := range c.Archive.Files {
			if rel, ok := strings.CutPrefix(f.Name, "ws/"); ok {
				writeFile(t, filepath.Join(r.root, filepath.FromSlash(rel)), f.Data)
			}
		}
		r.e = s.Start(t, r.root)
		for i, line := range lines {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "workspace ") {
				continue
			}
			r.line = i + 1
			r.do(line)
		}
		r.checkForbidden()
		c.Check(t, c.Path, r.got)
	})
}

// sessionRun is the state of one session.
type sessionRun struct {
	t             *testing.T
	s             Sessions
	c             *golden.Case
	e             *Editor
	root, rootURI string
	line          int
	mark          int // messages from the server already looked at by wait
	got           map[string]string
	forbidden     []string
}

func (r *sessionRun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s:%d: %s", r.c.Path, r.line, fmt.Sprintf(format, args...))
}

// expand replaces $ROOT_URI and $ROOT.
func (r *sessionRun) expand(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "$ROOT_URI", r.rootURI), "$ROOT", r.root)
}

// params decodes a JSON argument (nil when absent).
func (r *sessionRun) params(arg string) any {
	r.t.Helper()
	if arg == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(r.expand(arg)), &v); err != nil {
		r.fatalf("bad JSON %s: %v", arg, err)
	}
	return v
}

// record stores a section, once.
func (r *sessionRun) record(name, text string) {
	r.t.Helper()
	if _, dup := r.got[name]; dup {
		r.fatalf("section %s is recorded twice", name)
	}
	if name == "script" || strings.HasPrefix(name, "ws/") || strings.HasPrefix(name, "files/") {
		r.fatalf("section name %s is reserved", name)
	}
	r.got[name] = text
}

// recordAnswer records a response as {"result": …} or {"error": …}.
func (r *sessionRun) recordAnswer(name string, m *Message) {
	r.t.Helper()
	v := map[string]any{}
	if m.Error != nil {
		v["error"] = m.Error
	} else {
		v["result"] = m.Result
	}
	r.record(name, r.canonical(v))
}

// canonical is v as indented JSON with sorted keys and the volatile parts
// replaced.
func (r *sessionRun) canonical(v any) string {
	r.t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		r.fatalf("marshal: %v", err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		r.fatalf("unmarshal: %v", err)
	}
	if obj, ok := generic.(map[string]any); ok {
		if res, ok := obj["result"].(map[string]any); ok {
			if info, ok := res["serverInfo"].(map[string]any); ok {
				if _, ok := info["version"]; ok {
					info["version"] = "$VERSION"
				}
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(generic); err != nil {
		r.fatalf("marshal: %v", err)
	}
	s := strings.ReplaceAll(b.String(), r.rootURI, "$ROOT_URI")
	return strings.ReplaceAll(s, r.root, "$ROOT")
}

// fields splits a command line into n words and the rest of the line.
func (r *sessionRun) fields(line string, n int) ([]string, string) {
	r.t.Helper()
	var words []string
	rest := line
	for len(words) < n {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			r.fatalf("%q: want at least %d arguments", line, n-1)
		}
		word, after, _ := strings.Cut(rest, " ")
		words = append(words, word)
		rest = after
	}
	return words, strings.TrimSpace(rest)
}

// do runs one command.
func (r *sessionRun) do(line string) {
	r.t.Helper()
	cmd, _, _ := strings.Cut(line, " ")
	run, ok := sessionCommands[cmd]
	if !ok {
		r.fatalf("unknown command %q", cmd)
	}
	run(r, line)
}

// sessionCommands are the commands of a session script, each given its
// whole line (their forms are listed in the doc comment of [Sessions]).
var sessionCommands = map[string]func(r *sessionRun, line string){
	"initialize": (*sessionRun).initialize,
	"call": func(r *sessionRun, line string) {
		w, arg := r.fields(line, 3)
		r.recordAnswer(w[1], r.e.Call(w[2], r.params(arg)))
	},
	"send": (*sessionRun).send,
	"await": func(r *sessionRun, line string) {
		w, _ := r.fields(line, 3)
		r.recordAnswer(w[1], r.e.Await(w[2]))
	},
	"notify": func(r *sessionRun, line string) {
		w, arg := r.fields(line, 2)
		r.e.Notify(w[1], r.params(arg))
	},
	"open": (*sessionRun).open,
	"raw": func(r *sessionRun, line string) {
		_, text := r.fields(line, 1)
		r.e.WriteBody([]byte(r.expand(text)))
	},
	"mark":  func(r *sessionRun, _ string) { r.mark = r.e.Mark() },
	"wait":  (*sessionRun).wait,
	"write": (*sessionRun).write,
	"close": func(r *sessionRun, _ string) { r.e.CloseInput() },
	"exit": func(r *sessionRun, line string) {
		w, _ := r.fields(line, 2)
		r.record(w[1], "exit code "+strconv.Itoa(r.e.ExitCode())+"\n")
	},
	"forbid": func(r *sessionRun, line string) {
		_, text := r.fields(line, 1)
		r.forbidden = append(r.forbidden, text)
	},
}

// initialize runs `initialize [{extra params}]`: the handshake with the
// session's root as the workspace.
func (r *sessionRun) initialize(line string) {
	_, arg := r.fields(line, 1)
	params := map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{},
		"rootUri": r.rootURI, "workspaceFolders": []any{map[string]any{"uri": r.rootURI, "name": filepath.Base(r.root)}}}
	if extra, ok := r.params(arg).(map[string]any); ok {
		for k, v := range extra {
			params[k] = v
		}
	} else if arg != "" {
		r.fatalf("initialize takes a JSON object")
	}
	r.e.Result("initialize", params, nil)
	r.e.Notify("initialized", map[string]any{})
}

// send runs `send ID METHOD [params]`: a request with a chosen id, not
// awaited.
func (r *sessionRun) send(line string) {
	w, arg := r.fields(line, 3)
	var id any
	if err := json.Unmarshal([]byte(w[1]), &id); err != nil {
		r.fatalf("bad id %s: %v", w[1], err)
	}
	r.e.Send(id, w[2], r.params(arg))
}

// open runs `open PATH LANGUAGE`: didOpen with the file's text.
func (r *sessionRun) open(line string) {
	w, _ := r.fields(line, 3)
	path := filepath.Join(r.root, filepath.FromSlash(w[1]))
	data, err := os.ReadFile(path)
	if err != nil {
		r.fatalf("open: %v", err)
	}
	r.e.Open(path, w[2], string(data))
}

// wait runs `wait METHOD [NAME] [{pattern}]`: the next notification of
// METHOD after the mark whose params hold the pattern, recorded as NAME.
func (r *sessionRun) wait(line string) {
	w, rest := r.fields(line, 2)
	name, want := "", rest
	if rest != "" && !strings.HasPrefix(rest, "{") {
		name, want, _ = strings.Cut(rest, " ")
		want = strings.TrimSpace(want)
	}
	var match func(json.RawMessage) bool
	if want != "" {
		pattern := r.params(want)
		match = func(params json.RawMessage) bool {
			var got any
			return json.Unmarshal(params, &got) == nil && holds(got, pattern)
		}
	}
	m, next := r.e.WaitNote(r.mark, w[1], match)
	r.mark = next
	if name != "" {
		r.record(name, r.canonical(m.Params))
	}
}

// write runs `write PATH SECTION`: the archive's section written to the
// workspace.
func (r *sessionRun) write(line string) {
	w, _ := r.fields(line, 3)
	data, ok := r.c.Section(w[2])
	if !ok {
		r.fatalf("write: no section %s", w[2])
	}
	writeFile(r.t, filepath.Join(r.root, filepath.FromSlash(w[1])), data)
}

// holds reports whether got has every field of pattern with the same
// value, recursively through objects (arrays and scalars compare whole).
func holds(got, pattern any) bool {
	p, ok := pattern.(map[string]any)
	if !ok {
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(pattern)
		return bytes.Equal(a, b)
	}
	g, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range p {
		if gv, ok := g[k]; !ok || !holds(gv, v) {
			return false
		}
	}
	return true
}

// checkForbidden fails the session if an answer or a message from the
// server contains a forbidden text.
func (r *sessionRun) checkForbidden() {
	r.t.Helper()
	if len(r.forbidden) == 0 {
		return
	}
	var all []string
	for _, n := range r.e.Notes() {
		all = append(all, string(n.Params))
	}
	r.e.mu.Lock()
	for _, ms := range r.e.responses {
		for _, m := range ms {
			raw, _ := json.Marshal(m)
			all = append(all, string(raw))
		}
	}
	r.e.mu.Unlock()
	for _, f := range r.forbidden {
		for _, s := range all {
			if strings.Contains(s, f) {
				r.t.Errorf("%s: the server sent %q: %.300s", r.c.Path, f, s)
				break
			}
		}
	}
}

// tempDir is a fresh directory with symlinks resolved.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeFile writes data to path, creating its directory.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// CopyDir copies the regular files and directories of src into dst (a
// test workspace made from a fixture tree).
func CopyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}
