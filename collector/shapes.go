package collector

import (
	"net/url"
	"regexp"
	"strings"
)

// The shapes of this file are the places where a credential sits by
// position rather than by format: after an HTTP authorization scheme,
// between ':' and '@' in a URL, after a password flag on a command line, in
// a .netrc entry, in markup, in a (name, value) pair of a call or an
// environment list.

var (
	// authorizationRe is the value of an Authorization header (any scheme,
	// or none).
	authorizationRe = lazyRegexp(`(?i)\b(?:proxy-)?authorization["']?[ \t]*[:=,][ \t]*["']?(?:(?:bearer|basic|token|digest|sso-key|apikey|api-key|key|otoken|ghp|bot|oauth)[ \t]+)?([A-Za-z0-9._~+/:=-]{8,})`)
	// curlUserRe is curl's -u/--user user:password.
	// The user goes too (group 1): it is often an app key or a token
	// id (Dropbox's app key:secret, IBM's apikey:…).
	curlUserRe = lazyRegexp(`(?:^|[ \t])(?:-u|--user|--proxy-user|-U)(?:[ \t]+|=)["']?([^:\s"']*)["']?:["']?([^\s"']+)`)
	// curlHeaderRe is a header of curl -H "Name: value" (or wget
	// --header) whose name may be a credential's (Token, X-Api-Key).
	curlHeaderRe = lazyRegexp(`(?:^|[ \t])(?:-H|--header)[ \t]*=?[ \t]*["']([A-Za-z][A-Za-z0-9_-]*)[ \t]*:[ \t]*([^\s"']{8,})["']`)
	// curlTokenRe is curl -u "TOKEN:": a token as the user, no password.
	curlTokenRe = lazyRegexp(`(?:^|[ \t])(?:-u|--user)(?:[ \t]+|=)["']?([A-Za-z0-9_!@#$%^&*+=.\-]{12,}):["']?(?:[ \t]|$)`)
	// mysqlPassRe is the password glued to -p of mysql and friends.
	mysqlPassRe = lazyRegexp(`(?:^|[ \t])-p(?:["']([^"'\s]+)["']|([^\s"'-][^\s"']*))`)
	// flagPassRe is a password or token flag followed by its value.
	flagPassRe = lazyRegexp(`(?i)(?:^|[ \t])--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token|access-token)[ \t]+["']?([^\s"']{6,})`)
	// redisPassRe is redis-cli -a PASSWORD (or --pass).
	redisPassRe = lazyRegexp(`\bredis-cli\b.*?[ \t](?:-a|--pass)[ \t]+["']?([^\s"']+)`)
	// sshpassRe is sshpass -p PASSWORD.
	sshpassRe = lazyRegexp(`\bsshpass[ \t]+-p[ \t]*["']?([^\s"']+)`)
	// netrcRe is a password in .netrc syntax.
	netrcRe = lazyRegexp(`(?i)(?:^|[ \t])(?:password|passwd|account)[ \t]+([^\s]+)`)
	// xmlElemRe is <name>value</name>.
	xmlElemRe = lazyRegexp(`<([A-Za-z_][A-Za-z0-9_.:\-]*)(?:[ \t][^<>]*)?>([^<>]{1,500})</([A-Za-z_][A-Za-z0-9_.:\-]*)>`)
	// xmlAttrRe is key="name" value="value" (app.config, Ant, Maven).
	xmlAttrRe = lazyRegexp(`(?i)\b(?:key|name)[ \t]*=[ \t]*"([^"]{1,100})"[ \t]+value[ \t]*=[ \t]*"([^"]*)"`)
	// pairRe is ("NAME", "value"): System.setProperty, os.Setenv,
	// headers.put, config.set and the like.
	pairRe = lazyRegexp(`["'` + "`" + `]([A-Za-z_][A-Za-z0-9_.\-]{1,80})["'` + "`" + `][ \t]*,[ \t]*["'` + "`" + `]([^"'` + "`" + `]+)["'` + "`" + `]`)
	// nameValueRe is {name: NAME, value: value} on one line (k8s env
	// entries in flow or JSON style).
	nameValueRe = lazyRegexp(`(?i)["']?name["']?[ \t]*[:=][ \t]*["']?([A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]*,[ \t]*["']?value["']?[ \t]*[:=][ \t]*(?:"([^"]*)"|'([^']*)'|([^\s,}"']+))`)
)

// authSpans finds HTTP credentials: the token after Bearer/Basic/Token
// anywhere, and the value of an Authorization header.
func authSpans(line, lower string) []span {
	var spans []span
	if strings.Contains(lower, "authorization") {
		for _, m := range authorizationRe().FindAllStringSubmatchIndex(line, -1) {
			if authorizationValue(line, m[2], m[3]) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	if !authWord(lower) || !authValuePossible(line) {
		return spans
	}
	for _, m := range authHeaderRe().FindAllStringSubmatchIndex(line, -1) {
		if v := line[m[2]:m[3]]; looksRandom(v) && !strings.Contains(v, "REDACTED") && !knownExamples[v] {
			spans = append(spans, span{m[2], m[3]})
		}
	}
	return spans
}

// authWord reports a lower-case line with a word of authHeaderRe.
func authWord(lower string) bool {
	for _, w := range []string{"bearer", "basic", "token", "digest", "key"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// authorizationValue decides the value line[start:end] of an
// Authorization header: a credential, not a stand-in, a label or a
// variable of the code.
func authorizationValue(line string, start, end int) bool {
	v := line[start:end]
	if strings.Contains(v, "REDACTED") || isPlaceholder(v) || knownExamples[v] || isIdentifierLike(v) || codeVariable(line, start, end) {
		return false
	}
	return len(v) >= 8 && charClasses(v) >= 2 && (hasDigit(v) || len(v) >= 24) && entropy(v) >= 3
}

// authValuePossible reports whether line may hold authHeaderRe's value:
// a space or a tab, then twelve bytes that may be value characters. Any
// byte from 0x80 counts as one: under (?i) the class also takes the
// Kelvin sign and the long s. Most code lines with "key" fail it, and the
// regular expression does not run on them.
func authValuePossible(line string) bool {
	run := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if isAlnum(c) || c >= 0x80 || strings.IndexByte("._~+/:-", c) >= 0 {
			run++
			if run == 12 && i >= 12 && (line[i-12] == ' ' || line[i-12] == '\t') {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// codeVariable reports an unquoted short identifier that is the whole
// value ('Authorization': type1msg): a variable of the code.
func codeVariable(line string, start, end int) bool {
	v := line[start:end]
	if start > 0 && strings.IndexByte("\"'`", line[start-1]) >= 0 || len(v) >= 20 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isAlnum(v[i]) && v[i] != '_' {
			return false
		}
	}
	return isLetter(v[0]) && v[0] >= 'a'
}

// urlPasswordSpans finds the password of every URL with user info
// (scheme://user:password@host, user possibly empty). The password may
// hold '@', '/' and ':': it ends at the last '@' of the URL that is
// followed by a host and not preceded by '/'.
func urlPasswordSpans(line string) []span {
	var spans []span
	for from := 0; ; {
		i := strings.Index(line[from:], "://")
		if i < 0 {
			return spans
		}
		i += from
		from = i + 3
		if !urlScheme(line, i) {
			continue
		}
		start := i + 3
		end := start
		for end < len(line) && !isURLStop(line[end]) {
			end++
		}
		if ps, pe, ok := urlPassword(line[start:end]); ok {
			spans = append(spans, span{start + ps, start + pe})
			from = start + pe
		}
	}
}

// urlScheme reports a scheme (letters, digits, + . -, a letter first)
// before the "://" at i.
func urlScheme(line string, i int) bool {
	j := i
	for j > 0 && (isAlnum(line[j-1]) || line[j-1] == '+' || line[j-1] == '.' || line[j-1] == '-') {
		j--
	}
	return j < i && isLetter(line[j])
}

// urlPassword finds the password in what follows a scheme's "://": after
// the first ':' of the user info, up to the last '@' followed by a host
// and not preceded by '/'; ok is false when there is none or it is a
// stand-in.
func urlPassword(u string) (int, int, bool) {
	colon := strings.IndexByte(u, ':')
	if colon < 0 || strings.IndexByte(u[:colon], '/') >= 0 || strings.IndexByte(u[:colon], '@') >= 0 {
		return 0, 0, false // no user info: the colon is a port or in the path
	}
	at := -1
	for k := len(u) - 1; k > colon; k-- {
		if u[k] == '@' && u[k-1] != '/' && hostAfter(u[k+1:]) {
			at = k
			break
		}
	}
	if at < 0 || at == colon+1 {
		return 0, 0, false
	}
	pw := u[colon+1 : at]
	if pw[0] == '/' || pw == redacted || isPlaceholderPassword(pw) {
		return 0, 0, false
	}
	return colon + 1, at, true
}

// isURLStop ends a URL: white space, quotes, brackets.
func isURLStop(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '"', '\'', '`', '<', '>', '(', ')', '[', ']', '{', '}', '\\', '|', ',', ';':
		return true
	}
	return false
}

// hostAfter reports whether s starts with a host name (letters, digits,
// '.', '-', '_', or a bracketed address) followed by the end, a port, a
// path or a query.
func hostAfter(s string) bool {
	n := 0
	for n < len(s) && (isAlnum(s[n]) || s[n] == '.' || s[n] == '-' || s[n] == '_' || s[n] == '[' || s[n] == ']' || s[n] == '%') {
		n++
	}
	if n == 0 {
		return false
	}
	return n == len(s) || strings.IndexByte(":/?#,", s[n]) >= 0
}

// placeholderWords are values that stand for a password in documentation.
var placeholderWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true, "changeme": true,
	"change_me": true, "changeit": true, "example": true, "test": true, "user": true, "username": true,
	"token": true, "apikey": true, "api_key": true, "mypassword": true, "yourpassword": true,
	"your_password": true, "dbpassword": true, "db_password": true, "redacted": true, "none": true,
	"null": true, "nil": true, "undefined": true, "empty": true, "foo": true, "bar": true, "baz": true,
	"pw": true, "pass123": true, "password123": true, "p": true, "x": true, "mysecret": true,
	"secretpassword": true, "passw0rd": true, "admin": true, "root": true, "guest": true,
}

// isPlaceholderPassword reports a URL or command-line password that is a
// stand-in: a placeholder word, a run of one character (***, xxxxx), a
// template or variable reference.
func isPlaceholderPassword(v string) bool {
	if isPlaceholder(v) || placeholderWords[strings.ToLower(v)] || knownExamples[v] {
		return true
	}
	if len(v) < 4 || strings.Trim(v, v[:1]) == "" {
		return true // short, or ***, xxxxx, ......
	}
	d := v
	if strings.Contains(v, "%") {
		if u, err := url.PathUnescape(v); err == nil {
			d = u // My%20Pass, pa%2Fssword
		}
	}
	if strings.ContainsAny(d, " \t") || placeholderText(d) {
		return true // words: a description, not a password
	}
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.Contains(v, "${")
}

// placeholderText reports a password (unescaped) that spells a
// placeholder: its letters a placeholder word, password in leetspeak
// (p@ssword, passw0rd), or a stand-in word without a digit.
func placeholderText(d string) bool {
	l := strings.ToLower(d)
	letters := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return -1
	}, l)
	if placeholderWords[letters] || knownExamples[letters] {
		return true
	}
	if leet := strings.NewReplacer("@", "a", "0", "o", "$", "s", "1", "i", "3", "e", "!", "i").Replace(l); leet == "password" || leet == "passwd" {
		return true
	}
	if hasDigit(d) {
		return false
	}
	for _, p := range []string{"xxx", "***", "...", "<", "{", "your", "pass", "secret", "example", "placeholder", "change", "redacted", "%s", "%v"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// knownExamples are credentials printed in specifications and manuals
// (RFC 7617's Aladdin, "open sesame"): documentation, not secrets.
var knownExamples = map[string]bool{
	"QWxhZGRpbjpvcGVuIHNlc2FtZQ==": true, "opensesame": true, "open sesame": true,
	"YWxhZGRpbjpvcGVuc2VzYW1l": true,
}

// cliSpans finds passwords on command lines: curl -u user:pw and -H
// credential headers, mysql -ppw, redis-cli -a pw, sshpass -p pw,
// --password pw.
func cliSpans(line, lower string) []span {
	var spans []span
	if strings.Contains(lower, "curl") || strings.Contains(lower, "--user") || strings.Contains(lower, "-u ") || strings.Contains(lower, "wget") {
		spans = curlSpans(line, lower, spans)
	}
	for _, c := range cliPasswords {
		if c.gate(lower) {
			spans = cliGroupSpans(line, c.re, spans, c.groups...)
		}
	}
	if strings.Contains(line, "-") && hasSecretWordLower(lower) {
		for _, m := range flagPassRe().FindAllStringSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; !strings.HasPrefix(v, "-") && !isIdentifierLike(v) && charClasses(v) >= 2 && cliPassword(v) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	return spans
}

// cliPasswords are the commands whose password follows a flag: the
// expression, the groups that hold the password, and the cheap gate of
// the expression (on the lower-case line).
var cliPasswords = []struct {
	re     *regexp.Regexp
	groups []int
	gate   func(lower string) bool
}{
	{mysqlPassRe(), []int{1, 2}, func(l string) bool {
		return strings.Contains(l, "mysql") || strings.Contains(l, "mariadb") || strings.Contains(l, "mongo")
	}},
	{redisPassRe(), []int{1}, func(l string) bool { return strings.Contains(l, "redis-cli") }},
	{sshpassRe(), []int{1}, func(l string) bool { return strings.Contains(l, "sshpass") }},
}

// cliGroupSpans appends the groups of re's matches that are not
// stand-ins.
func cliGroupSpans(line string, re *regexp.Regexp, spans []span, groups ...int) []span {
	for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
		for _, gi := range groups {
			if m[2*gi] >= 0 && cliPassword(line[m[2*gi]:m[2*gi+1]]) {
				spans = append(spans, span{m[2*gi], m[2*gi+1]})
			}
		}
	}
	return spans
}

// curlSpans finds curl's credentials: -u user:password (the user too: it
// is often an app key), -u TOKEN:, and -H "Token: …" headers.
func curlSpans(line, lower string, spans []span) []span {
	for _, m := range curlUserRe().FindAllStringSubmatchIndex(line, -1) {
		if pw := strings.TrimSuffix(strings.TrimPrefix(line[m[4]:m[5]], "{"), "}"); cliPassword(pw) {
			spans = append(spans, span{m[2], m[5]}) // user:password
		}
	}
	for _, m := range curlTokenRe().FindAllStringSubmatchIndex(line, -1) {
		if v := line[m[2]:m[3]]; (looksRandom(v) || charClasses(v) >= 3 && entropy(v) >= 3) && cliPassword(v) {
			spans = append(spans, span{m[2], m[3]})
		}
	}
	if !strings.Contains(line, "-H") && !strings.Contains(lower, "--header") {
		return spans
	}
	for _, m := range curlHeaderRe().FindAllStringSubmatchIndex(line, -1) {
		if headerCredential(line[m[2]:m[3]], line[m[4]:m[5]]) {
			spans = append(spans, span{m[4], m[5]})
		}
	}
	return spans
}

// headerCredential decides the value of a header given on a command line
// (-H "Token: …"): a credential's name, a value with a digit that is no
// identifier, a variable or a stand-in.
func headerCredential(name, v string) bool {
	return nameKind(name) != notSecret && hasDigit(v) && !isIdentifierLike(v) && entropy(v) >= 2.5 && cliPassword(v)
}

// cliPassword reports a value on a command line that is not a stand-in.
func cliPassword(v string) bool { return v != redacted && !isPlaceholderPassword(v) }

// netrcSpans finds the password (and account) of .netrc entries, in a file
// of any name.
func netrcSpans(line, lower string) []span {
	if !netrcLine(lower) {
		return nil
	}
	var spans []span
	for _, m := range netrcRe().FindAllStringSubmatchIndex(line, -1) {
		if netrcValue(line[m[2]:m[3]]) {
			spans = append(spans, span{m[2], m[3]})
		}
	}
	return spans
}

// netrcLine reports a lower-case line that reads as a .netrc entry: a
// password or account word, and a netrc keyword first.
func netrcLine(lower string) bool {
	if !strings.Contains(lower, "password") && !strings.Contains(lower, "passwd") && !strings.Contains(lower, "account") {
		return false
	}
	t := strings.TrimSpace(lower)
	for _, p := range []string{"machine ", "default", "password ", "passwd ", "login ", "account "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// netrcValue decides a .netrc password: not a stand-in, nor a type of a
// struct field (Password *uint16, password string;).
func netrcValue(v string) bool {
	if v == redacted || isPlaceholderPassword(v) || strings.HasSuffix(v, ";") || strings.IndexByte("*&[(", v[0]) >= 0 {
		return false
	}
	return !typeWords[strings.ToLower(strings.TrimLeft(v, "*[]&"))] && !goTypeRe().MatchString(v)
}

// goTypeRe is a built-in type name (a struct field "Password uint16").
var goTypeRe = lazyRegexp(`^(?:u?int(?:8|16|32|64|ptr)?|float(?:32|64)|complex(?:64|128)|uintptr|rune|byte|bool|string|DWORD|LPWSTR|LPCWSTR|PWSTR|HANDLE|Handle)$`)

// xmlSpans finds <password>value</password> and key="password"
// value="value" in markup.
func xmlSpans(line, lower string) []span {
	var spans []span
	if strings.Contains(line, "</") {
		for _, m := range xmlElemRe().FindAllStringSubmatchIndex(line, -1) {
			if open := line[m[2]:m[3]]; open == line[m[6]:m[7]] && markupNamedValue(localName(open), line[m[4]:m[5]]) {
				spans = append(spans, span{m[4], m[5]})
			}
		}
	}
	if strings.Contains(lower, "value") {
		for _, m := range xmlAttrRe().FindAllStringSubmatchIndex(line, -1) {
			if markupNamedValue(line[m[2]:m[3]], line[m[4]:m[5]]) {
				spans = append(spans, span{m[4], m[5]})
			}
		}
	}
	return spans
}

// markupNamedValue is namedValue for markup (key="…Password" value="…",
// <password>…</password>). An attribute or an element holds a literal,
// never code, so a password made of words (TestSourcePassword,
// CleartextPassword1), which in code would be a variable or a label, is a
// password there; stand-ins (placeholder words, references) are not.
func markupNamedValue(name, v string) bool {
	if nameKind(name) == passwordName {
		v = strings.TrimSpace(v)
		if len(v) >= minPasswordLen && !strings.ContainsAny(v, " \t") && !passwordStandIn(v) && (identWithSecretWord(v) || camelWordsRe().MatchString(v)) {
			return true
		}
	}
	return namedValue(name, v)
}

// localName drops an XML namespace prefix.
func localName(n string) string {
	if i := strings.LastIndexByte(n, ':'); i >= 0 {
		return n[i+1:]
	}
	return n
}

// markupValue decides a value found by position in markup or a pair.
func markupValue(v string, password bool) bool {
	v = strings.TrimSpace(v)
	if password {
		return passwordValue(v, true)
	}
	return secretValue(v, true, false)
}

// pairSpans finds ("NAME", "value") pairs whose NAME is secret-looking
// (System.setProperty("X_TOKEN", "…"), os.Setenv, headers.put) and
// {name: NAME, value: …} entries on one line.
func pairSpans(line, lower string) []span {
	var spans []span
	if strings.Contains(line, "\",") || strings.Contains(line, "',") || strings.Contains(line, "`,") {
		for _, m := range pairRe().FindAllStringSubmatchIndex(line, -1) {
			if namedValue(line[m[2]:m[3]], line[m[4]:m[5]]) {
				spans = append(spans, span{m[4], m[5]})
			}
		}
	}
	if strings.Contains(lower, "value") && strings.Contains(lower, "name") {
		for _, m := range nameValueRe().FindAllStringSubmatchIndex(line, -1) {
			for gi := 2; gi <= 4; gi++ {
				if m[2*gi] >= 0 && namedValue(line[m[2]:m[3]], line[m[2*gi]:m[2*gi+1]]) {
					spans = append(spans, span{m[2*gi], m[2*gi+1]})
				}
			}
		}
	}
	return spans
}

// namedValue decides a quoted value found beside its name (a pair, markup,
// an env entry): a secret under a secret name, or a provider's credential
// under a name that holds the provider (DROPBOX_API_TOKEN is both).
func namedValue(name, v string) bool {
	if k := nameKind(name); k != notSecret && markupValue(v, k == passwordName) {
		return true
	}
	return keyedName(name, flagProvider) && providerValue(v, true)
}
