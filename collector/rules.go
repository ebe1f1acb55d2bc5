package collector

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
)

// rule is one provider's key or token format, found anywhere in a text. A
// rule runs only when one of its keywords starts a word of the text (the
// keyword index below), so a file without "ghp_" never runs the GitHub
// expression. The secret is the expression's first group when it has one,
// else the whole match. docs/security.md lists the families.
type rule struct {
	id string
	// keywords are lower-case prefixes of a word (a run of letters and
	// digits after any other byte) one of which every match contains.
	keywords []string
	// expr is the expression; re compiles it on the first call (most
	// rules never run in a process: the keyword gates keep them off, so
	// the program's start does not pay for compiling about a hundred).
	expr string
	re   func() *regexp.Regexp
	// valid, when set, must accept the secret (keeps look-alikes such as
	// CSS class names "sk-spinner-…" out).
	valid func(string) bool
	// lit, for rules without keywords, is a literal every match contains
	// (case-sensitive), looked for with strings.Contains.
	lit string
	// minRun, when set, is the shortest run of token characters
	// ([A-Za-z0-9_-]) a keyword must start: short keywords of long tokens
	// ("pat" of Airtable) then skip the words they prefix ("path").
	minRun int
	// runAfter measures minRun after the keyword ("s." of Vault's
	// legacy tokens, which code's "s.Field" would otherwise wake).
	runAfter bool
}

// after sets a rule's minRun, measured after the keyword.
func after(ru rule, n int) rule { ru.minRun, ru.runAfter = n, true; return ru }

// long sets a rule's minRun.
func long(ru rule, n int) rule { ru.minRun = n; return ru }

// lit builds a rule gated by a literal rather than by keywords.
func litRule(id, lit, expr string, valid func(string) bool) rule {
	return rule{id: id, lit: lit, expr: expr, re: lazyRegexp(expr), valid: valid}
}

// r builds a rule.
func r(id string, keywords []string, expr string, valid func(string) bool) rule {
	return rule{id: id, keywords: keywords, expr: expr, re: lazyRegexp(expr), valid: valid}
}

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same expression afterwards (safe for concurrent use). Every
// expression handed to it is compiled by TestLazyRegexpsCompile.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func kw(k ...string) []string { return k }

// B is the right boundary of a token: not followed by a token character.
// Go's RE2 has no look-ahead, so rules end with (?:[^A-Za-z0-9_-]|$) in a
// group that is not the secret, or rely on a fixed length.
const tokEnd = `(?:[^A-Za-z0-9_\-]|$)`

// rules are the provider formats. Learned from the formats the providers
// document (and from what gitleaks and Secretlint detect); the expressions
// are ours. Lengths are lower bounds where providers have changed them.
var rules = []rule{
	// Cloud.
	r("aws-access-key-id", kw("akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "apka"),
		`\b((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16})\b`, nil),
	r("gcp-api-key", kw("aiza"), `\b(AIza[0-9A-Za-z_\-]{35})`, nil),
	r("gcp-oauth-client-secret", kw("gocspx-"), `\b(GOCSPX-[A-Za-z0-9_\-]{28})`, nil),
	r("google-oauth-access-token", kw("ya29."), `\b(ya29\.[0-9A-Za-z_\-]{30,})`, nil),
	r("google-refresh-token", kw("1//0"), `\b(1//0[0-9A-Za-z_\-]{40,})`, nil),
	r("firebase-cloud-messaging", kw("aaaa"), `\b(AAAA[A-Za-z0-9_\-]{7}:[A-Za-z0-9_\-]{140})`, nil),
	litRule("azure-ad-client-secret", "Q~", `(?:^|[^A-Za-z0-9_~.\-])([A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})`, nil),
	r("azure-sas-signature", kw("sig="), `[?&;]sig=([A-Za-z0-9%+/]{30,}(?:%3[Dd]|=){0,2})`, nil),
	r("azure-storage-account-key", kw("accountkey="), `(?i)AccountKey=([A-Za-z0-9+/]{80,}={0,2})`, nil),
	r("azure-shared-access-key", kw("sharedaccesskey="), `(?i)SharedAccessKey=([A-Za-z0-9+/]{40,}={0,2})`, nil),
	r("digitalocean-token", kw("dop_v1", "doo_v1", "dor_v1"), `\b(do[opr]_v1_[a-f0-9]{64})`, nil),
	r("alibaba-access-key-id", kw("ltai"), `\b(LTAI[A-Za-z0-9]{20})\b`, nil),
	r("heroku-api-key-v2", kw("hrku-"), `\b(HRKU-[A-Za-z0-9_\-]{58,})`, nil),
	r("cloudflare-origin-ca-key", kw("v1.0-"), `\b(v1\.0-[a-f0-9]{24}-[a-f0-9]{146})`, nil),
	r("flyio-token", kw("fm1r_", "fm1a_", "fm2_", "fo1_"), `\b((?:fm1[ar]|fm2|fo1)_[A-Za-z0-9+/=_\-]{40,})`, nil),
	r("netlify-token", kw("nfp_", "nfc_", "nfo_"), `\b(nf[pco]_[A-Za-z0-9]{36,})`, nil),
	r("doppler-token", kw("dp."), `\b(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_\-]{40,})`, nil),
	r("vault-token", kw("hvs.", "hvb.", "hvr."), `\b(hv[sbr]\.[A-Za-z0-9_\-]{24,})`, nil),
	litRule("terraform-cloud-token", ".atlasv1.", `\b([a-zA-Z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,})`, nil),
	r("pulumi-token", kw("pul-"), `\b(pul-[a-f0-9]{40})`, nil),
	r("render-api-key", kw("rnd_"), `\b(rnd_[A-Za-z0-9]{32,})`, hasDigitAndLetter),
	r("supabase-token", kw("sbp_", "sb_secret_"), `\b(sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{30,})`, nil),
	r("planetscale-token", kw("pscale_"), `\b(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.\-]{32,64})`, nil),
	long(r("databricks-token", kw("dapi", "dose"), `\b((?:dapi|dose)[a-f0-9]{32}(?:-[0-9])?)\b`, nil), 36),
	r("grafana-token", kw("glc_", "glsa_"), `\b(glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`, nil),
	long(r("grafana-api-key", kw("eyjrijoi"), `\b(eyJrIjoi[A-Za-z0-9]{60,400}={0,2})`, nil), 68),
	r("new-relic-key", kw("nrak", "nrii", "nrjs", "nraa"), `\b(NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_\-]{32}|NRJS-[a-f0-9]{19}|NRAA-[a-f0-9]{27})`, nil),
	r("sentry-token", kw("sntrys_", "sntryu_"), `\b(sntrys_eyJ[A-Za-z0-9+/=_\-]{60,}|sntryu_[a-f0-9]{64})`, nil),
	r("dynatrace-token", kw("dt0c01", "dt0s01"), `\b(dt0[cs]01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64})`, nil),
	r("tailscale-key", kw("tskey-"), `\b(tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,})`, nil),
	long(r("yandex-key", kw("aqvn", "yc", "t1."), `\b(AQVN[A-Za-z0-9_\-]{35,38}|YC[A-Za-z0-9_\-]{38}|t1\.[A-Za-z0-9_\-]+={0,2}\.[A-Za-z0-9_\-]{86}={0,2})(?:[^A-Za-z0-9_+/=\-]|$)`, nil), 38),
	r("scalingo-token", kw("tk-us-"), `\b(tk-us-[A-Za-z0-9_\-]{48})`, nil),
	long(r("octopus-deploy-key", kw("api-"), `\b(API-[A-Z0-9]{26})\b`, nil), 30),
	r("harness-token", kw("pat.", "sat."), `\b((?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20})`, nil),
	r("authress-access-key", kw("sc_", "ext_", "scauth_", "authress_"), `\b((?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][A-Za-z0-9\-]{10,32}\.[A-Za-z0-9+/_=\-]{30,120})`, nil),
	r("aws-bedrock-key", kw("absk", "bedrock-api-key-"), `\b(ABSK[A-Za-z0-9+/]{100,}={0,2}|bedrock-api-key-[A-Za-z0-9+/]{20,}={0,2})`, nil),
	r("aws-a3t-key-id", kw("a3t"), `\b(A3T[A-Z0-9][A-Z2-7]{16})\b`, nil),
	after(r("vault-legacy-token", kw("s."), `\b(s\.[A-Za-z0-9]{24})(?:[^A-Za-z0-9_.\-]|$)`, vaultLegacy), 24),
	litRule("go-sql-dsn-tcp", "@tcp(", `(?:^|[\s"'=(,])[A-Za-z0-9_.\-]*:([^@\s"']{3,})@tcp\(`, notPlaceholderPassword),
	litRule("go-sql-dsn-unix", "@unix(", `(?:^|[\s"'=(,])[A-Za-z0-9_.\-]*:([^@\s"']{3,})@unix\(`, notPlaceholderPassword),
	r("gitlab-session-cookie", kw("_gitlab_session="), `_gitlab_session=([0-9a-z]{32})`, nil),
	r("intra42-secret", kw("s-s4t2ud-", "s-s4t2af-"), `(?i)\b(s-s4t2(?:ud|af)-[a-f0-9]{64})`, nil),
	r("settlemint-token", kw("sm_pat_", "sm_aat_", "sm_sat_"), `\b(sm_(?:pat|aat|sat)_[A-Za-z0-9]{16,})`, nil),
	r("openshift-token", kw("sha256~"), `\b(sha256~[A-Za-z0-9_\-]{43})(?:[^A-Za-z0-9_\-]|$)`, nil),
	long(r("clickhouse-secret", kw("4b1d"), `\b(4b1d[A-Za-z0-9]{38})\b`, nil), 42),
	r("adobe-client-secret", kw("p8e-"), `(?i)\b(p8e-[a-z0-9]{32})`, hasDigitAndLetter),
	litRule("maxmind-license-key", "_mmk", `\b([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)\b`, nil),
	r("sidekiq-secret", kw("bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com"), `(?i)BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?[ \t]*[:=][ \t]*["']?([a-f0-9]{8}:[a-f0-9]{8})`, nil),
	r("infracost-key", kw("ico-"), `\b(ico-[A-Za-z0-9]{32})\b`, hasDigitAndLetter),
	r("onepassword-token", kw("ops_eyj"), `\b(ops_eyJ[A-Za-z0-9+/=_\-]{100,})`, nil),
	r("onepassword-secret-key", kw("a3-"), `\b(A3-[A-Z0-9]{6}-(?:[A-Z0-9]{6}|[A-Z0-9]{11})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})\b`, nil),

	// Source control, CI and package registries.
	r("github-token", kw("ghp", "gho", "ghu", "ghs", "ghr"), `\b(gh[pousr]_[A-Za-z0-9]{36,})`, nil),
	r("github-fine-grained-token", kw("github_pat_"), `\b(github_pat_[A-Za-z0-9_]{22,})`, nil),
	r("gitlab-token", kw("glpat", "gldt", "glrt", "glcbt", "glptt", "glft", "glimt", "glagent", "gloas", "glsoat", "glffct", "glwt", "glsa"),
		`\b(gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct|wt)-[A-Za-z0-9_.\-]{20,})`, nil),
	r("sourcegraph-local-token", kw("sgp_local_"), `\b(sgp_local_[a-fA-F0-9]{40})`, nil),
	r("gitlab-runner-registration-token", kw("gr1348941"), `\b(GR1348941[A-Za-z0-9_\-]{20,})`, nil),
	r("atlassian-token", kw("atatt", "atbb", "atctt", "atcott"), `\b((?:ATATT|ATBB|ATCTT|ATCOTT)[A-Za-z0-9_=.\-]{24,})`, nil),
	r("circleci-token", kw("ccipat_", "ccirt_"), `\b(CCI(?:PAT|RT)_[A-Za-z0-9]{20,}_[a-f0-9]{40})`, nil),
	r("buildkite-token", kw("bkua_"), `\b(bkua_[a-f0-9]{40})`, nil),
	r("sourcegraph-token", kw("sgp_"), `\b(sgp_(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40})`, nil),
	r("sonarqube-token", kw("sqp_", "squ_", "sqa_"), `\b(sq[pua]_[a-f0-9]{40})`, nil),
	r("npm-token", kw("npm_"), `\b(npm_[A-Za-z0-9]{36,})`, hasDigitAndLetter),
	r("pypi-token", kw("pypi-"), `\b(pypi-AgE[A-Za-z0-9_\-]{50,})`, nil),
	r("rubygems-token", kw("rubygems_"), `\b(rubygems_[a-f0-9]{48})`, nil),
	long(r("nuget-key", kw("oy2"), `\b(oy2[a-z0-9]{43})\b`, nil), 46),
	r("clojars-token", kw("clojars_"), `\b(CLOJARS_[a-z0-9]{60})`, nil),
	r("docker-hub-token", kw("dckr_"), `\b(dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27,})`, nil),
	long(r("jfrog-token", kw("akcp", "cmvmd"), `\b(AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})`, nil), 50),
	r("postman-key", kw("pmak-"), `\b(PMAK-[a-f0-9]{24}-[a-f0-9]{34})`, nil),
	r("prefect-key", kw("pnu_"), `\b(pnu_[A-Za-z0-9]{36})`, nil),
	r("readme-key", kw("rdme_"), `\b(rdme_[a-z0-9]{70})`, nil),
	r("codecov-token", kw("codecov"), `(?i)\bcodecov[_\-]?token[ \t]*[=:][ \t]*["']?([a-f0-9\-]{36})`, nil),

	// Chat and webhooks.
	r("slack-token", kw("xox"), `\b(xox[abposre]-[A-Za-z0-9\-]{8,})`, slackToken),
	r("slack-app-token", kw("xapp-"), `(?i)\b(xapp-[0-9]+-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+)`, nil),
	r("slack-config-token", kw("xoxe"), `\b(xoxe(?:\.xox[bp])?-[0-9]-[A-Za-z0-9\-]{50,})`, nil),
	r("slack-webhook", kw("hooks.slack"), `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{16,}`, nil),
	r("discord-webhook", kw("discord.com/api/webhooks", "discordapp.com/api/webhooks"), `discord(?:app)?\.com/api/webhooks/([0-9]{5,}/[A-Za-z0-9_\-]{20,})`, nil),
	long(r("discord-bot-token", kw("discord", "mt", "mj", "mz", "nd", "nt", "nj", "nz", "od", "ot"), `\b([MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38})`, discordToken), 23),
	r("teams-webhook", kw("webhook.office.com/webhookb2"), `webhook\.office\.com/webhookb2/([A-Za-z0-9@\-]{20,}/IncomingWebhook/[A-Za-z0-9]{20,}/[A-Za-z0-9\-]{20,}(?:/[A-Za-z0-9_\-]+)?)`, nil),
	litRule("telegram-bot-token", ":AA", `\b([0-9]{8,10}:AA[A-Za-z0-9_\-]{33})(?:[^A-Za-z0-9_\-]|$)`, nil),
	r("mattermost-webhook", kw("hooks.slack"), `/hooks/([a-z0-9]{26})\b`, nil),
	r("linear-key", kw("lin_api_", "lin_oauth_"), `\b(lin_(?:api|oauth)_[A-Za-z0-9]{40})`, nil),
	r("notion-token", kw("ntn_", "secret_"), `\b(ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})\b`, hasDigitAndLetter),
	long(r("airtable-token", kw("pat"), `\b(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})`, nil), 17),
	r("figma-token", kw("figd_", "figo_"), `\b(fig[do]_[A-Za-z0-9_\-]{40,})`, nil),
	r("dropbox-token", kw("sl."), `\b(sl\.(?:u\.)?[A-Za-z0-9_\-]{130,})`, nil),
	r("hubspot-token", kw("pat-na", "pat-eu"), `\b(pat-(?:na|eu)[0-9]-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})`, nil),
	long(r("intercom-token", kw("dg9roj"), `\b(dG9rOj[A-Za-z0-9+/=_\-]{30,})`, nil), 36),
	r("typeform-token", kw("tfp_"), `\b(tfp_[A-Za-z0-9_.=\-]{50,})`, nil),
	r("contentful-token", kw("cfpat-"), `\b(CFPAT-[A-Za-z0-9_\-]{43})`, nil),
	r("mapbox-secret-token", kw("sk.eyj"), `\b(sk\.eyJ[A-Za-z0-9._\-]{60,})`, nil),
	r("twitter-bearer-token", kw("aaaaaaaaaaaaaaaaaaaaa"), `\b(A{21,23}[A-Za-z0-9%]{50,})`, func(s string) bool {
		t := strings.TrimLeft(s, "A")
		return len(t) >= 40 && entropy(t) >= 3.5 && noRun(t) // not a run of zero bytes in base64 (AAAA…)
	}),
	r("facebook-app-token", kw("facebook"), `\b([0-9]{15,16}(?:\||%7[Cc])[0-9A-Za-z_\-]{27,40})(?:[^0-9A-Za-z_\-]|$)`, func(s string) bool { return entropy(s) >= 3 }),
	long(r("facebook-access-token", kw("eaa"), `\b(EAA[A-Za-z0-9]{60,})`, func(s string) bool { return hasDigitAndLetter(s) && noRun(s) }), 60),
	long(r("instagram-token", kw("igqv", "igaa"), `\b((?:IGQV|IGAA)[A-Za-z0-9_\-]{100,})`, nil), 100),
	r("square-token", kw("sq0atp-", "sq0csp-", "eaaa"), `\b(sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,43}|EAAA[A-Za-z0-9_\-]{22,60})`, hasDigitOrMixed),

	// Payment and commerce.
	r("stripe-key", kw("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"), `\b([rs]k_(?:live|test|prod)_[0-9A-Za-z]{10,})`, nil),
	r("stripe-webhook-secret", kw("whsec_"), `\b(whsec_[A-Za-z0-9+/=]{32,})`, nil),
	r("braintree-token", kw("access_token$", "access-sandbox-", "access-development-", "access-production-"), `\b(access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32})`, nil),
	r("shopify-token", kw("shpat_", "shpca_", "shppa_", "shpss_"), `\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})`, nil),
	r("flutterwave-key", kw("flwseck", "flwpubk"), `(?i)\b(FLW(?:SEC|PUB)K(?:_TEST)?-[a-h0-9]{32}-X|FLWSECK_TEST-?[a-h0-9]{12})`, nil),
	r("mailgun-public-key", kw("pubkey-"), `(?i)\b(pubkey-[a-f0-9]{32})\b`, nil),
	r("plaid-token", kw("access_token$", "access-sandbox-", "access-development-", "access-production-"), `\b(access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})`, nil),
	r("shippo-token", kw("shippo_"), `\b(shippo_(?:live|test)_[a-fA-F0-9]{40})`, nil),
	r("easypost-key", kw("ezak", "eztk"), `\b(EZ[AT]K[A-Za-z0-9]{54})`, nil),
	r("duffel-token", kw("duffel_"), `\b(duffel_(?:test|live)_[A-Za-z0-9_=\-]{43})`, nil),
	long(r("gocardless-token", kw("live_"), `\b(live_[A-Za-z0-9_=\-]{40})`, hasDigitAndLetter), 45),
	long(r("lob-key", kw("live_", "test_"), `\b((?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35}))\b`, nil), 40),
	r("frameio-token", kw("fio-u-"), `\b(fio-u-[A-Za-z0-9_=\-]{64})`, nil),
	r("adafruit-key", kw("aio_"), `\b(aio_[A-Za-z0-9]{28})\b`, hasDigitAndLetter),

	// E-mail and messaging.
	long(r("twilio-api-key", kw("sk"), `\b(SK[0-9a-fA-F]{32})\b`, hasDigitAndLetter), 34),
	r("sendgrid-key", kw("sg."), `\b(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}|SG\.[A-Za-z0-9=_\-.]{66})`, nil),
	long(r("mailgun-key", kw("key-"), `\b(key-[a-f0-9]{32})\b`, hasDigitAndLetter), 36),
	litRule("mailchimp-key", "-us", `\b([a-f0-9]{32}-us[0-9]{1,2})\b`, nil),
	r("brevo-key", kw("xkeysib-", "xsmtpsib-"), `\b(x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16})`, nil),

	// AI providers.
	r("openai-key", kw("sk-"), `\b(sk-(?:proj-|svcacct-|admin-|None-|or-v1-)?[A-Za-z0-9_\-]{20,})`, hasDigitAndLetter),
	r("anthropic-key", kw("sk-ant-"), `\b(sk-ant-[a-z0-9]+-[A-Za-z0-9_\-]{20,})`, nil),
	r("huggingface-token", kw("hf_", "api_org_"), `\b(hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,})`, mixedOrDigit),
	r("replicate-token", kw("r8_"), `\b(r8_[A-Za-z0-9]{37})\b`, nil),
	r("groq-key", kw("gsk_"), `\b(gsk_[A-Za-z0-9]{48,})`, nil),
	r("perplexity-key", kw("pplx-"), `\b(pplx-[A-Za-z0-9]{40,})`, nil),
	r("xai-key", kw("xai-"), `\b(xai-[A-Za-z0-9]{60,})`, nil),
	r("langsmith-key", kw("lsv2_"), `\b(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})`, nil),
	r("pinecone-key", kw("pcsk_"), `\b(pcsk_[A-Za-z0-9_]{40,})`, nil),
	r("elevenlabs-key", kw("sk_"), `\b(sk_[a-f0-9]{48})\b`, nil),

	// Private keys outside PEM, and tokens in any envelope.
	r("age-secret-key", kw("age-secret-key-"), `\b(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})`, nil),
	long(r("jwt", kw("ey"), `\b(ey[A-Za-z0-9_\-]{17,}\.ey[A-Za-z0-9_/\-]{17,}\.[A-Za-z0-9_/\-]*)`, nil), 19),
	r("jwt-base64", kw("zxlk"), `\b(ZXlK[A-Za-z0-9+/]{40,}={0,2})`, base64JWT),
}

// mixedOrDigitAll accepts a token with a digit or both cases.
func mixedOrDigitAll(s string) bool {
	return hasDigit(s) || strings.ToLower(s) != s && strings.ToUpper(s) != s
}

// slackToken accepts a Slack token with a digit or both cases, or of
// small letters that spell no word (xoxa-hgifhccx).
func slackToken(s string) bool {
	return mixedOrDigitAll(s) || len(s) >= 13 && randomLower(s[5:])
}

// vaultLegacy accepts a legacy Vault token (s. and 24 random letters and
// digits), not a method of a receiver s (s.ReadUint16LengthPrefixed,
// s.allowStaleOnFetchAbort): digits, both cases, no words.
func vaultLegacy(s string) bool {
	body := s[2:]
	digits, upper := 0, 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'A' && c <= 'Z':
			upper++
		}
	}
	return digits >= 2 && upper >= 2 && upper < len(body)-digits && !isIdentifierLike(body) && entropy(body) >= 3.8
}

// noRun accepts a token without a run of five equal characters (base64
// of binary data holds AAAAA; issued tokens do not).
func noRun(s string) bool {
	n := 1
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			if n++; n >= 5 {
				return false
			}
		} else {
			n = 1
		}
	}
	return true
}

// hasDigitOrMixed accepts a token with a digit or both cases, past a
// four-letter prefix.
func hasDigitOrMixed(s string) bool { return len(s) > 4 && mixedOrDigitAll(s[4:]) && noRun(s) }

// notPlaceholderPassword accepts a password that is no stand-in.
func notPlaceholderPassword(s string) bool { return !isPlaceholderPassword(s) }

// discordToken accepts a bot token whose first part decodes to a user id.
func discordToken(s string) bool {
	first, _, _ := strings.Cut(s, ".")
	b, err := base64.RawStdEncoding.DecodeString(first)
	if err != nil {
		b, err = base64.RawURLEncoding.DecodeString(first)
	}
	if err != nil || len(b) < 17 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// base64JWT accepts base64 text that decodes to a JSON Web Token.
func base64JWT(s string) bool {
	n := len(s) / 4 * 4
	if n > 400 {
		n = 400
	}
	b, err := base64.StdEncoding.DecodeString(s[:n])
	if err != nil {
		return false
	}
	return strings.HasPrefix(string(b), "eyJ") && strings.Contains(string(b), ".")
}

// mixedOrDigit accepts a token with a digit or with both cases (Hugging
// Face tokens may have no digit; a word like hf_configuration_loader has
// neither).
func mixedOrDigit(s string) bool {
	_, rest, _ := strings.Cut(s, "_")
	if strings.HasPrefix(s, "api_org_") {
		rest = s[len("api_org_"):]
	}
	if strings.Contains(rest, "_") {
		return false
	}
	return hasDigit(rest) || (strings.ToLower(rest) != rest && strings.ToUpper(rest) != rest)
}

// keywordIndex maps the first two bytes of every keyword to the keywords
// (and their rules) that start with them; rules without keywords always
// run.
type keywordIndex struct {
	bucket  [1 << 16]int32 // by the first two bytes: 1 + index in buckets, 0 for none
	buckets [][]kwRule
	literal []int // rules gated by a literal
}

type kwRule struct {
	word string
	rule int
}

var kwIdx = buildKeywordIndex()

func buildKeywordIndex() *keywordIndex {
	idx := &keywordIndex{}
	for i, ru := range rules {
		if len(ru.keywords) == 0 {
			if ru.lit == "" {
				panic("collector: rule " + ru.id + " has neither keywords nor a literal")
			}
			idx.literal = append(idx.literal, i)
			continue
		}
		for _, k := range ru.keywords {
			if len(k) == 1 {
				k += "/" // "1//" style: the second byte is not alphanumeric
			}
			p := uint16(k[0])<<8 | uint16(k[1])
			if idx.bucket[p] == 0 {
				idx.buckets = append(idx.buckets, nil)
				idx.bucket[p] = int32(len(idx.buckets))
			}
			b := idx.bucket[p] - 1
			idx.buckets[b] = append(idx.buckets[b], kwRule{k, i})
		}
	}
	return idx
}

// hit is a rule to run on one line of a text (byte range [start, end)).
type hit struct {
	rule       int
	start, end int
}

// hitSet collects the hits of one text: a rule's keyword at the start of
// a word, or its literal, marks the line to run the rule on. Running a rule
// on those lines only keeps the regular expressions off the rest of the
// text.
type hitSet struct {
	text string
	hits []hit
	seen map[[2]int]bool
}

func newHitSet(text string) *hitSet { return &hitSet{text: text} }

// addAt records rule ri on the line that starts at lineStart and holds pos.
func (h *hitSet) addAt(ri, lineStart, pos int) {
	k := [2]int{ri, lineStart}
	if h.seen == nil {
		h.seen = map[[2]int]bool{}
	}
	if h.seen[k] {
		return
	}
	h.seen[k] = true
	end := strings.IndexByte(h.text[pos:], '\n')
	if end < 0 {
		end = len(h.text)
	} else {
		end += pos
	}
	h.hits = append(h.hits, hit{ri, lineStart, end})
}

// activeRules returns the rules that have a hit, in table order (nil for
// none: most texts, and nearly every path DisplayPath is asked about, have
// no hit, and need no table of the rules built).
func activeRules(hits []hit) []*rule {
	if len(hits) == 0 {
		return nil
	}
	on := make([]bool, len(rules))
	for _, h := range hits {
		on[h.rule] = true
	}
	var out []*rule
	for i := range rules {
		if on[i] {
			out = append(out, &rules[i])
		}
	}
	return out
}

// hitSpans runs each hit's rule on its line and returns the secrets found,
// as offsets in text.
func hitSpans(text string, hits []hit) []span {
	var spans []span
	for _, h := range hits {
		for _, sp := range ruleSpans(text[h.start:h.end], []*rule{&rules[h.rule]}) {
			spans = append(spans, span{sp.start + h.start, sp.end + h.start})
		}
	}
	return spans
}

// tokenRun is the length of the run of token characters that starts s.
func tokenRun(s string) int {
	n := 0
	for n < len(s) && (isAlnum(s[n]) || s[n] == '_' || s[n] == '-') {
		n++
	}
	return n
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// ruleSpans returns the secrets the rules find in s.
func ruleSpans(s string, active []*rule) []span {
	var spans []span
	for _, ru := range active {
		for _, m := range ru.re().FindAllStringSubmatchIndex(s, -1) {
			start, end := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 {
				start, end = m[2], m[3]
			}
			if end <= start {
				continue
			}
			v := s[start:end]
			if strings.Contains(v, "REDACTED") || strings.Contains(v, "EXAMPLE") || (ru.valid != nil && !ru.valid(v)) {
				continue
			}
			spans = append(spans, span{start, end})
		}
	}
	return spans
}
