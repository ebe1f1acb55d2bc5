package collector

import (
	"encoding/base64"
	"strings"
	"testing"
)

// wrapBase64 encodes s and wraps it at 76 characters, each line after
// prefix and before suffix.
func wrapBase64(s, prefix, suffix string) string {
	b := base64.StdEncoding.EncodeToString([]byte(s))
	var lines []string
	for len(b) > 76 {
		lines = append(lines, prefix+b[:76]+suffix)
		b = b[76:]
	}
	return strings.Join(append(lines, prefix+b), "\n")
}

// TestRedactRound2 holds the shapes the gitleaks corpus still found
// leaking on its development rules after issue 22's first round (values
// are built at run time so that no scanner takes this file for a leak).
func TestRedactRound2(t *testing.T) {
	long := "hxf0_oxne178h9lwl-/oddzwfl-_j7ep9ut7=90a4kujh4-q+imquieo5fcooy38yxg_5k30tu5_6m3f"
	cases := []struct{ name, in, secret string }{
		{"long base64-alphabet token, ini", "[auth]\nkraken_access_token = " + long, long},
		{"long base64-alphabet token, export", `export KRAKEN_ACCESS_TOKEN="/wufaiosgr2coror6xkvzx4v=h5sqn8mkpa+gutp/66b=3l7f7un+/-+hb3yhfgekunrjti6_bpsspml"`, "/wufaiosgr2coror6xkvzx4v=h5sqn8mkpa+gutp/66b=3l7f7un+/-+hb3yhfgekunrjti6_bpsspml"},
		{"long token, config set", "aws configure set kraken_access_token /t9drl34af2+g3p2066r4fzxxs9i_t5czkw75otg69om4vank-nfwus3hrb/a9n+ghwu43+p9hv22s7gi", "/t9drl34af2+g3p2066r4fzxxs9i_t5czkw75otg69om4vank-nfwus3hrb/a9n+ghwu43+p9hv22s7gi"},
		{"dsn password with slashes", `var dsn = "kraken:-phiz/t-i90j_awz5o51ubl==m+q=xur9eb53_ouwt3x4_w4dwkj+l/j9j/mmxdaptr1szuio-wu9x6+@tcp(db.internal:3306)/shop?parseTime=true"`, "-phiz/t-i90j_awz5o51ubl==m+q=xur9eb53_ouwt3x4_w4dwkj+l/j9j/mmxdaptr1szuio-wu9x6+"},
		{"dsn password with a colon", `var dsn = "sidekiq:8728a4d0:b0357a83@tcp(db.internal:3306)/shop?parseTime=true"`, "8728a4d0:b0357a83"},
		{"dsn password ending in a slash", `var dsn = "generic:f2/arb/zzj1u0ly684v56/@tcp(db.internal:3306)/shop?parseTime=true"`, "f2/arb/zzj1u0ly684v56/"},
		{"k8s secret data, literal block", "apiVersion: v1\ndata:\n  .dockercfg: |\n    eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUvdjEvIjp7ImF1dGgiOiJvcGVuc2VzYW1lIn19fQo=\nmetadata:\n  name: x\ntype: kubernetes.io/dockercfg\nkind: Secret", "eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUvdjEvIjp7ImF1dGgiOiJvcGVuc2VzYW1lIn19fQo="},
		{"k8s secret data, folded block, data last", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\ntype: kubernetes.io/dockercfg\ndata:\n  .dockercfg: >\n    eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUvdjEvIjp7ImF1dGgiOiJvcGVuc2VzYW1lIn19fQo=", "eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUvdjEvIjp7ImF1dGgiOiJvcGVuc2VzYW1lIn19fQo="},
		{"curl --user, whole credential", "curl --user roger23@gmail.com:hunter2xyz https://www.dropbox.com/cli_link?host_id=abcdefg -v", "roger23@gmail.com"},
		{"curl --user, quoted braces", `curl -X POST --user "{acd3c08b-74e8-4f44-a2d0-80694le24f46}":"{ZqL5kVrX1n8tA2}" --header "Accept: application/json" https://gateway.example.com/api`, "ZqL5kVrX1n8tA2"},
		{"curl --user after a continuation", "$ curl https://api.dropbox.com/oauth2/token \\\n  --user c28wlsosanujy2z:s3cr3tpw9x --data grant_type=authorization_code", "c28wlsosanujy2z"},
		{"curl -H Token header", `curl -XPOST http://localhost:8080/api/tasks -H "Content-Type: application/x-www-form-urlencoded; charset=UTF-8" -H "Token: 3fea6af1349166ea" -d "content=hello-curl"`, "3fea6af1349166ea"},
		{"provider in an ENV index", "ENV['ASANA_CLIENT_ID'] = '1525665415275447'", "1525665415275447"},
		{"provider in an add key", "<appSettings>\n  <add key=\"AsanaClientId\" value=\"1107444405495443\" />\n</appSettings>", "1107444405495443"},
		{"flutterwave encryption key in a comment", "// The old credential (FLWSECK_TEST-e01fbfb2egb2) was rotated in May.", "FLWSECK_TEST-e01fbfb2egb2"},
		{"numeric password in a builder", "    return DataSourceBuilder.create()\n        .username(\"asana\")\n        .password(\"1264229549126991\")\n        .build();", "1264229549126991"},
		{"hex secret with a colon", "SIDEKIQ_SECRET = 'bd16a6bc:66ec41bb'", "bd16a6bc:66ec41bb"},
		{"hex secret in markup", "<config>\n  <sidekiqSecret>6cf47cfa:7f748fa3</sidekiqSecret>\n</config>", "6cf47cfa:7f748fa3"},
		{"short mixed-case key, one digit", `    public const string GenericApiKey = "esFtOVSxa0yk";`, "esFtOVSxa0yk"},
		{"provider id of small letters", "LINKEDIN_CLIENT_ID ?= szdspespwanfzl\n", "szdspespwanfzl"},
		{"slack token of small letters", `  slack_legacy_workspace_token = "xoxa-hgifhccx"`, "hgifhccx"},
		{"provider token in a pair, one class short", `  static { System.setProperty("DROPBOX_API_TOKEN", "qvs6sxyxyd8y08b"); }`, "qvs6sxyxyd8y08b"},
		{"provider token in define", `define('DROPBOX_API_TOKEN', 'bdysvmnb0hdiugh');`, "bdysvmnb0hdiugh"},
		{"provider token in a set command", "aws configure set dropbox_api_token d8zuwkmemeapmaj", "d8zuwkmemeapmaj"},
		{"provider secret of small letters", `export const lookerClientSecret: string = "xfdydviwvracwukczgwkjxoq";`, "xfdydviwvracwukczgwkjxoq"},
		{"base64 key ending in a field-like piece", "env:\n  GENERIC_API_KEY: \"u8te1jqmj6v5mh64e173u41xu/np=\"", "u8te1jqmj6v5mh64e173u41xu/np="},
		{"flutterwave encryption key in a list", `    "FLWSECK_TEST-gaa9a9a3af02",`, "FLWSECK_TEST-gaa9a9a3af02"},
	}
	sa := "{\n  \"type\": \"service_account\",\n  \"project_id\": \"demo\",\n  \"client_secret\": \"Zq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe\",\n  \"client_email\": \"ci@demo.iam.gserviceaccount.com\"\n}\n"
	env := "NODE_ENV=production\nLOG_LEVEL=info\nSTRIPE_SECRET=Zq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe\nPORT=8080\nREGION=eu-west-1\n"
	saLines := strings.Split(wrapBase64(sa, "", ""), "\n")
	envLines := strings.Split(wrapBase64(env, "", ""), "\n")
	cases = append(cases,
		struct{ name, in, secret string }{"base64 wrapped over lines in a block", "data:\n  credentials.json: |\n" + wrapBase64(sa, "    ", ""), saLines[1]},
		struct{ name, in, secret string }{"base64 wrapped over continuation lines", "GOOGLE_CREDENTIALS_B64=" + strings.TrimLeft(wrapBase64(sa, "    ", "\\"), " "), saLines[1]},
		struct{ name, in, secret string }{"base64 of an env file under a b64 key", "env:\n  ENV_FILE_B64: |\n" + wrapBase64(env, "    ", ""), envLines[1]},
	)
	for _, c := range cases {
		out, n := Redact(c.in)
		if strings.Contains(out, c.secret) || n == 0 {
			t.Errorf("%s: leaked (%d redactions):\n%s", c.name, n, out)
		}
	}

	// Code and labels the whole-tree evaluation found redacted (the
	// installed npm sources), and neighbours of the shapes above.
	clean := []struct{ name, in string }{
		{"decorated property key", "var internalContainerInstanceKey = '__reactContainer$' + randomKey;"},
		{"subtest name still a label", `	b.Run("Key=int32/Elem=int32", bench)`},
		{"query label", `	key := "key=value&other=thing"`},
		{"path value", `	keyFile := "/etc/ssl/private/server-key-2024.pem"`},
		{"curl -H with a variable", `curl -H "Token: $API_TOKEN" https://api.example.com`},
		{"curl -u with a placeholder", "curl -u admin:<password> https://x"},
		{"k8s ConfigMap data in a block", "kind: ConfigMap\ndata:\n  app.conf: |\n    listen 8080"},
		{"a count is no provider id", "ASANA_CLIENT_ID = 123456789012"},
		{"a word is no provider id", `LINKEDIN_CLIENT_ID: "linkedinclient"`},
		{"identifier with one digit", `	apiKey := "getUserName1"`},
		{"slack placeholder", `token = "xoxb-notarealtoken"`},
		{"short hex", `	commitKey := "deadbeef12"`},
		{"a provider's word as its secret", `  lookerClientSecret: "lookerclientsecretvalue",`},
		{"subtest label with a leading name", `	key := "BenchmarkMapIterLarge/size=1024"`},
	}
	cert := strings.Repeat("\x30\x82\x01\x0a\x02\x82\x01\x01\x00\xc3", 12)
	clean = append(clean,
		struct{ name, in string }{"wrapped base64 of binary data", "data:\n  ca.der: |\n" + wrapBase64(cert, "    ", "")},
		struct{ name, in string }{"wrapped base64 of text without a secret", "notes_b64: |\n" + wrapBase64(strings.Repeat("nothing to see here, just notes. ", 6), "  ", "")},
	)
	for _, c := range clean {
		if out, n := Redact(c.in); n != 0 {
			t.Errorf("%s: %d redactions:\n%s", c.name, n, out)
		}
	}
}
