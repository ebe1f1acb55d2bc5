package collector

import (
	"crypto/sha256"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	lru "github.com/hashicorp/golang-lru/v2"
)

// redacted replaces every secret value.
const redacted = "[REDACTED]"

// keyFormat is one provider's key or token format, found anywhere in a line.
type keyFormat struct {
	name string
	// markers are literal substrings one of which every match contains; a
	// text without any of them skips the regular expression.
	markers []string
	re      *regexp.Regexp
	// valid, when set, must accept the match (keeps false positives such
	// as CSS class names "sk-spinner-..." out).
	valid func(string) bool
}

// keyFormats are the provider formats of docs/security.md.
var keyFormats = []keyFormat{
	{name: "OpenAI/Anthropic key", markers: []string{"sk-"},
		re: regexp.MustCompile(`\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), valid: hasDigitAndLetter},
	{name: "AWS access key id", markers: []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"},
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`)},
	{name: "GitHub token", markers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}`)},
	{name: "GitHub fine-grained token", markers: []string{"github_pat_"},
		re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}`)},
	{name: "GitLab token", markers: []string{"glpat-"},
		re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`)},
	{name: "Slack token", markers: []string{"xox"},
		re: regexp.MustCompile(`\bxox[abporst]-[A-Za-z0-9-]{10,}`), valid: hasDigit},
	{name: "Slack webhook", markers: []string{"hooks.slack.com"},
		re: regexp.MustCompile(`hooks\.slack\.com/services/[A-Za-z0-9_/-]{16,}`)},
	{name: "Google API key", markers: []string{"AIza"},
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{name: "Stripe key", markers: []string{"_live_", "_test_"},
		re: regexp.MustCompile(`\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}`)},
	{name: "npm token", markers: []string{"npm_"},
		re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,}`), valid: hasDigitAndLetter},
	{name: "Hugging Face token", markers: []string{"hf_"},
		re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`), valid: hasDigitAndLetter},
	{name: "JSON Web Token", markers: []string{"eyJ"},
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`)},
}

var (
	// authHeaderRe finds the credential of an HTTP Authorization value.
	authHeaderRe = regexp.MustCompile(`(?i)\b(?:bearer|basic)[ \t]+([A-Za-z0-9._~+/-]{16,}=*)`)
	// urlCredRe finds the password of a URL with user info.
	urlCredRe = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"'` + "`" + `]+:([^/\s@"'` + "`" + `]+)@`)
	// pemBeginRe and pemEndRe delimit a private key block.
	pemBeginRe = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	pemEndRe   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	// pemBodyRe is a line of a key body, possibly quoted and concatenated
	// as in source code ("MIIE...\n" +).
	pemBodyRe = regexp.MustCompile(`^[ \t]*["'` + "`" + `]?[A-Za-z0-9+/=]+(?:\\n)?["'` + "`" + `]?[ \t]*[+,]?[ \t]*\r?$`)
	// pemHeaderRe is a header line inside a key block (Proc-Type, DEK-Info).
	pemHeaderRe = regexp.MustCompile(`^[ \t]*[A-Za-z-]+: `)
	// base64RunRe is a run of base64 characters.
	base64RunRe = regexp.MustCompile(`[A-Za-z0-9+/=]{2,}`)
)

// secretWords are the last words of names whose values are secrets.
var secretWords = map[string]bool{
	"key": true, "keys": true, "apikey": true, "privatekey": true, "secretkey": true,
	"accesskey": true, "signingkey": true, "masterkey": true, "encryptionkey": true,
	"secret": true, "secrets": true, "token": true, "tokens": true,
	"credential": true, "credentials": true, "auth": true,
}

// passwordWords are the last words of names whose values are passwords;
// their values need not mix character classes to be redacted.
var passwordWords = map[string]bool{
	"password": true, "passwords": true, "passwd": true, "pwd": true,
	"pass": true, "passphrase": true,
}

// minSecretLen and minEntropy are the thresholds of the assignment rule: a
// value of at least minSecretLen characters with a Shannon entropy of at
// least minEntropy bits per character assigned to a secret-looking name.
const (
	minSecretLen = 16
	minEntropy   = 3.0
)

// maxRedactPasses bounds the passes over one line; a pass can uncover a key
// that an overlapping match hid. Past the bound the whole line goes.
const maxRedactPasses = 4

// Redact replaces secret-looking values line by line with [REDACTED],
// returning the new text and how many values were replaced. Only the value
// goes; the rest of the line and the number of lines stay, so line numbers
// remain true. It finds provider key formats (OpenAI, Anthropic, AWS,
// GitHub, GitLab, Slack, Google, Stripe, npm, Hugging Face, JWTs), private
// key blocks, Authorization credentials, passwords in URLs, and high-entropy
// literals assigned to names such as API_KEY, clientSecret, token or
// password. docs/security.md lists the rules.
func Redact(text string) (string, int) {
	if text == "" {
		return text, 0
	}
	lines := strings.Split(text, "\n")
	total := redactPEMBlocks(lines)
	if total > 0 {
		text = strings.Join(lines, "\n")
	}
	g := newGates(text)
	lower := strings.Split(g.lower, "\n")
	for i, line := range lines {
		out, n := redactLine(line, lower[i], g)
		lines[i] = out
		total += n
	}
	if total == 0 {
		return text, 0
	}
	return strings.Join(lines, "\n"), total
}

// gates records which rules can match anywhere in a text, so that lines
// skip the others; lower is the text with ASCII letters in lower case (same
// byte offsets).
type gates struct {
	active            []*keyFormat
	lower             string
	auth, url, assign bool
}

func newGates(text string) *gates {
	g := &gates{active: activeFormats(text), lower: asciiLower(text)}
	g.auth = strings.Contains(g.lower, "bearer") || strings.Contains(g.lower, "basic")
	g.url = strings.Contains(text, "://")
	g.assign = hasSecretWordLower(g.lower)
	return g
}

// asciiLower lowers ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// activeFormats returns the key formats whose markers occur in text.
func activeFormats(text string) []*keyFormat {
	var out []*keyFormat
	for i := range keyFormats {
		for _, m := range keyFormats[i].markers {
			if strings.Contains(text, m) {
				out = append(out, &keyFormats[i])
				break
			}
		}
	}
	return out
}

// redactPEMBlocks redacts the bodies of private key blocks in place: a block
// on one line (escaped newlines) loses what lies between its markers; a block
// over several lines keeps its BEGIN and END lines, its first body line
// becomes [REDACTED] and the other body lines are emptied, quotes and
// concatenation operators kept. Each block counts once.
func redactPEMBlocks(lines []string) int {
	count := 0
	for i, from := 0, 0; i < len(lines); {
		loc := pemBeginRe.FindStringIndex(lines[i][from:])
		if loc == nil {
			i, from = i+1, 0
			continue
		}
		line := lines[i]
		head, rest := line[:from+loc[1]], line[from+loc[1]:]
		if end := pemEndRe.FindStringIndex(rest); end != nil {
			body := rest[:end[0]]
			if strings.Trim(body, `\n "'+`) != "" && body != redacted {
				body = redacted
				count++
			}
			lines[i] = head + body + rest[end[0]:]
			from = len(head) + len(body) + end[1] - end[0]
			continue
		}
		first := true
		if pemBodyRe.MatchString(strings.TrimPrefix(rest, `\n`)) {
			lines[i] = head + redactRuns(rest, &first)
		}
		i, from = i+1, 0
		for ; i < len(lines); i++ {
			next := lines[i]
			if end := pemEndRe.FindStringIndex(next); end != nil {
				body := redactRuns(next[:end[0]], &first)
				lines[i] = body + next[end[0]:]
				from = len(body) + end[1] - end[0]
				break
			}
			if pemHeaderRe.MatchString(next) || strings.TrimSpace(next) == "" {
				continue
			}
			if !pemBodyRe.MatchString(next) {
				break
			}
			lines[i] = redactRuns(next, &first)
		}
		if !first {
			count++
		}
	}
	return count
}

// redactRuns replaces the base64 runs of a key body line: the block's first
// run becomes [REDACTED], later ones vanish. An escaped newline (\n) stays.
func redactRuns(s string, first *bool) string {
	var b strings.Builder
	prev := 0
	for _, loc := range base64RunRe.FindAllStringIndex(s, -1) {
		start := loc[0]
		if start > 0 && s[start-1] == '\\' {
			start++ // the n of an escaped newline
		}
		if loc[1]-start < 2 {
			continue
		}
		b.WriteString(s[prev:start])
		if *first {
			*first = false
			b.WriteString(redacted)
		}
		prev = loc[1]
	}
	b.WriteString(s[prev:])
	return b.String()
}

// span is a byte range of a line to replace.
type span struct{ start, end int }

// redactLine applies the single-line rules until nothing more is found;
// lower is line with ASCII letters in lower case.
func redactLine(line, lower string, g *gates) (string, int) {
	count := 0
	for pass := 0; pass < maxRedactPasses; pass++ {
		spans := findSecrets(line, lower, g)
		if len(spans) == 0 {
			return line, count
		}
		line, count = replaceSpans(line, spans), count+len(spans)
		lower = asciiLower(line)
	}
	if len(findSecrets(line, lower, g)) > 0 {
		// Overlapping matches kept uncovering new ones: give up on the
		// line rather than risk leaking part of it.
		cr := ""
		if strings.HasSuffix(line, "\r") {
			cr = "\r"
		}
		return redacted + cr, count + 1
	}
	return line, count
}

// findSecrets returns the merged spans of every secret on a line.
func findSecrets(line, lower string, g *gates) []span {
	var spans []span
	for _, f := range g.active {
		for _, loc := range f.re.FindAllStringIndex(line, -1) {
			if f.valid == nil || f.valid(line[loc[0]:loc[1]]) {
				spans = append(spans, span{loc[0], loc[1]})
			}
		}
	}
	if g.auth && (strings.Contains(lower, "bearer") || strings.Contains(lower, "basic")) {
		for _, m := range authHeaderRe.FindAllStringSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; looksRandom(v) && !strings.Contains(v, "REDACTED") {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	if g.url && strings.Contains(line, "://") {
		for _, m := range urlCredRe.FindAllStringSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; v != redacted && !isPlaceholder(v) {
				spans = append(spans, span{m[2], m[3]})
			}
		}
	}
	if g.assign && hasSecretWordLower(lower) {
		spans = append(spans, findAssignments(line)...)
	}
	return mergeSpans(spans)
}

// findAssignments returns the spans of secret values assigned to
// secret-looking names: `name = value`, `name: value`, `name := value` and
// `name => value`, the name optionally quoted, the value quoted or bare. For
// a quoted value the span is inside the quotes. It is a hand-written scanner
// rather than a regular expression because it runs on most lines of most
// files.
func findAssignments(line string) []span {
	var spans []span
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '=' && c != ':' {
			continue
		}
		opStart, opEnd := i, i+1
		switch {
		case c == ':' && opEnd < len(line) && line[opEnd] == '=':
			opEnd++ // :=
		case c == '=' && opEnd < len(line) && line[opEnd] == '>':
			opEnd++ // =>
		case c == '=' && opEnd < len(line) && line[opEnd] == '=':
			i = opEnd // == is a comparison
			continue
		case c == ':' && opEnd < len(line) && line[opEnd] == ':':
			i = opEnd // :: is a scope
			continue
		}
		name := nameBefore(line, opStart)
		if name == "" || !hasSecretWord(name) {
			i = opEnd - 1
			continue
		}
		vs, ve, quoted := valueAfter(line, opEnd)
		if vs < 0 {
			i = opEnd - 1
			continue
		}
		i = ve - 1
		if quoted {
			i = ve // the closing quote
		}
		kind := nameKind(name)
		if kind == notSecret {
			continue
		}
		if !quoted && ve < len(line) && (line[ve] == '(' || line[ve] == '[') {
			continue // a call or an index expression
		}
		if secretValue(line[vs:ve], quoted, kind == passwordName) {
			spans = append(spans, span{vs, ve})
		}
	}
	return spans
}

// nameBefore returns the name that ends just before the operator at op:
// letters, digits, _ . and -, optionally quoted, spaces allowed before the
// operator. It is empty when there is none, when the name has no letter, or
// when it is a shell or PHP variable ($name).
func nameBefore(line string, op int) string {
	j := op
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	if j > 0 && (line[j-1] == '"' || line[j-1] == '\'' || line[j-1] == '`') {
		j--
	}
	end := j
	for j > 0 && isNameByte(line[j-1]) {
		j--
	}
	for j < end && !isLetter(line[j]) && line[j] != '_' {
		j++ // a name starts with a letter or _
	}
	if j == end || (j > 0 && line[j-1] == '$') {
		return ""
	}
	return line[j:end]
}

// valueAfter returns the value that starts after the operator ending at
// from (spaces skipped): a quoted string (span inside the quotes, quoted
// true) or a bare run up to white space, a quote or one of , ; ( ) { } [ ]
// < > & |. vs is -1 when there is no value.
func valueAfter(line string, from int) (vs, ve int, quoted bool) {
	k := from
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k == len(line) {
		return -1, -1, false
	}
	switch q := line[k]; q {
	case '"', '\'', '`':
		for e := k + 1; e < len(line); e++ {
			switch line[e] {
			case '\\':
				if q != '`' {
					e++
				}
			case q:
				return k + 1, e, true
			}
		}
		return -1, -1, false
	}
	e := k
	for e < len(line) && !isValueStop(line[e]) {
		e++
	}
	if e == k || line[k] == '=' {
		return -1, -1, false // nothing, or a comparison written with spaces
	}
	return k, e, false
}

func isNameByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isValueStop(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\v', '\f', '"', '\'', '`', ',', ';', '(', ')', '{', '}', '[', ']', '<', '>', '&', '|':
		return true
	}
	return false
}

type nameClass int

const (
	notSecret nameClass = iota
	secretName
	passwordName
)

// nameKind classifies a name by its last word (split at _ . - and camelCase
// boundaries): API_KEY, apiKey, client-secret, GITHUB_TOKEN are secret
// names; password, DB_PASS, userPwd are password names; tokenCount and
// secretsManager are not.
func nameKind(name string) nameClass {
	words := splitWords(name)
	if len(words) == 0 {
		return notSecret
	}
	last := words[len(words)-1]
	switch {
	case passwordWords[last]:
		return passwordName
	case secretWords[last]:
		return secretName
	}
	if len(words) == 1 {
		// One lower-case word: apikey, accesstoken, dbpassword.
		for _, suffix := range []string{"password", "passwd"} {
			if strings.HasSuffix(last, suffix) {
				return passwordName
			}
		}
		for _, suffix := range []string{"token", "secret", "apikey"} {
			if strings.HasSuffix(last, suffix) {
				return secretName
			}
		}
	}
	return notSecret
}

// splitWords splits an identifier into lower-case words.
func splitWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '.' || r == '-':
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// fooBar → foo|Bar; APIKey → API|Key
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// secretValue decides whether a literal assigned to a secret-looking name is
// a secret: long enough, random-looking, not a placeholder, a path, a URL or
// (bare values) a code expression.
func secretValue(v string, quoted, password bool) bool {
	if len(v) < minSecretLen || strings.Contains(v, "REDACTED") || isPlaceholder(v) {
		return false
	}
	if strings.ContainsAny(v, " \t") || strings.Contains(v, "://") {
		return false
	}
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(v, p) {
			return false
		}
	}
	if !quoted {
		if dottedIdentRe.MatchString(v) || !hasDigit(v) {
			return false
		}
	}
	if !password && charClasses(v) < 2 {
		return false
	}
	return entropy(v) >= minEntropy
}

// dottedIdentRe is a selector expression such as process.env.DB_PASSWORD.
var dottedIdentRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

// isPlaceholder reports template and environment references
// (${TOKEN}, $TOKEN, {{ .Values.token }}, %(token)s, <your-token>).
func isPlaceholder(v string) bool {
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "%(") {
		return true
	}
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "%")
}

// looksRandom is the test for credentials found by position (Authorization
// values): mixed character classes and high entropy.
func looksRandom(v string) bool {
	return len(v) >= minSecretLen && charClasses(v) >= 2 && hasDigit(v) && entropy(v) >= minEntropy
}

// charClasses counts the classes among lower case, upper case, digits and
// symbols (other than the separators . _ -) that v uses.
func charClasses(v string) int {
	var lower, upper, digit, sym int
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			lower = 1
		case r >= 'A' && r <= 'Z':
			upper = 1
		case r >= '0' && r <= '9':
			digit = 1
		case r == '.' || r == '_' || r == '-':
		default:
			sym = 1
		}
	}
	return lower + upper + digit + sym
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasDigitAndLetter(s string) bool {
	return hasDigit(s) && strings.IndexFunc(s, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}) >= 0
}

// secretWordStems are the stems of secret-looking names, the cheap gate of
// the assignment rule.
var secretWordStems = []string{"key", "secret", "token", "pass", "pwd", "auth", "credential"}

// hasSecretWord reports whether s mentions a secret word in any case.
func hasSecretWord(s string) bool {
	for _, w := range secretWordStems {
		if hasFold(s, w) {
			return true
		}
	}
	return false
}

// hasSecretWordLower is hasSecretWord for a lower-case text.
func hasSecretWordLower(lower string) bool {
	for _, w := range secretWordStems {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// hasFold reports whether s contains the lower-case ASCII word w in any case,
// without allocating.
func hasFold(s, w string) bool {
	n := len(w)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// mergeSpans sorts spans and merges the overlapping ones.
func mergeSpans(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if s.start < last.end {
			if s.end > last.end {
				last.end = s.end
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// replaceSpans replaces each span of line with [REDACTED].
func replaceSpans(line string, spans []span) string {
	var b strings.Builder
	prev := 0
	for _, s := range spans {
		b.WriteString(line[prev:s.start])
		b.WriteString(redacted)
		prev = s.end
	}
	b.WriteString(line[prev:])
	return b.String()
}

// cleanTexts remembers the content hashes of texts that Redact left
// unchanged, so that a file read again unchanged (the next pack of the same
// tree) is not scanned again. It holds hashes only, never text.
var cleanTexts, _ = lru.New[[32]byte, struct{}](16384)

// redactCached is Redact with the clean-text memo; short texts are scanned
// directly, which costs less than hashing them.
func redactCached(text string) (string, int) {
	if len(text) < 4096 {
		return Redact(text)
	}
	h := sha256.New()
	_, _ = io.WriteString(h, text)
	var k [32]byte
	h.Sum(k[:0])
	if cleanTexts.Contains(k) {
		return text, 0
	}
	out, n := Redact(text)
	if n == 0 {
		cleanTexts.Add(k, struct{}{})
	}
	return out, n
}
