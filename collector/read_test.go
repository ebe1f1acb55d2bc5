package collector

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	entries := []fx{
		file("a.go", "package a\n"), file("sub/b.go", "package b\n"), file(".env", "A=1\n"),
		link("ln.go", "sub/b.go"), link("out.txt", "../outside/secret.txt"), link("dangling.go", "gone.go"),
		fifo("pipe"), file("img.bin", "\x00\x01"), file("l1.txt", "\xff\n"), file("e.txt", ""),
		file("huge.txt", strings.Repeat("y", 200)), file(".gitignore", "tmp/\n"), file("tmp/t.go", "x"),
		link(".env.link", "a.go"), file(".git/config", "[core]\n"),
	}
	type result struct {
		Path, AbsPath, Content string
		Reason                 Reason
	}
	tests := []struct {
		name, path string
		want       result
	}{
		{"relative", "a.go", result{Path: "a.go", AbsPath: "ROOT/a.go", Content: "package a\n"}},
		{"absolute", "ROOT/sub/b.go", result{Path: "sub/b.go", AbsPath: "ROOT/sub/b.go", Content: "package b\n"}},
		{"symlink inside resolves to its target", "ln.go", result{Path: "sub/b.go", AbsPath: "ROOT/sub/b.go", Content: "package b\n"}},
		{"dot segments", "sub/../a.go", result{Path: "a.go", AbsPath: "ROOT/a.go", Content: "package a\n"}},
		{"outside by ..", "../outside/secret.txt", result{Path: "TMP/outside/secret.txt", Reason: ReasonOutside}},
		{"outside absolute", "/etc/hostname", result{Path: "/etc/hostname", Reason: ReasonOutside}},
		{"outside by symlink", "out.txt", result{Path: "out.txt", Reason: ReasonOutside}},
		{"secret", ".env", result{Path: ".env", Reason: ReasonSecret}},
		{"secret by link name", ".env.link", result{Path: "a.go", Reason: ReasonSecret}},
		{"ignored directory", "tmp/t.go", result{Path: "tmp/t.go", Reason: ReasonIgnored}},
		{"inside .git", ".git/config", result{Path: ".git/config", Reason: ReasonIgnored}},
		{"missing", "nope.go", result{Path: "nope.go", Reason: ReasonUnreadable}},
		{"dangling symlink", "dangling.go", result{Path: "dangling.go", Reason: ReasonUnreadable}},
		{"named pipe is never opened", "pipe", result{Path: "pipe", Reason: ReasonUnreadable}},
		{"directory", "sub", result{Path: "sub", Reason: ReasonUnreadable}},
		{"binary", "img.bin", result{Path: "img.bin", Reason: ReasonBinary}},
		{"invalid UTF-8", "l1.txt", result{Path: "l1.txt", Reason: ReasonInvalidUTF8}},
		{"empty", "e.txt", result{Path: "e.txt", Reason: ReasonEmpty}},
		{"too large", "huge.txt", result{Path: "huge.txt", Reason: ReasonTooLarge}},
	}
	w, root := newWorkspace(t, Options{MaxFileSize: 100}, entries...)
	fill := func(s string) string {
		s = strings.Replace(s, "ROOT", root, 1)
		return strings.Replace(s, "TMP", filepath.Dir(root), 1)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, excl := w.Read(context.Background(), Reference, fill(tt.path))
			want := tt.want
			want.Path, want.AbsPath = fill(want.Path), fill(want.AbsPath)
			got := result{Path: src.Path, AbsPath: src.AbsPath, Content: src.Content}
			if excl != nil {
				got = result{Path: excl.Path, Reason: excl.Reason}
				if excl.Type != Reference {
					t.Errorf("exclusion type = %q, want reference", excl.Type)
				}
			} else if src.Type != Reference {
				t.Errorf("source type = %q, want reference", src.Type)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Read(%q) mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestReadOverlay(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "ws")
	build(t, tmp, file("ws/a.go", "disk\n"), link("alias", "ws"), file("ws/big.go", "x\n"))
	ov := fakeOverlay{
		filepath.Join(root, "a.go"):      "editor\ntoken := \"" + fakeSecret + "\"\n",
		filepath.Join(root, "new.go"):    "unsaved\n",
		filepath.Join(tmp, "alias/b.go"): "via alias\n",
		filepath.Join(root, "big.go"):    strings.Repeat("z", 80),
		filepath.Join(root, "blank.go"):  "  \n",
	}
	w, err := New(Options{Roots: []string{root}, Overlay: ov, MaxFileSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, content string
		redactions    int
		reason        Reason
	}{
		{path: "a.go", content: "editor\ntoken := \"[REDACTED]\"\n", redactions: 1},
		{path: "new.go", content: "unsaved\n"},
		{path: filepath.Join(tmp, "alias/b.go"), content: "via alias\n"},
		{path: "big.go", reason: ReasonTooLarge},
		{path: "blank.go", reason: ReasonEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			src, excl := w.Read(context.Background(), OpenFile, tt.path)
			if tt.reason != "" {
				if excl == nil || excl.Reason != tt.reason {
					t.Fatalf("Read(%q) = %+v, want reason %s", tt.path, excl, tt.reason)
				}
				return
			}
			if excl != nil {
				t.Fatalf("Read(%q) excluded: %+v", tt.path, excl)
			}
			if diff := cmp.Diff(tt.content, src.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if src.Redactions != tt.redactions {
				t.Errorf("redactions = %d, want %d", src.Redactions, tt.redactions)
			}
			if !src.Timestamp.Equal(overlayTime) {
				t.Errorf("timestamp = %v, want the overlay's", src.Timestamp)
			}
		})
	}
}

// TestReadReplacedFile covers a file that changes between being measured
// and being read: it is refused rather than read unchecked.
func TestReadReplacedFile(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "f.txt")
	build(t, tmp, file("f.txt", "first\n"))
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if _, err := readRegular(context.Background(), p, info, 100); err == nil {
		t.Errorf("readRegular of a removed file succeeded")
	}
	build(t, tmp, file("f.txt", "second\n"))
	if _, err := readRegular(context.Background(), p, info, 100); !errors.Is(err, errChanged) {
		t.Errorf("readRegular of a replaced file = %v, want errChanged", err)
	}
	info2, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("g", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRegular(context.Background(), p, info2, 100); err == nil {
		t.Errorf("readRegular of a file that grew past the cap succeeded")
	}
}

func TestCheckContent(t *testing.T) {
	tests := []struct {
		name   string
		data   string
		reason Reason
		text   string
	}{
		{"text", "hello\n", "", "hello\n"},
		{"bom stripped", "\ufeffhello\n", "", "hello\n"},
		{"tabs and escape codes are text", "\x1b[31mred\x1b[0m\tx\f\n", "", "\x1b[31mred\x1b[0m\tx\f\n"},
		{"empty", "", ReasonEmpty, ""},
		{"white space", "\r\n \t", ReasonEmpty, ""},
		{"nul", "abc\x00def", ReasonBinary, ""},
		{"control bytes", strings.Repeat("\x01a", 20), ReasonBinary, ""},
		{"mostly not UTF-8", strings.Repeat("\xfe\xfd\xfca", 20), ReasonBinary, ""},
		{"some latin-1", "na\xefve caf\xe9 text with a few accents\n", ReasonInvalidUTF8, ""},
		{"private key", "\n  " + pemBegin + "\nMIIE\n", ReasonSecret, ""},
		{"certificate is not a secret", "-----BEGIN CERTIFICATE-----\nMIIB\n", "", "-----BEGIN CERTIFICATE-----\nMIIB\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, reason, detail := checkContent([]byte(tt.data))
			if reason != tt.reason || text != tt.text {
				t.Errorf("checkContent = (%q, %q, %q), want (%q, %q)", text, reason, detail, tt.text, tt.reason)
			}
			if reason != "" && detail == "" {
				t.Errorf("no detail for %s", reason)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tmp := t.TempDir()
	build(t, tmp, file("f.txt", "x"), dir("d"))
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"no roots", Options{}, "collector: no workspace root"},
		{"missing root", Options{Roots: []string{filepath.Join(tmp, "nope")}}, "no such file"},
		{"root is a file", Options{Roots: []string{filepath.Join(tmp, "f.txt")}}, "is not a directory"},
		{"negative cap", Options{Roots: []string{tmp}, MaxFileSize: -1}, "MaxFileSize -1 is negative"},
		{"bad exclude", Options{Roots: []string{tmp}, Exclude: []string{"ok/*", `bad\`}}, `context.exclude pattern "bad\\" is not a valid glob`},
		{"fine", Options{Roots: []string{tmp, filepath.Join(tmp, "d")}, Exclude: []string{"**/x"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("New: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("New error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestRel(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	build(t, tmp, file("ws/a/b.go", "x"), file("lib/c.go", "x"), link("wslink", "ws"), file("out/o.go", "x"))
	w, err := New(Options{Roots: []string{filepath.Join(tmp, "wslink"), filepath.Join(tmp, "lib")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		abs    string
		rel    string
		inside bool
	}{
		{"ws/a/b.go", "a/b.go", true},
		{"wslink/a/b.go", "a/b.go", true},
		{"ws", ".", true},
		{"ws/a/new.go", "a/new.go", true},
		{"lib/c.go", "lib/c.go", true},
		{"out/o.go", "", false},
		{"ws/../out/o.go", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.abs, func(t *testing.T) {
			rel, inside := w.Rel(filepath.Join(tmp, tt.abs))
			if rel != tt.rel || inside != tt.inside {
				t.Errorf("Rel = (%q, %v), want (%q, %v)", rel, inside, tt.rel, tt.inside)
			}
		})
	}
}

func TestReadText(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("gen/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, text string
		reason     Reason // "" = let in
	}{
		{"new.go", "package x // not on disk yet\n", ""},
		{"gen/out.go", "package gen\n", ReasonIgnored},
		{".env.local", "A=1\n", ReasonSecret},
		{"../elsewhere.go", "package y\n", ReasonOutside},
		{"blank.go", "  \n", ReasonEmpty},
		{"bin.dat", "a\x00b", ReasonBinary},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			src, excl := w.ReadText(context.Background(), Reference, tt.path, tt.text)
			switch {
			case tt.reason == "" && excl != nil:
				t.Fatalf("excluded: %+v", excl)
			case tt.reason == "" && src.Content != tt.text:
				t.Errorf("content = %q", src.Content)
			case tt.reason != "" && (excl == nil || excl.Reason != tt.reason):
				t.Errorf("exclusion = %+v, want %s", excl, tt.reason)
			}
		})
	}
}

// TestScanRawIsReadRaw: ScanRaw hands its scan what ReadRaw returns for
// every listed file — large and small files in turn (the pooled buffer
// grows, then serves smaller files), a byte order mark, a binary and an
// empty file (an exclusion, and scan not called) — and the same
// exclusions.
func TestScanRawIsReadRaw(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"big1.txt": strings.Repeat("big one\n", 40000), "small.go": "package s\n", "big2.txt": strings.Repeat("second\n", 70000),
		"bom.txt": "\ufeffwith a mark\n", "tiny.txt": "x", "bin.dat": "\x00\x01\x02", "empty.txt": "",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w, err := New(Options{Roots: []string{dir}, MaxFileSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	refs, _, err := w.List(ctx, OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	scanned := 0
	for round := 0; round < 2; round++ {
		for _, f := range refs {
			want, wx := w.ReadRaw(ctx, OpenFile, f)
			var got []byte
			called := false
			x := w.ScanRaw(ctx, OpenFile, f, func(text []byte) {
				called = true
				got = append([]byte(nil), text...)
			})
			if string(got) != string(want) || (x == nil) != (wx == nil) || called != (wx == nil) {
				t.Fatalf("%s: ScanRaw gave %d bytes (called %v), %v; ReadRaw %d bytes, %v", f.Path, len(got), called, x, len(want), wx)
			}
			if x != nil && (x.Reason != wx.Reason || x.Detail != wx.Detail) {
				t.Errorf("%s: ScanRaw excludes %s (%s), ReadRaw %s (%s)", f.Path, x.Reason, x.Detail, wx.Reason, wx.Detail)
			}
			if called {
				scanned++
			}
		}
	}
	if scanned != 10 {
		t.Errorf("%d files scanned in two rounds, want 10 (5 text files)", scanned)
	}
}

// TestScanRawUnlistedRef: a ref a walk did not make (its fields set by
// hand, as a benchmark or another package may) is read through every rule,
// its name's too: only a walk's ref skips the checks the walk made.
func TestScanRawUnlistedRef(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".env", "id_rsa", "ok.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package ok\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w, err := New(Options{Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		secret bool
	}{{".env", true}, {"id_rsa", true}, {"ok.go", false}} {
		abs := filepath.Join(dir, c.name)
		fi, err := os.Lstat(abs)
		if err != nil {
			t.Fatal(err)
		}
		called := false
		x := w.ScanRaw(ctx, OpenFile, FileRef{Abs: abs, Path: c.name, Info: fi}, func([]byte) { called = true })
		if c.secret && (x == nil || x.Reason != ReasonSecret || called) {
			t.Errorf("%s: ScanRaw = %v (scanned %v), want a secret exclusion", c.name, x, called)
		}
		if !c.secret && (x != nil || !called) {
			t.Errorf("%s: ScanRaw = %v (scanned %v), want the text", c.name, x, called)
		}
	}
}
