package collector

import (
	"regexp"
	"strings"
)

// providerWords name providers whose keys have no prefix of their own:
// a value is theirs when the name it is assigned to holds the provider
// (ASANA_CLIENT_ID, linkedinClientSecret) or a line just above names it
// (asana: / client_id: …). Learned from the keyword rules of gitleaks.
var providerWords = []string{
	"adafruit", "adobe", "airtable", "algolia", "alibaba", "artifactory", "asana", "atlassian", "beamer",
	"bintray", "bitbucket", "bittrex", "cloudflare", "codecov", "cohere", "coinbase", "confluent",
	"contentful", "contribsys", "datadog", "discord", "droneci", "dropbox", "etsy", "facebook", "fastly",
	"finicity", "finnhub", "flickr", "freshbooks", "gitter", "gocardless", "heroku", "hubspot", "intercom",
	"jfrog", "kraken", "kucoin", "launchdarkly", "linkedin", "linked_in", "looker", "mailchimp", "mailgun",
	"mapbox", "mattermost", "meraki", "messagebird", "message_bird", "netlify", "newrelic", "new_relic",
	"nytimes", "okta", "plaid", "privateai", "private_ai", "rapidapi", "sendbird", "sentry", "snyk",
	"sonar", "squarespace", "sumologic", "sumo_", "telegram", "travis", "twitch", "twitter", "typeform",
	"yandex", "zendesk",
}

// providerSpellings are the provider words as the scanner looks for them
// in a text: each, and a name of two words (new_relic, message_bird) also
// with the other separators names and prose use (new-relic, new.relic in
// a properties key, "New Relic" in a comment). keyedName reads the name's
// words joined, so any spelling matches there.
func providerSpellings() []string {
	out := append([]string(nil), providerWords...)
	for _, p := range providerWords {
		if a, b, ok := strings.Cut(p, "_"); ok && a != "" && b != "" {
			out = append(out, a+"-"+b, a+"."+b, a+" "+b)
		}
	}
	return out
}

// keyedExtra are last words that name a provider's credential besides the
// secret words: client and access ids, logins, licences.
var keyedExtra = map[string]bool{"id": true, "sid": true, "login": true, "license": true, "licence": true, "clientid": true, "accessid": true, "appid": true}

// idOwners are the words before "id" in the name of a provider's
// credential id (client_id, access_id, app_id, api_id).
var idOwners = map[string]bool{"client": true, "access": true, "app": true, "api": true, "application": true, "consumer": true, "key": true, "secret": true}

// keyedName reports a name whose value is a provider's credential: a
// credential word ends it (secret words, id, login) and the provider is
// in the name, or (flagNear) on a line just above.
func keyedName(name string, fl lineFlag) bool {
	words := splitWords(name)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	if nameKind(name) == notSecret && !keyedExtra[last] {
		return false
	}
	if last == "id" || last == "sid" {
		// A client or access id, not a server's, a user's or a channel's.
		if len(words) < 2 || !idOwners[words[len(words)-2]] {
			return false
		}
	}
	if fl&flagNear != 0 {
		return true
	}
	for i := range words {
		rest := strings.Join(words[i:], "_")
		flat := strings.Join(words[i:], "")
		for _, p := range providerWords {
			if strings.HasPrefix(flat, p) || strings.HasPrefix(rest, p) {
				return true
			}
		}
	}
	return false
}

// providerValue decides a value under a provider's credential name: at
// least 10 characters, random-looking (a long number, letters mixed with
// digits, or long and of high entropy), not a placeholder, a path, a URL,
// a label or code.
func providerValue(v string, quoted bool) bool {
	if len(v) < 10 || len(v) > 200 || standIn(v) || notLiteralValue(v) {
		return false
	}
	if !quoted && (codeShape(v) || selector(v) || isCall(v) || isCodeExpr(v)) {
		return false
	}
	if strings.Trim(v, "0123456789") == "" {
		return len(v) >= 12 && entropy(v) >= 2.0 && !strings.Contains("01234567890123456789", v[:6]) // a numeric id, not a count
	}
	if isIdentifierLike(v) || identWithSecretWord(v) {
		return false
	}
	return randomID(v)
}

// randomID decides a provider's id or key of letters (and digits) that
// is no word or identifier: letters with digits, two classes of high
// entropy, or small letters that spell no word.
func randomID(v string) bool {
	e := entropy(v)
	switch {
	case hasDigitAndLetter(v) && e >= 2.8, charClasses(v) >= 2 && e >= 3.2:
		return true
	}
	return len(v) >= 12 && randomLower(v) && e >= 3
}

// randomLower accepts small letters that spell no word: one vowel (a e i
// o u y) in five or fewer, or three in ten with four consonants in a row
// (szdspespwanfzl, hgifhccx, xfdydviwvracwukczgwkjxoq), no run of five
// equal letters.
func randomLower(v string) bool {
	vowels := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case strings.IndexByte("aeiouy", c) >= 0:
			vowels++
		case c < 'a' || c > 'z':
			return false
		}
	}
	if !noRun(v) || strings.Contains(v, "xxx") {
		return false
	}
	// Random small letters hold about one vowel in four; words and
	// phrases two in five, and rarely four consonants in a row.
	return vowels*5 <= len(v) || vowels*10 <= len(v)*3 && consonantRun(v) >= 4
}

// notLiteralValue reports text, a URL, a path, a camelCase word or a
// label as a provider's value.
func notLiteralValue(v string) bool {
	return strings.ContainsAny(v, " \t") || strings.Contains(v, "://") || isPathLike(v) || camelWordsRe().MatchString(v) || labelFields(v)
}

// fallbackValue finds the literal after a default operator that follows a
// bare value (process.env.X || 'literal', os.getenv("X") or "literal",
// config.key ?? "literal"): the literal is what the name gets when the
// environment is empty.
func fallbackValue(line string, ve int) (int, int, bool) {
	k := ve
	// The rest of the expression: a call's arguments, an index.
	for n := 0; k < len(line) && n < 120 && (isNameByte(line[k]) || strings.IndexByte("()[]$\"'", line[k]) >= 0); n++ {
		k++
	}
	k = skipBlanks(line, k)
	n := defaultOperator(line[k:])
	if n == 0 {
		return 0, 0, false
	}
	k = skipBlanks(line, k+n)
	if k >= len(line) || strings.IndexByte("\"'`", line[k]) < 0 {
		return 0, 0, false
	}
	e := strings.IndexByte(line[k+1:], line[k])
	if e < 0 {
		return 0, 0, false
	}
	return k + 1, k + 1 + e, true
}

// defaultOperator is the length of the default operator s starts with
// (|| ?? ?: "or "), or 0.
func defaultOperator(s string) int {
	for _, op := range []string{"||", "??", "?:", "or ", "or\t"} {
		if strings.HasPrefix(s, op) {
			return len(op)
		}
	}
	return 0
}

// skipBlanks returns the first index from k on that is not a space or a
// tab.
func skipBlanks(line string, k int) int {
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	return k
}

var (
	// pgpassRe is a .pgpass line: host:port:database:user:password.
	pgpassRe = lazyRegexp(`^[ \t]*[A-Za-z0-9_.\-*]+:(?:[0-9]{1,5}|\*):[^:\s]+:[^:\s]+:(\S+)[ \t\r]*$`)
	// sqlPassRe is a password in SQL (CREATE USER … PASSWORD '…',
	// IDENTIFIED BY '…').
	sqlPassRe = lazyRegexp(`(?i)\b(?:password|identified[ \t]+by)[ \t]+(?:E)?'([^'\s]+)'`)
	// setRe is a command that sets a named value (aws configure set NAME
	// VALUE, config set NAME VALUE).
	setRe = lazyRegexp(`(?i)\b(?:configure|config|secrets?|env|vars?|variables?|params?|parameters?|settings|credentials?|kv|property)[ \t:]+set[ \t]+["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]+["']?([^\s"']{6,})`)
	// setterRe is a one-literal call whose name is a credential
	// (.password("…"), setApiKey('…'), withToken("…")).
	setterRe = lazyRegexp(`\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*\([ \t]*(?:"([^"\\]{6,})"|'([^'\\]{6,})')[ \t]*\)`)
	// loginRe is a call that takes a user and a password
	// (smtp.login('u', '…'), SetBasicAuth("u", "…")).
	loginRe = lazyRegexp(`(?i)\b(?:login|auth|basic_?auth|set_?basic_?auth|http_?basic_?auth|http_?digest_?auth|password_?authentication|network_?credential|username_?password_?credentials|plain_?auth)[ \t]*\([ \t]*(?:"[^"]*"|'[^']*'|[A-Za-z_][A-Za-z0-9_.]*)[ \t]*,[ \t]*(?:"([^"\\]+)"|'([^'\\]+)')`)
)

// setVerbRe is the cheap gate of setRe.
var setVerbRe = lazyRegexp(`(?:configure|config|secrets?|env|vars?|variables?|params?|parameters?|settings|credentials?|kv|property)[ \t:]+set `)

// loginNames are the calls loginRe reads (lower case, then "(").
var loginNames = []string{"login(", "login (", "auth(", "auth (", "basicauth(", "basic_auth(", "passwordauthentication(", "networkcredential(", "usernamepasswordcredentials(", "plainauth(", "digestauth(", "digest_auth("}

// loginCall reports a line that calls one of loginNames.
func loginCall(lower string) bool {
	for _, n := range loginNames {
		if strings.Contains(lower, n) {
			return true
		}
	}
	return false
}

// setterCalls finds name("literal") and name('literal'), one literal of
// at least 6 characters and nothing else, as setterRe's submatch indexes
// (name, double-quoted, single-quoted), without running the expression
// on every line.
func setterCalls(line string) [][]int {
	var out [][]int
	for i := 1; i+1 < len(line); i++ {
		if line[i] != '(' {
			continue
		}
		if j := skipBlanks(line, i+1); j >= len(line) || line[j] != '"' && line[j] != '\'' {
			continue
		}
		k := callNameStart(line, i)
		if k < 0 {
			continue
		}
		if m := setterRe().FindStringSubmatchIndex(line[k:]); m != nil && m[0] == 0 {
			for x := range m {
				if m[x] >= 0 {
					m[x] += k
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// callNameStart is where the name of the call whose '(' is at i starts,
// when the name holds a secret word; else -1.
func callNameStart(line string, i int) int {
	ne := backOver(line, i, " \t")
	k := ne
	for k > 0 && (isAlnum(line[k-1]) || line[k-1] == '_') {
		k--
	}
	if k == ne || !hasSecretWord(line[k:ne]) {
		return -1
	}
	return k
}

// setterWords may make up the name of a setter (after set, with, use).
var setterWords = map[string]bool{
	"api": true, "auth": true, "access": true, "client": true, "secret": true, "key": true, "token": true,
	"password": true, "passwd": true, "pass": true, "pwd": true, "private": true, "bearer": true, "app": true,
	"master": true, "refresh": true, "session": true, "encryption": true, "signing": true, "credential": true,
	"credentials": true, "passphrase": true, "db": true, "admin": true, "root": true, "user": true, "apikey": true,
}

// callSpans finds credentials passed to calls: setters and builders
// (.password("…")), login calls (smtp.login('u', '…')), SQL passwords and
// "set NAME VALUE" commands.
func callSpans(line, lower string) []span {
	var spans []span
	if strings.Contains(line, "(\"") || strings.Contains(line, "('") {
		spans = setterSpans(line, spans)
	}
	if (strings.Contains(lower, "login") || strings.Contains(lower, "auth") || strings.Contains(lower, "credential")) && loginCall(lower) {
		spans = groupSpans(line, loginRe(), spans, 1, 2)
	}
	if strings.Contains(lower, "password '") || strings.Contains(lower, "password e'") || strings.Contains(lower, "identified by") {
		spans = groupSpans(line, sqlPassRe(), spans, 1)
	}
	if strings.Contains(lower, "set ") && setVerbRe().MatchString(lower) {
		spans = setCommandSpans(line, spans)
	}
	return spans
}

// groupSpans appends the groups of re's matches that are passwords.
func groupSpans(line string, re *regexp.Regexp, spans []span, groups ...int) []span {
	for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
		for _, gi := range groups {
			if m[2*gi] >= 0 && passwordValue(line[m[2*gi]:m[2*gi+1]], true) {
				spans = append(spans, span{m[2*gi], m[2*gi+1]})
			}
		}
	}
	return spans
}

// setterSpans appends the literals of setters and builders whose name is
// made of setterWords (after set, with or use).
func setterSpans(line string, spans []span) []span {
	for _, m := range setterCalls(line) {
		k := setterKind(line[m[2]:m[3]])
		if k == notSecret {
			continue
		}
		for gi := 2; gi <= 3; gi++ {
			if m[2*gi] >= 0 && markupValue(line[m[2*gi]:m[2*gi+1]], k == passwordName) {
				spans = append(spans, span{m[2*gi], m[2*gi+1]})
			}
		}
	}
	return spans
}

// setterKind classifies a setter's name (setApiKey, withToken, password):
// notSecret unless every word is a setterWord and not a lone pass or auth.
func setterKind(name string) nameClass {
	words := splitWords(name)
	if len(words) > 0 && (words[0] == "set" || words[0] == "with" || words[0] == "use") {
		words = words[1:]
	}
	if len(words) == 0 || len(words) == 1 && (words[0] == "pass" || words[0] == "auth") {
		return notSecret
	}
	for _, w := range words {
		if !setterWords[w] {
			return notSecret
		}
	}
	return nameKind(strings.Join(words, "_"))
}

// setCommandSpans appends the values of "configure set NAME VALUE"
// commands whose NAME is a secret's or a provider's credential.
func setCommandSpans(line string, spans []span) []span {
	for _, m := range setRe().FindAllStringSubmatchIndex(line, -1) {
		name, v := line[m[2]:m[3]], line[m[4]:m[5]]
		if k := nameKind(name); k != notSecret && markupValue(v, k == passwordName) || keyedName(name, flagProvider) && providerValue(v, false) {
			spans = append(spans, span{m[4], m[5]})
		}
	}
	return spans
}

// pgpassSpans finds the password of a .pgpass line in a file of any name.
func pgpassSpans(line string) []span {
	m := pgpassRe().FindStringSubmatchIndex(line)
	if m == nil {
		return nil
	}
	if v := line[m[2]:m[3]]; v == redacted || isPlaceholderPassword(v) {
		return nil
	}
	return []span{{m[2], m[3]}}
}

var (
	// tfVariableRe opens a Terraform variable block.
	tfVariableRe = lazyRegexp(`^[ \t]*variable[ \t]+"([A-Za-z_][A-Za-z0-9_\-]*)"[ \t]*\{`)
	// tfDefaultRe is the default of a variable.
	tfDefaultRe = lazyRegexp(`^[ \t]*default[ \t]*=[ \t]*"([^"]*)"`)
)

// redactTerraformDefaults redacts the default of a Terraform variable
// whose name is a credential (variable "client_secret" { default = "…" }).
func redactTerraformDefaults(lines []string) int {
	n := 0
	for i := 0; i < len(lines); i++ {
		if !strings.Contains(lines[i], "variable") {
			continue
		}
		m := tfVariableRe().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		k := nameKind(m[1])
		keyed := keyedName(m[1], flagProvider)
		if k == notSecret && !keyed {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+12; j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), "}") {
				break
			}
			dm := tfDefaultRe().FindStringSubmatchIndex(lines[j])
			if dm == nil {
				continue
			}
			v := lines[j][dm[2]:dm[3]]
			if v != redacted && (k != notSecret && markupValue(v, k == passwordName) || keyed && providerValue(v, true)) {
				lines[j] = lines[j][:dm[2]] + redacted + lines[j][dm[3]:]
				n++
			}
			break
		}
	}
	return n
}
