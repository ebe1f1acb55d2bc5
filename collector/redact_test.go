package collector

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// Fake credentials in the providers' formats, built at run time so that no
// scanner mistakes this file for a leak.
var (
	fakeOpenAI    = "sk-" + "proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	fakeOpenAIOld = "sk-" + "T3BlbkFJ4x9Qm2Lp7Vz8Kd1Rw6Ys3Hc0Nf"
	fakeAnthropic = "sk-" + "ant-api03-" + "q8Zr2Lm5Vx7Nc1Bk4Hd9Tf3Wg6Yp0Js-AbCdEf"
	fakeAWS       = "AKIA" + "Q3ZR7XK2M4PL8NB5"
	fakeGitHub    = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeGitHubPAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
	fakeSlack     = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	fakeGoogle    = "AIza" + "SyD3x8Lq2Vm7Nc4Bk9Hd1Tf6Wg0Yp5Js3Rz"
	fakeStripe    = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
	fakeJWT       = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + "zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakeGitLab    = "glpat-" + "x9Y8z7W6v5U4t3S2r1Q0"
	fakeNPM       = "npm_" + "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8"
	fakeHF        = "hf_" + "aB3cD5eF7gH9iJ1kL3mN5oP7qR9sT1uV3wX"
	fakeSecret    = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY3k9Qz2"
	fakeHex       = "9e107d9d372bb6826bd81d3542a419d6"
	pemBegin      = "-----BEGIN " + "RSA PRIVATE KEY-----"
	pemEnd        = "-----END " + "RSA PRIVATE KEY-----"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string
		count int
	}{
		// Provider formats, anywhere in a line.
		{"openai project key", "OPENAI_API_KEY=" + fakeOpenAI, "OPENAI_API_KEY=[REDACTED]", 1},
		{"openai legacy key in prose", "use " + fakeOpenAIOld + " here", "use [REDACTED] here", 1},
		{"anthropic key", `client = Anthropic(api_key="` + fakeAnthropic + `")`, `client = Anthropic(api_key="[REDACTED]")`, 1},
		{"aws access key id", "aws_access_key_id = " + fakeAWS, "aws_access_key_id = [REDACTED]", 1},
		{"github token", "git clone https://x:" + fakeGitHub + "@github.com/o/r", "git clone https://x:[REDACTED]@github.com/o/r", 1},
		{"github fine-grained token", "token: " + fakeGitHubPAT, "token: [REDACTED]", 1},
		{"gitlab token", "PRIVATE-TOKEN " + fakeGitLab, "PRIVATE-TOKEN [REDACTED]", 1},
		{"slack token", `slack.New("` + fakeSlack + `")`, `slack.New("[REDACTED]")`, 1},
		{"slack webhook", "url: https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX", "url: https://[REDACTED]", 1},
		{"google api key", "key=" + fakeGoogle + "&q=1", "key=[REDACTED]&q=1", 1},
		{"stripe live key", "stripe.Key = \"" + fakeStripe + "\"", "stripe.Key = \"[REDACTED]\"", 1},
		{"npm token", "//registry.npmjs.org/:_authToken=" + fakeNPM, "//registry.npmjs.org/:_authToken=[REDACTED]", 1},
		{"hugging face token", "HF " + fakeHF, "HF [REDACTED]", 1},
		{"jwt", "Cookie: session=" + fakeJWT, "Cookie: session=[REDACTED]", 1},
		{"two keys on one line", fakeAWS + " " + fakeGitHub, "[REDACTED] [REDACTED]", 2},
		{"bearer header", `curl -H "Authorization: Bearer abc123DEF456ghi789JKL0"`, `curl -H "Authorization: Bearer [REDACTED]"`, 1},
		{"basic auth header", "Authorization: Basic dXNlcjpwYXNzd29yZDEyMzQ1Njc4OQ==", "Authorization: Basic [REDACTED]", 1},
		{"password in url", "DATABASE_URL=postgres://app:s3cr3t@db:5432/app", "DATABASE_URL=postgres://app:[REDACTED]@db:5432/app", 1},

		// High-entropy values assigned to secret-looking names.
		{"env style key", "STRIPE_SECRET_KEY=" + fakeSecret, "STRIPE_SECRET_KEY=[REDACTED]", 1},
		{"export token", "export GITHUB_TOKEN=" + fakeHex, "export GITHUB_TOKEN=[REDACTED]", 1},
		{"yaml secret", "  client_secret: \"" + fakeSecret + "\"", "  client_secret: \"[REDACTED]\"", 1},
		{"json apiKey", `  "apiKey": "` + fakeHex + `",`, `  "apiKey": "[REDACTED]",`, 1},
		{"go struct field", `	Token: "` + fakeSecret + `",`, `	Token: "[REDACTED]",`, 1},
		{"python password", `password = 'CorrectHorseBattery9Staple'`, `password = '[REDACTED]'`, 1},
		{"password of lower-case words", `DB_PASSWORD="my-super-secret-password"`, `DB_PASSWORD="[REDACTED]"`, 1},
		{"properties dotted name", "spring.datasource.password=Xy7!kP2#vQ9@mL4$wR", "spring.datasource.password=[REDACTED]", 1},
		{"js arrow-free object", `const cfg = { secret: '` + fakeHex + `' }`, `const cfg = { secret: '[REDACTED]' }`, 1},
		{"go short assignment literal", `apiKey := "` + fakeSecret + `"`, `apiKey := "[REDACTED]"`, 1},
		{"two assignments", `KEY=` + fakeHex + ` TOKEN=` + fakeSecret, `KEY=[REDACTED] TOKEN=[REDACTED]`, 2},
		{"crlf kept", "API_KEY=" + fakeHex + "\r\nx=1\r\n", "API_KEY=[REDACTED]\r\nx=1\r\n", 1},

		// Private key blocks.
		{"pem block", "a\n" + pemBegin + "\nMIIEowIBAAKCAQEAx8f0Sd9aP2mQ\nZ9b0c1d2e3f4g5h6==\n" + pemEnd + "\nb",
			"a\n" + pemBegin + "\n[REDACTED]\n\n" + pemEnd + "\nb", 1},
		{"pem block in one escaped line", `"private_key": "` + pemBegin + `\nMIIEowIBAAKCAQEAx8f0\nSd9aP2mQ==\n` + pemEnd + `\n",`,
			`"private_key": "` + pemBegin + `[REDACTED]` + pemEnd + `\n",`, 1},
		{"pem block as go concatenation", "const k = \"" + pemBegin + "\\n\" +\n\t\"MIIEowIBAAKCAQEAx8f0Sd9aP2mQ\\n\" +\n\t\"Z9b0c1d2e3f4g5h6==\\n\" +\n\t\"" + pemEnd + "\\n\"",
			"const k = \"" + pemBegin + "\\n\" +\n\t\"[REDACTED]\\n\" +\n\t\"\\n\" +\n\t\"" + pemEnd + "\\n\"", 1},
		{"pem block with headers", pemBegin + "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123\n\nMIIEowIBAAKCAQEAx8f0\n" + pemEnd,
			pemBegin + "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123\n\n[REDACTED]\n" + pemEnd, 1},
		{"begin marker without a body stays", "// look for " + pemBegin + " in the input\nreturn nil",
			"// look for " + pemBegin + " in the input\nreturn nil", 0},

		// False positives that must stay.
		{"go identifier tokenCount", "tokenCount := 3", "tokenCount := 3", 0},
		{"form value", `password := r.FormValue("password")`, `password := r.FormValue("password")`, 0},
		{"env lookup", `SecretKey: os.Getenv("SECRET_KEY"),`, `SecretKey: os.Getenv("SECRET_KEY"),`, 0},
		{"selector expression", "password: process.env.DB_PASSWORD,", "password: process.env.DB_PASSWORD,", 0},
		{"call with long name", "token := auth.GenerateAccessToken2(user)", "token := auth.GenerateAccessToken2(user)", 0},
		{"comparison", `if token == "` + "abcdefghij" + `" {`, `if token == "abcdefghij" {`, 0},
		{"placeholder env", "API_KEY=${OPENAI_API_KEY_FROM_VAULT}", "API_KEY=${OPENAI_API_KEY_FROM_VAULT}", 0},
		{"placeholder template", `token: "{{ .Values.github.token }}"`, `token: "{{ .Values.github.token }}"`, 0},
		{"placeholder words", `API_KEY="your-api-key-goes-here"`, `API_KEY="your-api-key-goes-here"`, 0},
		{"placeholder upper case", "SECRET_KEY=REPLACE_ME_WITH_A_REAL_SECRET", "SECRET_KEY=REPLACE_ME_WITH_A_REAL_SECRET", 0},
		{"i18n key", `"key": "dashboard.header.title",`, `"key": "dashboard.header.title",`, 0},
		{"short password", `password = "hunter2"`, `password = "hunter2"`, 0},
		{"prose with spaces", `"password": "Please enter your password",`, `"password": "Please enter your password",`, 0},
		{"path value", "PWD=/home/user/projects/acode-lsp2", "PWD=/home/user/projects/acode-lsp2", 0},
		{"monkey is not a key", "monkey = Gorilla9Gorilla9Gorilla9", "monkey = Gorilla9Gorilla9Gorilla9", 0},
		{"tokenizer name", `encoding: "o200k_base_encoding"`, `encoding: "o200k_base_encoding"`, 0},
		{"css class with sk- prefix", `<div class="sk-spinner-rotating-plane-animation">`, `<div class="sk-spinner-rotating-plane-animation">`, 0},
		{"task- is not sk-", "task-0123456789abcdefghijkl", "task-0123456789abcdefghijkl", 0},
		{"url without password", "see https://user@example.com/x", "see https://user@example.com/x", 0},
		{"bearer word in prose", "Bearer authentication-is-described-here", "Bearer authentication-is-described-here", 0},
		{"already redacted", "API_KEY=[REDACTED] pw://a:[REDACTED]@h", "API_KEY=[REDACTED] pw://a:[REDACTED]@h", 0},
		{"empty", "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Redact text mismatch (-want +got):\n%s", diff)
			}
			if n != tt.count {
				t.Errorf("Redact count = %d, want %d", n, tt.count)
			}
			if strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("Redact changed the line count")
			}
			again, n2 := Redact(got)
			if again != got || n2 != 0 {
				t.Errorf("Redact is not idempotent: second pass redacted %d more: %q", n2, again)
			}
		})
	}
}

func TestNameKind(t *testing.T) {
	tests := []struct {
		name string
		want nameClass
	}{
		{"API_KEY", secretName}, {"apiKey", secretName}, {"APIKey", secretName},
		{"apikey", secretName}, {"client-secret", secretName}, {"GITHUB_TOKEN", secretName},
		{"accesstoken", secretName}, {"aws_secret_access_key", secretName},
		{"password", passwordName}, {"DB_PASS", passwordName}, {"userPwd", passwordName},
		{"dbpassword", passwordName}, {"passwd", passwordName},
		{"tokenCount", notSecret}, {"secretsManager", notSecret}, {"monkey", notSecret},
		{"passwordHash", notSecret}, {"keyboard", notSecret}, {"", notSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nameKind(tt.name); got != tt.want {
				t.Errorf("nameKind(%q) = %d, want %d", tt.name, got, tt.want)
			}
		})
	}
}

// FuzzRedact checks the invariants of Redact on any input: the line count is
// kept, no known key format survives, a second pass finds nothing, and a key
// planted in the input is gone from the output.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"", "x=1", "API_KEY=" + fakeHex, fakeAWS + fakeAWS, "sk-" + fakeOpenAI,
		pemBegin + "\nMIIE\n" + pemEnd, "a\r\nb\n", "eyJ" + fakeJWT, "token: '" + fakeSecret,
		"https://u:p@h https://u:[REDACTED]@h", "\xff\xfe" + fakeGitHub,
	} {
		f.Add(s, uint8(0))
	}
	keys := []string{fakeOpenAI, fakeAnthropic, fakeAWS, fakeGitHub, fakeGitHubPAT, fakeSlack, fakeGoogle, fakeStripe, fakeJWT, fakeGitLab, fakeNPM, fakeHF}
	f.Fuzz(func(t *testing.T, in string, pick uint8) {
		key := keys[int(pick)%len(keys)]
		planted := in + " " + key + " " + in
		for _, text := range []string{in, planted} {
			out, n := Redact(text)
			if strings.Count(out, "\n") != strings.Count(text, "\n") {
				t.Fatalf("line count changed: %q -> %q", text, out)
			}
			for i := range rules {
				if sp := ruleSpans(out, []*rule{&rules[i]}); len(sp) > 0 {
					t.Fatalf("%s survived: %q in %q", rules[i].id, out[sp[0].start:sp[0].end], out)
				}
			}
			if n == 0 && out != text {
				t.Fatalf("text changed without a redaction")
			}
			if again, n2 := Redact(out); n2 != 0 || again != out {
				t.Fatalf("second pass redacted %d more: %q -> %q", n2, out, again)
			}
		}
		if out, _ := Redact(planted); strings.Contains(out, " "+key+" ") {
			t.Fatalf("planted key survived: %q", out)
		}
	})
}

func BenchmarkRedact(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		sb.WriteString("func handler(w http.ResponseWriter, r *http.Request) { tokenCount := len(r.URL.Path) }\n")
		if i%100 == 0 {
			sb.WriteString("const apiKey = \"" + fakeHex + "\"\n")
		}
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}

func TestRedactCached(t *testing.T) {
	clean := strings.Repeat("func f() int { return 1 }\n", 400)
	if out, n := redactCached(clean); out != clean || n != 0 {
		t.Fatalf("clean text changed: %d", n)
	}
	if out, n := redactCached(clean); out != clean || n != 0 {
		t.Fatalf("clean text changed on the second read: %d", n)
	}
	dirty := clean + "const apiKey = \"sk-proj-Zq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt\"\n"
	for i := 0; i < 2; i++ {
		if out, n := redactCached(dirty); n != 1 || strings.Contains(out, "sk-proj-") {
			t.Fatalf("read %d: a secret survived (n=%d)", i, n)
		}
	}
}

// TestRedactCachedMemo: a text holding a secret, read again unchanged,
// is rebuilt from the lines Redact replaced, and equals Redact's text and
// count, for every text of the secret corpus (behind a clean 4 KiB head,
// so that the memo applies) and with the secret on the first and the last
// line, with and without a final newline.
func TestRedactCachedMemo(t *testing.T) {
	head := strings.Repeat("func f() int { return 1 }\n", 160)
	var texts []string
	for _, c := range secreteval.Corpus(42) {
		texts = append(texts, head+c.Text, head+c.Text+"\n", c.Text+"\n"+head, head+c.Text+"\n"+head)
	}
	remembered := 0
	for i, text := range texts {
		want, wantN := Redact(text)
		for read := 0; read < 2; read++ {
			got, n := redactCached(text)
			if got != want || n != wantN {
				t.Fatalf("text %d, read %d: redactCached differs from Redact (%d, %d values)\n%.600s", i, read, n, wantN, text)
			}
		}
		if _, ok := redactedTexts.Peek(sha256.Sum256([]byte(text))); ok {
			remembered++
		}
	}
	if remembered < len(texts)/4 {
		t.Errorf("%d of %d texts remembered; the memo is not in use", remembered, len(texts))
	}
}
