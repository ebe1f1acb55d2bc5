package collector

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestRedactIssue22 holds the shapes issue 22 found leaking (values in
// the places real code, configs and scripts hold them, found by a corpus
// built from gitleaks' rules) and the false positives it found over Go's
// whole src and npm's sources. Secret values are built at run time so
// that no scanner takes this file for a leak.
func TestRedactIssue22(t *testing.T) {
	tok := "Zq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe"
	pw := "Winter!Blue7#ember"
	num := "7995914078554278"
	short := "l1QfzKwfluSQKO"
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	pem := []string{"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK"}
	leaks := []struct{ name, in, secret string }{
		{"js env fallback", "module.exports = {\n  apiKey: process.env.API_KEY || '" + tok + "',\n};", tok},
		{"python getenv or", `SECRET_KEY = os.getenv("SECRET_KEY") or "` + tok + `"`, tok},
		{"terraform variable default", "variable \"x_client_secret\" {\n  type    = string\n  default = \"" + tok + "\"\n}", tok},
		{"sql create user", "CREATE USER app WITH PASSWORD '" + pw + "';", pw},
		{"sql identified by", "CREATE USER 'app'@'%' IDENTIFIED BY '" + pw + "';", pw},
		{"redis-cli -a", "redis-cli -h cache.internal -a '" + pw + "' FLUSHALL", pw},
		{"aws configure set", "aws configure set aws_secret_access_key " + tok, tok},
		{"go mysql dsn", `db, err := sql.Open("mysql", "app:` + pw + `@tcp(db:3306)/shop")`, pw},
		{"builder password", `        .password("` + pw + `")`, pw},
		{"setter api key", `client.setApiKey("` + tok + `");`, tok},
		{"smtp login", "server.login('ops@example.com', '" + pw + "')", pw},
		{"pgpass line elsewhere", "db.internal:5432:shop:app:" + pw, pw},
		{"dockerconfigjson base64", "  .dockerconfigjson: " + b64(`{"auths":{"r.example.com":{"username":"ci","password":"`+pw+`"}}}`), b64(`{"auths":{"r.example.com":{"username":"ci","password":"` + pw + `"}}}`)[:24]},
		{"env file base64", "      ENV_FILE_B64: " + b64("NODE_ENV=production\nSTRIPE_SECRET="+tok+"\n"), b64("NODE_ENV=production\nSTRIPE_SECRET=" + tok + "\n")[:24]},
		{"credentials json base64", "GOOGLE_CREDENTIALS_B64=" + b64("{\n  \"type\": \"service_account\",\n  \"client_secret\": \""+tok+"\"\n}\n"), b64("{\n  \"type\": \"service_account\",\n  \"client_secret\": \"" + tok + "\"\n}\n")[:24]},
		{"harness pat in a comment", "// rotated: pat." + "AbCdEfGhIjKlMnOpQrStUv" + "." + "AbCdEf0123456789AbCdEf01" + "." + "AbCdEfGhIj0123456789", "AbCdEfGhIj0123456789"},
		{"sourcegraph local token in a list", `["alpha", "sgp_local_` + strings.Repeat("a1b2c3d4", 5) + `"]`, strings.Repeat("a1b2c3d4", 5)},
		{"stripe rk_prod_ in a log", "WARN retry using rk_prod_" + tok + " after 401", tok},
		{"vault legacy token", "# old token: s." + "Ab3dEf9hIjKlMn0pQr5tUvWx", "Ab3dEf9hIjKlMn0pQr5tUvWx"},
		{"aws A3T key id", "id A3T" + "XAB23CDE45FGH67IJ", "A3TXAB23CDE45FGH67IJ"},
		{"bedrock key", "key: ABSK" + strings.Repeat(tok, 4), strings.Repeat(tok, 4)},
		{"provider in the name", "ASANA_CLIENT_ID = '" + num + "'", num},
		{"provider in the name, export", `export SUMOLOGIC_ACCESS_ID="` + short + `"`, short},
		{"provider in the name, define", `define('LINKEDIN_CLIENT_ID', '` + short + `');`, short},
		{"provider on the line above", "discord:\n  enabled: true\n  client_id: " + num, num},
		{"provider in a comment above", "# Asana integration\nCLIENT_ID = \"" + num + "\"", num},
		{"pem after C continuations", "#define KEY \"-----BEGIN RSA PRIVATE KEY-----\\n\" \\\n\"" + pem[0] + "\\n\" \\\n\"" + pem[1] + "\\n\" \\\n\"-----END RSA PRIVATE KEY-----\\n\"", pem[1]},
	}
	for _, c := range leaks {
		out, n := Redact(c.in)
		if strings.Contains(out, c.secret) || n == 0 {
			t.Errorf("%s: leaked (%d redactions):\n%s", c.name, n, out)
		}
	}

	clean := []struct{ name, in string }{
		{"runtime/maps dereference", "\t\t\tslotKey = *((*unsafe.Pointer)(slotKey))"},
		{"dereference of a cast", "\tkey := *(*float64)(keyPtr)"},
		{"pointer-typed field", "\tPassword       *uint16"},
		{"constant table", "\tFVE_E_FIPS_PREVENTS_PASSPHRASE                                            Handle        = 0x8031006C"},
		{"call chain left open", "    key = crypto_1.default.createPublicKey({"},
		{"camelCase label", `const key = "secureHeadersNonce";`},
		{"subtest name", `	b.Run("Key=smallType/Elem=int32", benchSizes(benchmarkMapAssignFillHint[smallType, int32]))`},
		{"subtest name with a pointer type", `	b.Run("Key=*int32/Elem=int32", benchSizes(benchmarkMapIter[*int32, int32]))`},
		{"wasm module", `const wasmKey = Buffer.from('AGFzbQEAAAABBgFgAX8BfwMCAQAHBwEDYWRkAAAKCQEHACAAQQFqCw==', 'base64');`},
		{"base64 fixture", strings.Repeat("A", 76) + "\nEAAZABhAAAAAAAAAAAAAAAAAAAA6AQAAEgAOAEAQAAAAAAAAIgAAAAAAAABxAQAAEAAZABBAAAAA"},
		{"method of a receiver s", "\tif !s.ReadUint16LengthPrefixed(&extensions) || !s.Empty() {"},
		{"method of a receiver s, JS", "S=g&&s.allowStaleOnFetchAbort,E=S"},
		{"a server id is not a client id", `    "discordServerID": "` + num + `",`},
		{"call continued on the next line", "            idToken: this.cacheManager.getIdToken("},
		{"generic type", "    auth: Required<NodeAuthOptions>;"},
		{"generic type with a selector", "        readonly questionToken?: Token<SyntaxKind.QuestionToken>;"},
		{"constant as a value", "        submitPassword: SIGN_IN_V2_SUBMIT_PASSWORD,"},
		{"identifier label as a password", `export const INVALID_USERNAME_OR_PASSWORD = "invalidUserNameOrPassword";`},
		{"CSS selector", `    password: "[type=password]",`},
		{"lodash alias", `  'allPass': 'overEvery',`},
		{"slice expression", "      key = arg.slice(-1)[0];"},
		{"authorization variable", "                'Authorization': type1msg"},
		{"leetspeak placeholder in a URL", `		"http://jane:p@ssword@google.com",`},
		{"set in prose", "// os/exec won't set PWD correctly."},
		{"test assertion", "  t.pass('worker is called with the right context')"},
		{"one-line PEM placeholder", " * the PEM encoded private key (string should contain -----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY----- )"},
		{"escaped query label", `  t.equal(reparsed.query, 'key=value%23still-query', 'hash remains query data')`},
		{"escaped query and fragment", `    'x:/resource?key=value%23still-query#first%23still-fragment',`},
		{"test output", "--- PASS: TestKey (0.00s)"},
	}
	for _, c := range clean {
		if out, n := Redact(c.in); n != 0 || out != c.in {
			t.Errorf("%s: redacted:\n%s", c.name, out)
		}
	}
}

// TestASCIILower checks the eight-bytes-at-a-time lowering against the
// byte loop, on every byte value and on text of every length.
func TestASCIILower(t *testing.T) {
	ref := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if c >= 'A' && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	for n := 0; n <= len(all); n++ {
		for off := 0; off+n <= len(all) && off < 9; off++ {
			s := string(all[off : off+n])
			if got := asciiLower(s); got != ref(s) {
				t.Fatalf("asciiLower(% x) = % x", s, got)
			}
		}
	}
	if got := asciiLower("Héllo WORLD @[`{ ZA"); got != "héllo world @[`{ za" {
		t.Errorf("got %q", got)
	}
}

// TestRedactK8sSecretData redacts every value of a Secret's data maps
// and nothing of other manifests.
func TestRedactK8sSecretData(t *testing.T) {
	v1, v2 := "YWRtaW46cGFzc3dvcmQ=", "Tango_orbit312/ihm"
	in := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  extra: " + v1 + "\n  user: 'YWRtaW4='\nstringData:\n  DB_PASS: " + v2 + "\ntype: Opaque\n"
	out, n := Redact(in)
	if n < 3 || strings.Contains(out, v1) || strings.Contains(out, v2) || strings.Contains(out, "YWRtaW4=") || !strings.Contains(out, "name: app") || !strings.Contains(out, "type: Opaque") {
		t.Errorf("%d redactions:\n%s", n, out)
	}
	cm := strings.Replace(in, "kind: Secret", "kind: ConfigMap", 1)
	if out, _ := Redact(cm); !strings.Contains(out, "YWRtaW4=") {
		t.Errorf("a ConfigMap's data redacted:\n%s", out)
	}
}
