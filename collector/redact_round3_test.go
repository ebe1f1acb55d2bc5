package collector

import (
	"strings"
	"testing"
)

// TestRedactRound3 holds the shapes the gitleaks corpus found leaking on
// the rules its round-three split made development (the half of the old
// held-out rules released for reading). Values are built at run time so
// that no scanner takes this file for a leak.
func TestRedactRound3(t *testing.T) {
	lobPub := "live_" + "pub_" + "661035262f9fa43e1b80da9658d7c5f"
	mapbox := "pk." + "jycw29uvyqxozgu46cx2jv2wrgyxpatz2hef3wj0lmv9qvfflksc8007bq1h" + ".j018qnjzib7bzq0gtu1f10"
	fbApp := "1308742762612587" + "|" + "rhoK1cbv0DOU_RTX_87O4MkX7AI"
	authress := "sc_" + "gzas01.dd1t.acc-" + "-itlamjkmu9r.j3b7if916v_zzty9jcdm69epxs3ce8"
	nrID := "diqm7brq877c5y1gzffp1bwgrbens9nk5cxopyfhurq5w8" + "ogfiqoabepjv6ov76w"
	cases := []struct{ name, in, secret string }{
		// A provider format wins over a name that reads as public
		// (lobPubApiKey): the pub/public exclusion is for key material.
		{"publishable key format under a pub name", `const lobPubApiKey = "` + lobPub + `"`, lobPub},
		{"publishable key format under a parent key", "lob:\n  enabled: true\n  pub_api_key: " + lobPub, lobPub},
		{"publishable key format, test mode", `export const lobPubApiKey: string = "test_pub_` + lobPub[9:] + `";`, lobPub[9:]},
		// A bare dotted value whose pieces are random is a token, not a
		// selector (process.env.X).
		{"dotted random token, env file", "MAPBOX_API_TOKEN=" + mapbox, mapbox},
		{"dotted random token, Makefile", "MAPBOX_API_TOKEN ?= " + mapbox + "\n\nall:\n\t./deploy --token $(MAPBOX_API_TOKEN)", mapbox},
		{"dotted random token, properties", "app.mapbox.api.token=" + mapbox, mapbox},
		{"dotted random token, Dockerfile ENV", "ENV MAPBOX_API_TOKEN=" + mapbox, mapbox},
		{"dotted random token, ini", "[auth]\nmapbox_api_token = " + mapbox, mapbox},
		// Markup holds literals: a password of words is a password there.
		{"markup password of words", `<add key="ClearTextPassword" value="TestSourcePassword" />`, "TestSourcePassword"},
		{"markup password of words and a digit", `<add key="Password" value="CleartextPassword1" />`, "CleartextPassword1"},
		{"markup element password of words", "<password>DeployServerPassword</password>", "DeployServerPassword"},
		// Facebook app access tokens: app id | app secret.
		{"facebook app token on a line", "facebook " + fbApp, fbApp},
		{"facebook app token, URL-escaped bar", "# facebook\nurl = \"https://graph.facebook.com/me?access_token=" + strings.Replace(fbApp, "|", "%7C", 1) + "\"", "rhoK1cbv0DOU_RTX_87O4MkX7AI"},
		// Authress access keys, anywhere.
		{"authress key in a comment", "// The old credential (" + authress + ") was rotated in May.", authress},
		{"authress key in a log line", "2026-01-02 12:00:01 WARN retry 2/5 using " + authress + " after HTTP 401", authress},
		// A provider of two words in any spelling: dots of a properties
		// key, a comment above in prose.
		{"two-word provider, dotted name", "app.new.relic.user.api.id=" + nrID, nrID},
		{"two-word provider, comment above", "# New Relic\nUSER_API_ID = \"" + nrID + "\"", nrID},
		{"authress key in a list", "SAMPLES = [\n    \"alpha\",\n    \"" + authress + "\",\n]", authress},
	}
	for _, c := range cases {
		out, n := Redact(c.in)
		if strings.Contains(out, c.secret) || n == 0 {
			t.Errorf("%s: leaked (%d redactions):\n%s", c.name, n, out)
		}
	}

	clean := []struct{ name, in string }{
		{"selector of names", "API_TOKEN=process.env.API_TOKEN"},
		{"selector with digits in a name", "SIGNING_KEY=crypto.x509.sha256WithRSAEncryption"},
		{"selector of a long identifier", "key = config.authentication.providerCredentialsResolver2"},
		{"markup placeholder password", `<add key="Password" value="changeme" />`},
		{"markup reference password", `<add key="Password" value="${DB_PASSWORD}" />`},
		{"markup label password", `<input name="password" value="Password">`},
		{"markup your-password", `<password>yourPassword</password>`},
		{"markup password prose", `<add key="Password" value="Enter Your Password" />`},
		{"id and a bar without the provider", "row 1308742762612587|rhoK1cbv0DOU_RTX_87O4MkX7AI"},
		{"two-word provider, a user's id", "# New Relic\nuser_id = \"" + "diqm7brq877c5y1gzffp1bwg" + "\""},
		{"sc_ identifier", "sc_stat.size = acc_total.count"},
		{"test_ identifier", `	test_pub_key := loadKey("testdata/pub.pem")`},
	}
	for _, c := range clean {
		if out, n := Redact(c.in); n != 0 {
			t.Errorf("%s: %d redactions:\n%s", c.name, n, out)
		}
	}
}
