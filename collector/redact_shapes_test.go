package collector

import (
	"strings"
	"testing"
)

// TestRedactIssue15 holds the shapes issue 15 found leaking and the false
// positives it found in Go's and npm's sources. Secret values are built at
// run time so that no scanner takes this file for a leak.
func TestRedactIssue15(t *testing.T) {
	hfTok := "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh" // letters only: no digit
	tok := "Zq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe"
	pw := "Winter!Blue7#ember"
	leaks := []struct{ name, in, secret string }{
		{"go typed var", `var apiToken string = "` + tok + `"`, tok},
		{"ts typed const", `const apiKey: string = "` + tok + `";`, tok},
		{"kotlin typed val", `val clientSecret: String = "` + tok + `"`, tok},
		{"kotlin nullable", `var apiKey: String? = "` + tok + `"`, tok},
		{"rust &str", `let api_key: &str = "` + tok + `";`, tok},
		{"python annotated", `    api_key: str = "` + tok + `"`, tok},
		{"php append", `$xToken .= "` + tok + `";`, tok},
		{"php variable", `$apiKey = '` + tok + `';`, tok},
		{"makefile ?=", `API_TOKEN ?= ` + tok, tok},
		{"makefile ::=", `API_TOKEN ::= ` + tok, tok},
		{"setProperty", `System.setProperty("X_TOKEN", "` + tok + `");`, tok},
		{"os.Setenv", `os.Setenv("SERVICE_API_KEY", "` + tok + `")`, tok},
		{"ruby ENV index", `ENV['API_TOKEN'] = '` + tok + `'`, tok},
		{"go []byte", `var signingKey = []byte("` + tok + `")`, tok},
		{"hugging face letters only", "HF " + hfTok, hfTok},
		{"redis without user", `REDIS_URL=redis://:` + tok + `@cache:6379/0`, tok},
		{"password with @ and /", `DATABASE_URL=mysql://root:ab@cd/ef` + "9Xz" + `@db.internal:3306/shop`, "ab@cd/ef9Xz"},
		{"slack app token", "xapp-" + "1-A0123456789-1234567890123-" + strings.Repeat("ab12", 16), "1234567890123-"},
		{"slack workflow webhook", "https://hooks.slack.com/workflows/" + "T01234567/A0123456789/123456789012345678/" + tok, tok},
		{"discord webhook", "https://discord.com/api/webhooks/" + "123456789012345678/" + tok + tok, tok},
		{"teams webhook", "https://acme.webhook.office.com/webhookb2/" + "1a2b3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f@1a2b3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f/IncomingWebhook/" + "0123456789abcdef0123456789abcdef/1a2b3c4d-1a2b-4c3d-8e9f-0a1b2c3d4e5f", "0123456789abcdef0123456789abcdef"},
		{"gitlab deploy token", "gldt-" + tok, tok},
		{"gitlab runner token", "glrt-" + tok, tok},
		{"azure sas sig", "https://acme.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=" + tok + "abcdEFGH1234%3D", tok},
		{"base64 jwt", "blob: " + "ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUl4TWpNME5UWTNPRGt3SW4wLlNmbEt4d1JKU01lS0tGMlFUNGZ3cE1lSmYzNlBPazZ5SlZfYWRRc3N3NWM=", "ZXlKaGJHY2lPaUpJVXpJMU5pSjk"},
		{"pem after # ", "# -----BEGIN " + "PRIVATE KEY-----\n# MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n# " + tok + "\n# -----END " + "PRIVATE KEY-----", tok},
		{"pem in yaml list", "- \"-----BEGIN " + "PRIVATE KEY-----\"\n- \"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\"\n- \"" + tok + "\"\n- \"-----END " + "PRIVATE KEY-----\"", tok},
		{"kubeconfig client-key-data", "    client-key-data: LS0tLS1CRUdJTi" + tok, tok},
		{"k8s env name/value", "        - name: DB_PASSWORD\n          value: " + pw, pw},
		{"k8s env flow", "env: [{name: API_TOKEN, value: " + tok + "}]", tok},
		{"netrc under another name", "machine api.example.com login ci password " + pw, pw},
		{"netrc multi-line", "machine git.example.com\n  login ci\n  password " + tok, tok},
		{"curl -u", "curl -u admin:" + pw + " https://x", pw},
		{"mysql -p", "mysqldump -u root -p" + tok + " shop", tok},
		{"authorization token", "Authorization: Token " + tok, tok},
		{"xml password element", "<password>" + pw + "</password>", pw},
		{"xml add key", `<add key="ApiKey" value="` + tok + `" />`, tok},
		{"age key", "AGE-SECRET-KEY-1" + strings.Repeat("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 2)[:58], "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"},
		{"putty key", "PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 2\n" + tok + tok + "\n" + tok + "\nPrivate-MAC: " + strings.Repeat("ab01", 16), tok},
		{"django key in env", "SECRET_KEY=k7&Qz(2w!Lp9#Rt4*Vb8^Nx3@Hm6%Jd1_Fs5", "k7&Qz(2w!Lp9#Rt4*Vb8^Nx3@Hm6%Jd1_Fs5"},
	}
	for _, tt := range leaks {
		t.Run("leak/"+tt.name, func(t *testing.T) {
			out, _ := Redact(tt.in)
			if strings.Contains(out, tt.secret) {
				t.Errorf("secret survived:\n%s", out)
			}
			if strings.Count(out, "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("line count changed")
			}
		})
	}
	keep := []struct{ name, in string }{
		{"identifier value", "\t\tPrivateKey:  testRSA2048PrivateKey,"},
		{"composite literal", "\t\tPrivateKey:  brokenSigner{testRSAPrivateKey},"},
		{"expression", "\ttokens = 2*maxCompilerConcurrency + 1"},
		{"call chain", "\tencapsulationKey := dk.EncapsulationKey().Bytes()"},
		{"map literal", "\tq.readSecret = map[QUICEncryptionLevel]suiteSecret{}"},
		{"label", `const fakeConnectionTokenHeader = "X-Fake-Connection-Token"`},
		{"header list", `case "Authorization", "Www-Authenticate", "Cookie", "Cookie2":`},
		{"public key name", `publicKey: "MCowBQYDK2VwAyEA9hfMnC3XqkFy8Bz5hFTtZ4Rm2Hn6KjD0bLp3VsY7QeI="`},
		{"verifier key", `testSumDBVerifierKey = "localhost.localdev/sumdb+00000c67+AcTrnkbUA+TU4heY3hkjiSES/DSQniBqIeQ/YppAUtK6"`},
		{"ssh public key", `authorized_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK0wmN/Cr3JXqmLW7u+g9pTh+wyqDHpSQEIQczXkVx9q user@host"`},
		{"url placeholder password", "postgres://user:password@localhost/db"},
		{"url stars", "https://admin:***@example.com"},
		{"url xxxxx", "amqp://guest:xxxxx@rabbit:5672"},
		{"url changeme", "redis://:changeme@cache:6379"},
		{"url variable", "postgres://app:${DB_PASSWORD}@db/app"},
		{"url escaped words", "http://My%20User:My%20Pass@dummy.faketld/"},
		{"url short", "http://gopher:go@test.com"},
		{"rfc example", `// "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==" returns ("Aladdin", "open sesame", true).`},
		{"aws documentation key", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"},
		{"placeholder key", `api_key = "<your-key>"`},
		{"placeholder env", `API_KEY="${API_KEY}"`},
		{"go struct field type", "\tpassword string"},
		{"go test output", `"Output":"--- PASS: Test/Sub1 (0.01s)\n"`},
		{"pattern field", "\t\tpat:  []byte(\"RIFF\\x00\\x00\\x00\\x00WEBPVP\"),"},
		{"quoted identifier with key word", `"encryptionKey": "encryptionKey1024",`},
		{"password variable", "\t\t\tPassword: password16,"},
	}
	for _, tt := range keep {
		t.Run("keep/"+tt.name, func(t *testing.T) {
			if out, n := Redact(tt.in); n != 0 || out != tt.in {
				t.Errorf("Redact changed code or a label:\n in: %s\nout: %s", tt.in, out)
			}
		})
	}
}
