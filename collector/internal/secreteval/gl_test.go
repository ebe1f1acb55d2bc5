package secreteval

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

const sampleTOML = `title = "gitleaks config"

[allowlist]
regexes = [
    '''^x$''',
]

[[rules]]
id = "acme-api-token"
description = "Acme"
regex = '''(?i)[\w.-]{0,50}?(?:acme)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|:)[\x60'"\s=]{0,5}([a-z0-9]{32})(?:[\x60'"\s;]|$)'''
entropy = 3
keywords = [
    "acme",
]
[[rules.allowlists]]
regexes = [
    '''^0+$''',
]
stopwords = ["deadbeef"]

[[rules]]
id = "zeta-token"
regex = '''\b(zt_[A-Z0-9]{20})\b'''
keywords = ["zt_"]

[[rules]]
id = "some-file"
path = '''(?i)\.p12$'''
`

// TestParseGitleaksTOML reads the subset of TOML gitleaks' configuration
// uses, allow-lists and stopwords included.
func TestParseGitleaksTOML(t *testing.T) {
	var b strings.Builder
	b.WriteString(sampleTOML)
	for i := 0; i < 100; i++ { // the parser refuses fewer than 100 rules
		b.WriteString("\n[[rules]]\nid = \"filler-" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "\"\nregex = '''fill" + "er'''\nkeywords = [\"filler\"]\n")
	}
	rules, err := parseGitleaksTOML([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*GLRule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	acme := byID["acme-api-token"]
	if acme == nil || acme.Entropy != 3 || len(acme.Keywords) != 1 || len(acme.Allow) != 1 || len(acme.Stopwords) != 1 {
		t.Fatalf("acme rule read as %+v", acme)
	}
	if !byID["some-file"].PathOnly || byID["zeta-token"].PathOnly {
		t.Error("path-only rules misread")
	}
	if s := acme.Secret(`ACME_KEY = "ab12cd34ef56ab12cd34ef56ab12cd34"`); s != "ab12cd34ef56ab12cd34ef56ab12cd34" {
		t.Errorf("secret = %q", s)
	}
	if s := acme.Secret(`ACME_KEY = "00000000000000000000000000000000"`); s != "" {
		t.Errorf("allow-listed secret found: %q", s)
	}
	if s := acme.Secret(`OTHER_KEY = "ab12cd34ef56ab12cd34ef56ab12cd34"`); s != "" {
		t.Errorf("secret found without the keyword: %q", s)
	}
	// Values drawn from the expression are found by the rule itself.
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for _, id := range []string{"acme-api-token", "zeta-token"} {
		m, s, ok := drawSecret(g, byID[id])
		if !ok || byID[id].Secret(m) != s || len(s) < 8 {
			t.Errorf("%s: drew %q / %q (%v)", id, m, s, ok)
		}
	}
}

// TestSampleStrings reads the true and false positives of a rule file.
func TestSampleStrings(t *testing.T) {
	src := "package rules\n\nfunc R() {\n\ttps := []string{\n\t\t`token = \"zt_ABCDEFGHIJ0123456789\"`,\n\t\tutils.GenerateSampleSecrets(\"x\", \"zt_ABCDEFGHIJ0123456789\")[0],\n\t}\n\tfps := []string{\"zt_EXAMPLEEXAMPLE\"}\n\ttps = append(tps, \"more zt_ZZZZZZZZZZ0123456789\")\n\t_ = fps\n}\n"
	tps, fps := sampleStrings([]byte(src))
	if len(tps) != 2 || tps[0] != `token = "zt_ABCDEFGHIJ0123456789"` || len(fps) != 1 {
		t.Errorf("tps %q fps %q", tps, fps)
	}
}

// TestHeldOut holds the splits: v1 holds out about three rules in ten by
// a fixed hash; v2 holds out about half of v1's held-out rules and never a
// v1 development rule; the current split is v2.
func TestHeldOut(t *testing.T) {
	held1, held2 := 0, 0
	for i := 0; i < 1000; i++ {
		id := "rule-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		v1, v2 := HeldOutIn(SplitV1, id), HeldOutIn(SplitV2, id)
		if v1 != HeldOutIn(SplitV1, id) || v2 != HeldOutIn(SplitV2, id) {
			t.Fatal("not deterministic")
		}
		if v2 && !v1 {
			t.Fatalf("%s: held out by v2, development in v1 (read in rounds one and two)", id)
		}
		if HeldOut(id) != v2 {
			t.Fatalf("%s: HeldOut is not the current split v2", id)
		}
		if v1 {
			held1++
		}
		if v2 {
			held2++
		}
	}
	if held1 < 250 || held1 > 350 {
		t.Errorf("v1: %d of 1000 held out, want about 300", held1)
	}
	if held2 < held1*2/5 || held2 > held1*3/5 {
		t.Errorf("v2: %d of v1's %d held out, want about half", held2, held1)
	}
	if !ValidSplit(SplitV1) || !ValidSplit(SplitV2) || ValidSplit(3) || ValidSplit(0) {
		t.Error("ValidSplit")
	}
}

// TestGLCorpusSplitOnlyMarks holds that a split changes which cases are
// held out and nothing else: the same seed draws the same cases.
func TestGLCorpusSplitOnlyMarks(t *testing.T) {
	var rules []*GLRule
	for _, r := range [][2]string{{"zeta-api-token", `\b(zt_[A-Za-z0-9]{20})\b`}, {"omega-secret", `\b(om_[a-f0-9]{24})\b`}} {
		rules = append(rules, &GLRule{ID: r[0], Regex: regexp.MustCompile(r[1]), Source: r[1], SecretGroup: 1})
	}
	a, _ := GLCorpus(rules, 7, SplitV1)
	b, _ := GLCorpus(rules, 7, SplitV2)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d cases", len(a), len(b))
	}
	for i := range a {
		if a[i].Text != b[i].Text || a[i].Rule != b[i].Rule {
			t.Fatalf("case %d differs between splits", i)
		}
		if a[i].HeldOut != HeldOutIn(SplitV1, a[i].Rule) || b[i].HeldOut != HeldOutIn(SplitV2, b[i].Rule) {
			t.Fatalf("case %d (%s): HeldOut mark not its split's", i, a[i].Rule)
		}
	}
}

// TestUnmark keeps the base64 wrapping as the secret of a shape.
func TestUnmark(t *testing.T) {
	text, blob := unmark("x: " + b64Mark("a=b") + "\n")
	if text != "x: YT1i\n" || blob != "YT1i" {
		t.Errorf("%q %q", text, blob)
	}
}

// TestSecretPartDropsKey holds what must not survive of a secret group:
// the value without a map key the group takes in, a user:password whole.
func TestSecretPartDropsKey(t *testing.T) {
	ru := &GLRule{ID: "x", Regex: regexp.MustCompile(`(?s)data:(.*)`)}
	cases := []struct{ in, want string }{
		{".dockercfg: |\n    eyJhdXRocyI6e30K", "eyJhdXRocyI6e30K"},
		{"token: abcdefgh12345678", "abcdefgh12345678"},
		{"roger23@gmail.com:hunter2xyz", "roger23@gmail.com:hunter2xyz"},
		{"app:pw", "app:pw"},
	}
	for _, c := range cases {
		if got := secretPart(ru, c.in); got != c.want {
			t.Errorf("secretPart(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
