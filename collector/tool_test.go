package collector

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestNewToolResult(t *testing.T) {
	tests := []struct {
		name, label, content string
		want                 Source
	}{
		{
			name: "plain", label: "go test ./cart", content: "--- FAIL: TestCheckout\n",
			want: Source{Type: ToolResult, Label: "go test ./cart", Content: "--- FAIL: TestCheckout\n"},
		},
		{
			name: "invalid UTF-8 repaired", label: "cat", content: "caf\xe9\n",
			want: Source{Type: ToolResult, Label: "cat", Content: "caf\uFFFD\n"},
		},
		{
			name: "colours and control bytes dropped", label: "make\x1b[1m", content: "\x1b[31mFAIL\x1b[0m\tx\x00\x07\r\n\x1b]0;title\x07ok\n",
			want: Source{Type: ToolResult, Label: "make", Content: "FAIL\tx\r\nok\n"},
		},
		{
			name: "secrets redacted in content and label", label: "curl -H 'Authorization: Bearer abc123DEF456ghi789JKL0'",
			content: "export OPENAI_API_KEY=" + fakeOpenAI + "\nok\n",
			want: Source{
				Type: ToolResult, Label: "curl -H 'Authorization: Bearer [REDACTED]'",
				Content: "export OPENAI_API_KEY=[REDACTED]\nok\n", Redactions: 2,
			},
		},
		{
			name: "label on one line", label: "go test\n./cart  -run\tX", content: "x",
			want: Source{Type: ToolResult, Label: "go test ./cart -run X", Content: "x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, NewToolResult(tt.label, tt.content)); diff != "" {
				t.Errorf("NewToolResult mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseReference(t *testing.T) {
	type ref struct {
		Path       string
		Start, End int
	}
	tests := []struct {
		arg     string
		want    ref
		wantErr bool
	}{
		{arg: "cart/service.go", want: ref{"cart/service.go", 0, 0}},
		{arg: "cart/service.go:10-41", want: ref{"cart/service.go", 10, 41}},
		{arg: "cart/service.go:7", want: ref{"cart/service.go", 7, 7}},
		{arg: "/abs/x.go:3-3", want: ref{"/abs/x.go", 3, 3}},
		{arg: `C:\ws\x.go:1-2`, want: ref{`C:\ws\x.go`, 1, 2}},
		{arg: "notes:v2.md", want: ref{"notes:v2.md", 0, 0}},
		{arg: "a:b:5", want: ref{"a:b", 5, 5}},
		{arg: "", wantErr: true},
		{arg: ":5", wantErr: true},
		{arg: "x.go:0", wantErr: true},
		{arg: "x.go:9-3", wantErr: true},
		{arg: "x.go:5-", wantErr: true},
		{arg: "x.go:-5", wantErr: true},
		{arg: "x.go:1-2-3", wantErr: true},
		{arg: "x.go:99999999999999999999", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			p, s, e, err := ParseReference(tt.arg)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseReference(%q) error = %v, wantErr %v", tt.arg, err, tt.wantErr)
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "collector: ") {
					t.Errorf("error %q lacks the package prefix", err)
				}
				return
			}
			if diff := cmp.Diff(tt.want, ref{p, s, e}); diff != "" {
				t.Errorf("ParseReference(%q) (-want +got):\n%s", tt.arg, diff)
			}
		})
	}
}

// FuzzParseReference checks that a parsed reference is a non-empty path with
// either no range or a valid 1-based range, and that formatting it back
// parses to the same result.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{"a.go", "a.go:1-2", "a.go:3", ":", "a:b:c", "x:-", "x:1-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		p, s, e, err := ParseReference(arg)
		if err != nil {
			return
		}
		if p == "" {
			t.Fatalf("empty path from %q", arg)
		}
		if !(s == 0 && e == 0) && !(1 <= s && s <= e) {
			t.Fatalf("bad range %d-%d from %q", s, e, arg)
		}
		if s == 0 {
			if p != arg {
				t.Fatalf("no range but path %q != %q", p, arg)
			}
			return
		}
		p2, s2, e2, err := ParseReference(p + ":" + itoa(s) + "-" + itoa(e))
		if err != nil || p2 != p || s2 != s || e2 != e {
			t.Fatalf("round trip of %q: %q %d %d %v", arg, p2, s2, e2, err)
		}
	})
}

func itoa(n int) string {
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestEscapePath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"src/main.go", "src/main.go"},
		{`C:\ws\main.go`, `C:\ws\main.go`},
		{"héllo/wörld.go", "héllo/wörld.go"},
		{"evil\nINFO fake entry", `evil\nINFO fake entry`},
		{"a\rb\tc", `a\rb\tc`},
		{"bell\x07esc\x1b[31m", `bell\x07esc\x1b[31m`},
		{"del\x7f", `del\x7f`},
		{"c1\u0085x", `c1\u0085x`},
		{"rtl\u202egnp.exe", `rtl\u202egnp.exe`},
		{"zw\u200bsp", `zw\u200bsp`},
		{"bad\xffutf8", `bad\xffutf8`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := EscapePath(tt.in); got != tt.want {
				t.Errorf("EscapePath(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzEscapePath checks that escaped output is valid UTF-8 without control
// or invisible characters, and that clean input is returned unchanged.
func FuzzEscapePath(f *testing.F) {
	for _, s := range []string{"a/b.go", "x\ny", "\xff", "\u202e", "\x1b[0m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := EscapePath(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || isInvisible(r) {
				t.Fatalf("%U left in %q", r, out)
			}
		}
		if !needsEscape(s) && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
	})
}

func TestIsSecretPath(t *testing.T) {
	tests := []struct {
		path   string
		secret bool
	}{
		{".env", true}, {".env.local", true}, {"deploy/.env.production", true}, {".ENV", true}, {".envrc", true},
		{".env.example", false}, {".env.sample", false}, {".env.template", false}, {".env.dist", false},
		{"server.pem", true}, {"tls/server.key", true}, {"cert.p12", true}, {"cert.pfx", true},
		{"release.keystore", true}, {"app.jks", true}, {"putty.ppk", true},
		{"id_rsa", true}, {"home/.ssh/id_ed25519", true}, {"id_ecdsa.pub", true}, {"id_dsa", true},
		{".npmrc", true}, {".pypirc", true}, {".netrc", true}, {".git-credentials", true}, {".pgpass", true},
		{"credentials.json", true}, {"gcp-credentials.json", true}, {".aws/credentials", true},
		{"aws_credentials", true}, {"credentials.yaml", true},
		{".docker/config.json", true}, {".kube/config", true},
		{"secrets.yaml", true}, {"secrets.yml", true}, {"config/secrets.json", true},
		{"terraform.tfstate", true}, {"terraform.tfstate.backup", true},
		// Ordinary files that only look related.
		{"credentials.go", false}, {"auth/credentials_test.go", false}, {"CredentialsProvider.java", false},
		{"secrets.go", false}, {"docker/config.json", false}, {"config.json", false}, {"environment.ts", false},
		{"keys.go", false}, {"keyboard.c", false}, {"README.md", false}, {"env.go", false},
		{"monkey.key.go", false}, {"envoy.yaml", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, why := IsSecretPath(tt.path)
			if got != tt.secret {
				t.Errorf("IsSecretPath(%q) = %v (%s), want %v", tt.path, got, why, tt.secret)
			}
			if got && why == "" {
				t.Errorf("IsSecretPath(%q) gave no reason", tt.path)
			}
		})
	}
}

func TestNewContentCleansLikeAToolResult(t *testing.T) {
	raw := "\x1b[31mfunc F() {}\x1b[0m\x00\nkey := \"sk-proj-" + strings.Repeat("a1B2", 12) + "\"\n\xff"
	label := "checkout\n  snippet\x07"
	got := NewContent(Reference, label, raw)
	want := NewToolResult(label, raw)
	if got.Type != Reference || got.Content != want.Content || got.Label != want.Label || got.Redactions != want.Redactions {
		t.Errorf("NewContent = %+v, want the content, label and redactions of NewToolResult %+v", got, want)
	}
	if strings.ContainsAny(got.Content, "\x1b\x00") || !strings.Contains(got.Content, "\uFFFD") || got.Label != "checkout snippet" {
		t.Errorf("not cleaned: %q, label %q", got.Content, got.Label)
	}
	if got.Redactions == 0 || strings.Contains(got.Content, "sk-proj-") && !strings.Contains(got.Content, "[REDACTED]") {
		t.Errorf("secret not redacted: %q", got.Content)
	}
}
