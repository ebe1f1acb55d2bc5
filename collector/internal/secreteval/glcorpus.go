package secreteval

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"strings"
)

// GLCase is one file of the gitleaks corpus.
type GLCase struct {
	Case
	Rule  string // gitleaks rule id
	Shape string // the placement
	// HeldOut cases belong to rules set aside (by a hash of the rule id,
	// HeldOutIn) that tuning never looks at.
	HeldOut bool
	// Flagged: gitleaks' own rule finds the value where it was placed.
	Flagged bool
	// Documented: the value has a prefix docs/security.md names.
	Documented bool
	// Hostile: the placement is one of the hostile shapes of issue 22.
	Hostile bool
}

// Splits of the gitleaks corpus's rules into development and held-out
// rules. A rule's cases are drawn the same under every split (the split
// only labels them), so each split's numbers stay reproducible.
const (
	// SplitV1 (rounds one and two): a rule is held out when the FNV-1a
	// hash of saltV1+id is below heldOutShare mod 10 (61 of 219 rules).
	SplitV1 = 1
	// SplitV2 (round three): tuning in round two had read every
	// development rule's leaks, so the only set nobody had read was the
	// unread v1 held-out rules. They are split again by a new salt: a v1
	// held-out rule stays held out when the first byte of the SHA-256 of
	// saltV2+id is even, and becomes development otherwise (FNV-1a's low
	// bit is the parity of the bytes' low bits, tied to v1's mod 10); v1 development rules stay
	// development. Smaller, so noisier: docs/security.md gives the counts.
	SplitV2 = 2
	// CurrentSplit is the split the command uses unless told otherwise.
	CurrentSplit = SplitV2
)

// heldOutShare is the share of rules SplitV1 holds out, in tenths.
const heldOutShare = 3

// The hash salts of the splits; a new split gets a new salt and never
// reuses an old one.
const (
	saltV1 = "acode-secreteval-heldout:"
	saltV2 = "acode-secreteval-heldout-v2:"
)

// HeldOut reports whether a rule id belongs to the held-out part of the
// current split (a fixed hash, so the split never moves with the seed).
func HeldOut(ruleID string) bool { return HeldOutIn(CurrentSplit, ruleID) }

// HeldOutIn reports whether a rule id is held out under split (SplitV1
// or SplitV2); it panics on an unknown split, which ValidSplit checks.
func HeldOutIn(split int, ruleID string) bool {
	v1 := fnv32(saltV1+ruleID)%10 < heldOutShare
	switch split {
	case SplitV1:
		return v1
	case SplitV2:
		return v1 && sha256.Sum256([]byte(saltV2 + ruleID))[0]%2 == 0
	}
	panic(fmt.Sprintf("secreteval: unknown split %d", split))
}

// ValidSplit reports whether split names a split HeldOutIn knows.
func ValidSplit(split int) bool { return split == SplitV1 || split == SplitV2 }

func fnv32(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}

// documentedPrefixes are the value prefixes docs/security.md names ("What
// is replaced"): a value that starts with one must never leak.
var documentedPrefixes = []string{
	"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA", "A3T", "ABSK",
	"AIza", "GOCSPX-", "ya29.", "1//0", "dop_v1_", "doo_v1_", "dor_v1_", "LTAI", "HRKU-",
	"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit.", "hvs.", "hvb.", "s.", "pul-", "rnd_", "sbp_", "pscale_",
	"dapi", "glc_", "glsa_", "eyJrIjoi", "NRAK-", "NRII-", "NRJS-", "sntrys_", "sntryu_", "dt0c01.",
	"tskey-", "pat.", "sat.", "ops_eyJ", "A3-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
	"glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-",
	"glffct-", "glwt-", "GR1348941", "ATATT", "ATBB", "ATCTT", "CCIPAT_", "CCIRT_", "bkua_", "sgp_",
	"sqp_", "squ_", "sqa_", "npm_", "pypi-AgE", "oy2", "dckr_pat_", "dckr_oat_", "PMAK-", "xoxb-",
	"xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-", "ntn_", "secret_", "sl.", "pat-na1-",
	"sk.eyJ", "sk_live_", "rk_live_", "sk_test_", "rk_test_", "rk_prod_", "whsec_", "shpat_", "shpca_", "shppa_", "shpss_",
	"SG.", "key-", "xkeysib-", "sk-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-or-v1-", "sk-ant-",
	"hf_", "api_org_", "r8_", "gsk_", "pplx-", "xai-", "lsv2_", "pcsk_", "AGE-SECRET-KEY-1", "eyJ",
}

// documented reports a value with a documented prefix. Vault's legacy
// "s." needs its fixed length (s. + 24), or any dotted word would count.
func documented(v string) bool {
	for _, p := range documentedPrefixes {
		if strings.HasPrefix(v, p) {
			if p == "s." && len(v) != 26 {
				continue
			}
			return true
		}
	}
	return false
}

// glShape places a value: named shapes give it a name holding the rule's
// keyword, bare shapes none (only values that identify themselves go
// there).
type glShape struct {
	name, path string
	bare       bool
	hostile    bool
	plant      func(g gen, n names, kw, v string) string
}

// glShapes are the hostile placements of issue 22 (the ordinary
// assignment forms of corpus.go are used too).
var glShapes = []glShape{
	{"js-env-fallback", "config.js", false, true, func(g gen, n names, kw, v string) string {
		return "module.exports = {\n  port: process.env.PORT || 3000,\n  " + n.camel + ": process.env." + n.upper + " || '" + v + "',\n};\n"
	}},
	{"terraform-variable-default", "variables.tf", false, true, func(g gen, n names, kw, v string) string {
		return "variable \"" + n.snake + "\" {\n  type        = string\n  description = \"used by the deploy job\"\n  default     = \"" + v + "\"\n}\n"
	}},
	{"sql-create-user", "init.sql", false, true, func(g gen, n names, kw, v string) string {
		return "-- " + n.snake + "\nCREATE USER app_" + kw + " WITH PASSWORD '" + v + "';\nGRANT ALL ON DATABASE shop TO app_" + kw + ";\n"
	}},
	{"redis-cli", "flush.sh", false, true, func(g gen, n names, kw, v string) string {
		return "#!/bin/sh\n# " + kw + " cache\nredis-cli -h cache.internal -a '" + v + "' FLUSHALL\n"
	}},
	{"cli-config-set", "setup.sh", false, true, func(g gen, n names, kw, v string) string {
		return "#!/bin/sh\naws configure set aws_access_key_id AKIAEXAMPLE\naws configure set " + n.snake + " " + v + "\n"
	}},
	{"go-mysql-dsn", "db.go", false, true, func(g gen, n names, kw, v string) string {
		return "package db\n\n// " + kw + "\nvar dsn = \"" + kw + ":" + v + "@tcp(db.internal:3306)/shop?parseTime=true\"\n"
	}},
	{"builder-password", "DataSourceConfig.java", false, true, func(g gen, n names, kw, v string) string {
		return "class DataSourceConfig {\n  DataSource ds() {\n    return DataSourceBuilder.create()\n        .username(\"" + kw + "\")\n        .password(\"" + v + "\")\n        .build();\n  }\n}\n"
	}},
	{"smtp-login", "mailer.py", false, true, func(g gen, n names, kw, v string) string {
		return "import smtplib\n\nserver = smtplib.SMTP_SSL('smtp.example.com', 465)\nserver.login('" + kw + "@example.com', '" + v + "')\n"
	}},
	{"pgpass-other-name", "pgpass.conf", false, true, func(g gen, n names, kw, v string) string {
		return "db.internal:5432:shop:" + kw + ":" + v + "\n"
	}},
	{"dockerconfigjson-base64", "regcred.yaml", false, true, func(g gen, n names, kw, v string) string {
		auth := base64.StdEncoding.EncodeToString([]byte(kw + ":" + v))
		js := `{"auths":{"registry.example.com":{"username":"` + kw + `","password":"` + v + `","auth":"` + auth + `"}}}`
		return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: " + b64Mark(js) + "\n"
	}},
	{"env-file-base64", "deploy.yml", false, true, func(g gen, n names, kw, v string) string {
		env := "NODE_ENV=production\n" + n.upper + "=" + v + "\nPORT=8080\n"
		return "jobs:\n  deploy:\n    env:\n      ENV_FILE_B64: " + b64Mark(env) + "\n    steps:\n      - run: echo \"$ENV_FILE_B64\" | base64 -d > .env\n"
	}},
	{"credentials-json-base64", "ci.env.sample", false, true, func(g gen, n names, kw, v string) string {
		js := "{\n  \"type\": \"service_account\",\n  \"project_id\": \"shop-prod\",\n  \"" + n.snake + "\": \"" + v + "\"\n}\n"
		return "GOOGLE_CREDENTIALS_B64=" + b64Mark(js) + "\n"
	}},
	{"keyword-parent-yaml", "settings.yaml", false, true, func(g gen, n names, kw, v string) string {
		return kw + ":\n  enabled: true\n  " + suffixName(n.snake, kw) + ": " + v + "\n"
	}},
	{"keyword-parent-json", "integrations.json", false, true, func(g gen, n names, kw, v string) string {
		return "{\n  \"" + kw + "\": {\n    \"" + suffixName(n.snake, kw) + "\": \"" + v + "\"\n  }\n}\n"
	}},
	{"keyword-comment-above", "settings.py", false, true, func(g gen, n names, kw, v string) string {
		return "# " + strings.ToUpper(kw[:1]) + kw[1:] + " integration\n" + strings.ToUpper(suffixName(n.snake, kw)) + " = \"" + v + "\"\n"
	}},
	{"comment", "handler.go", true, true, func(g gen, n names, kw, v string) string {
		return "package handler\n\n// The old credential (" + v + ") was rotated in May.\nfunc Handle() {}\n"
	}},
	{"string-list", "fixtures.py", true, true, func(g gen, n names, kw, v string) string {
		return "SAMPLES = [\n    \"alpha\",\n    \"" + v + "\",\n    \"omega\",\n]\n"
	}},
	{"log-line", "worker.log", true, true, func(g gen, n names, kw, v string) string {
		return "2026-01-02 12:00:01 WARN retry 2/5 using " + v + " after HTTP 401\n"
	}},
}

// b64Mark is the base64 of s between markers that GLCorpus removes,
// making the encoded text the secret that must not survive.
func b64Mark(s string) string {
	return "\x00" + base64.StdEncoding.EncodeToString([]byte(s)) + "\x00"
}

// unmark removes b64Mark's markers and returns the encoded text.
func unmark(text string) (string, string) {
	i := strings.IndexByte(text, 0)
	if i < 0 {
		return text, ""
	}
	j := strings.IndexByte(text[i+1:], 0) + i + 1
	return text[:i] + text[i+1:j] + text[j+1:], text[i+1 : j]
}

// suffixName is the name without the provider keyword: the key a nested
// block would use (asana_client_secret under asana: → client_secret).
func suffixName(snake, kw string) string {
	s := strings.Trim(strings.Replace(snake, kw, "", 1), "_-")
	if s == "" {
		return "key"
	}
	return s
}

// GLCorpus builds the gitleaks corpus: for every content rule, values drawn
// from its expression placed in each ordinary assignment form (corpus.go)
// and each hostile shape, plus its authors' true-positive samples as they
// are. Rules whose values cannot be generated (path rules, values with
// quotes) are left out and counted. split (SplitV1, SplitV2) says which
// rules are held out; it changes no case but its HeldOut mark.
func GLCorpus(rules []*GLRule, seed uint64, split int) (cases []GLCase, skipped []string) {
	g := gen{rand.New(rand.NewPCG(seed, seed^0x5bd1e9955bd1e995))}
	for _, ru := range rules {
		if ru.PathOnly {
			skipped = append(skipped, ru.ID+" (file names only)")
			continue
		}
		rc := ruleCases{ru: ru, held: HeldOutIn(split, ru.ID), kw: ruleKeyword(ru)}
		rc.family, _, _ = strings.Cut(ru.ID, "-")
		rc.name = spell(nameFor(ru.ID, rc.kw))
		generated := rc.forms(g) + rc.shapes(g)
		for _, t := range ru.TPs {
			if s := ru.Secret(t); len(s) >= 8 {
				rc.add("gitleaks-sample", "sample.txt", t+"\n", s, s, false)
			}
		}
		if generated == 0 && len(ru.TPs) == 0 {
			skipped = append(skipped, ru.ID+" (no value could be generated)")
		}
		cases = append(cases, rc.cases...)
	}
	return cases, skipped
}

// ruleCases builds the cases of one rule.
type ruleCases struct {
	ru         *GLRule
	held       bool
	family, kw string
	name       names // the spellings of the name values are assigned to
	cases      []GLCase
}

// add plants value v; secret is what must not survive (v, or the base64
// that wraps it).
func (rc *ruleCases) add(shape, path, text, v, secret string, hostile bool) {
	rc.cases = append(rc.cases, GLCase{
		Case: Case{Family: rc.family, Form: shape, Path: path, Text: text, Secrets: []string{secretPart(rc.ru, secret)}},
		Rule: rc.ru.ID, Shape: shape, HeldOut: rc.held, Hostile: hostile,
		Flagged: rc.ru.Finds(text, v), Documented: documented(v),
	})
}

// forms places a value drawn for the rule in every assignment form; it
// returns how many values it drew.
func (rc *ruleCases) forms(g gen) int {
	generated := 0
	for _, fm := range forms {
		_, v, ok := drawSecret(g, rc.ru)
		if !ok {
			continue
		}
		generated++
		if !fm.keyedOK && rc.ru.Secret(v) != v {
			continue // no name, no keyword, no prefix: not promised
		}
		rc.add(fm.name, fm.path, fm.plant(rc.name, v), v, v, false)
	}
	return generated
}

// shapes places a value drawn for the rule in every hostile shape; it
// returns how many values it drew.
func (rc *ruleCases) shapes(g gen) int {
	generated := 0
	for _, sh := range glShapes {
		_, v, ok := drawSecret(g, rc.ru)
		if !ok {
			continue
		}
		generated++
		if sh.bare && rc.ru.Secret(v) != v {
			continue
		}
		text, blob := unmark(sh.plant(g, rc.name, rc.kw, v))
		if blob == "" {
			blob = v
		}
		rc.add(sh.name, sh.path, text, v, blob, sh.hostile)
	}
	return generated
}

// keyPrefixRe is a map key and its separator at the start of a secret
// group (kubernetes-secret-yaml's group is "name: |\n  value"): a name,
// ':', white space (a block scalar's | or > between), the value after.
// A user:password pair has no space after its colon and is kept whole.
var keyPrefixRe = regexp.MustCompile(`^[\w.-]+:[ \t]*(?:[|>][-+]?)?[ \t]*\r?\n?[ \t]+`)

// secretPart is the part of a secret that must not survive: a PEM
// block's body, a value without the key its group takes in, or a value without the literal prefix its rule's whole
// match starts with (_gitlab_session=).
func secretPart(ru *GLRule, s string) string {
	if i := strings.Index(s, "-----BEGIN"); i >= 0 {
		body := s[i+len("-----BEGIN"):]
		if j := strings.Index(body, "-----"); j >= 0 {
			body = body[j+5:]
		}
		if j := strings.Index(body, "-----END"); j >= 0 {
			body = body[:j]
		}
		return strings.TrimSpace(body)
	}
	if m := keyPrefixRe.FindString(s); m != "" && len(s)-len(m) >= 8 {
		return s[len(m):] // a YAML key the group takes in (.dockercfg: |)
	}
	if p, _ := ru.Regex.LiteralPrefix(); len(p) >= 4 && strings.HasPrefix(s, p) && len(s)-len(p) >= 8 {
		return s[len(p):]
	}
	return s
}

// ruleKeyword is the word that names the provider: the rule's keyword
// that its id starts with, else its first keyword, else the id's first
// word.
func ruleKeyword(ru *GLRule) string {
	first, _, _ := strings.Cut(ru.ID, "-")
	for _, k := range ru.Keywords {
		if k == first {
			return k
		}
	}
	if isASCIIWord(first) {
		return first
	}
	return "app"
}

// nameFor is the variable name (upper snake case) for a rule's value:
// its id, which starts with the provider (asana-client-secret →
// ASANA_CLIENT_SECRET).
func nameFor(id, kw string) string {
	n := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(id))
	if !strings.Contains(strings.ToLower(n), kw) {
		n = strings.ToUpper(kw) + "_" + n
	}
	return n
}
