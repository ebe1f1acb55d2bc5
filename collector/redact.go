package collector

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	lru "github.com/hashicorp/golang-lru/v2"
)

// redacted replaces every secret value.
const redacted = "[REDACTED]"

var (
	// authHeaderRe finds the credential of an HTTP Authorization value
	// (Bearer, Basic, Token, Digest and vendor schemes).
	authHeaderRe = lazyRegexp(`(?i)\b(?:bearer|basic|token|digest|sso-key|apikey|api-key)[ \t]+([A-Za-z0-9._~+/:-]{12,}=*)`)
	// pemBeginRe and pemEndRe delimit a private key block (PKCS#1/#8,
	// EC, DSA, OpenSSH, encrypted, PGP).
	pemBeginRe = lazyRegexp(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	pemEndRe   = lazyRegexp(`-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)
	// pemBodyRe is a line of a key body, possibly quoted and concatenated
	// as in source code ("MIIE...\n" +).
	// A body line may carry a comment or list prefix ("# ", "// ",
	// "- \"") when the key sits in a comment or a YAML list.
	pemBodyRe = lazyRegexp(`^[ \t]*(?:#+ ?|//+ ?|;+ ?|\*+ ?|- ?)?["'` + "`" + `]?[A-Za-z0-9+/=]+(?:\\n)?["'` + "`" + `]?[ \t]*[+,\\]?[ \t]*\r?$`)
	// pemHeaderRe is a header line inside a key block (Proc-Type, DEK-Info).
	pemHeaderRe = lazyRegexp(`^[ \t]*[A-Za-z-]+: `)
	// base64Run16Re is a run of base64 long enough for a key body (a
	// one-line block "-----BEGIN PRIVATE KEY----- ... -----END" in prose
	// has none).
	base64Run16Re = lazyRegexp(`[A-Za-z0-9+/=]{16,}`)
	// base64RunRe is a run of base64 characters.
	base64RunRe = lazyRegexp(`[A-Za-z0-9+/=]{2,}`)
)

// secretWords are the last words of names whose values are secrets.
var secretWords = map[string]bool{
	"key": true, "apikey": true, "privatekey": true, "secretkey": true,
	"accesskey": true, "signingkey": true, "masterkey": true, "encryptionkey": true,
	"secret": true, "token": true, "credential": true, "credentials": true, "auth": true,
	"apitoken": true, "accesstoken": true, "authtoken": true, "clientsecret": true, "pat": true,
}

// fullSecretNames are whole names (words joined by _) whose values are
// secrets although their last word is not a secret word.
var fullSecretNames = map[string]bool{
	"client_key_data": true, "private_key_id": true, "private_key_data": true, "token_data": true,
	"secret_access_key_id": true, "aws_session_token_id": true, "api_key_id": false,
	"client_secret_value": true, "secret_value": true, "secret_data": true, "auth_data": true,
	"private_key_pem": true, "key_data": true, "sas_url": true, "connection_string": false,
}

// passwordWords are the last words of names whose values are passwords;
// their values need not mix character classes to be redacted.
var passwordWords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true,
	"passcode": true, "pw": true, "dbpass": true, "dbpassword": true,
}

// minSecretLen and minEntropy are the thresholds of the assignment rule: a
// value of at least minSecretLen characters with a Shannon entropy of at
// least minEntropy bits per character assigned to a secret-looking name.
const (
	minSecretLen = 16
	minEntropy   = 3.0
)

// maxCodeLine is the longest line read for assignments and other
// positional shapes; longer lines are minified code or data.
const maxCodeLine = 1000

// maxRedactPasses bounds the passes over one line; a pass can uncover a key
// that an overlapping match hid. Past the bound the whole line goes.
const maxRedactPasses = 4

// Redact replaces secret-looking values line by line with [REDACTED],
// returning the new text and how many values were replaced. Only the value
// goes; the rest of the line and the number of lines stay, so line numbers
// remain true. It finds provider key formats (rules.go: about a hundred
// vendors), private keys of every armour (PEM, OpenSSH, PGP, PuTTY, age),
// JSON Web Tokens, Authorization credentials, passwords in URLs and command
// lines, and literals assigned to secret-looking names in the assignment
// forms of many languages and formats (shapes.go). docs/security.md lists
// the rules.
func Redact(text string) (string, int) { return redactDepth(text, 0) }

// maxBase64Depth bounds how deep base64 inside base64 is decoded.
const maxBase64Depth = 2

// redactDepth is Redact for a text found depth base64 envelopes deep.
func redactDepth(text string, depth int) (string, int) {
	if text == "" {
		return text, 0
	}
	total := 0
	if blocksPossible(text) {
		lines := strings.Split(text, "\n")
		if n := redactBlocks(text, lines); n > 0 {
			text, total = strings.Join(lines, "\n"), n
		}
	}
	r := lineRedactor{text: text, depth: depth, nLines: strings.Count(text, "\n") + 1}
	r.g = newGates(text, asciiLower(text), r.nLines)
	r.run(false)
	return replaceLines(text, r.repl), total + r.total
}

// HoldsSecret reports whether [Redact] would replace anything in text —
// exactly whether Redact(text) counts a value (TestHoldsSecretIsRedact) —
// for a caller that keeps nothing of a text holding one (the workspace
// index). It runs Redact's passes without building the redacted text:
// the lower-case copy the gates scan goes into a pooled buffer (no
// allocation per file), and the pass stops at the first value found.
func HoldsSecret(text string) bool {
	if text == "" {
		return false
	}
	if blocksPossible(text) {
		// A value found here is counted whatever follows.
		if redactBlocks(text, strings.Split(text, "\n")) > 0 {
			return true
		}
	}
	bp := lowerBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooledLower {
			lowerBufs.Put(bp)
		}
	}()
	*bp = asciiLowerInto((*bp)[:0], text)
	r := lineRedactor{text: text, nLines: strings.Count(text, "\n") + 1}
	r.g = newGates(text, unsafe.String(unsafe.SliceData(*bp), len(text)), r.nLines)
	r.run(true)
	return r.total > 0
}

// lowerBufs pools HoldsSecret's lower-case copies; a buffer over
// maxPooledLower (a file past the default size cap) is left to the
// collector.
var lowerBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledLower = 4 << 20

// run redacts the lines that the gates flag or the provider rules' spans
// touch; with first it stops at the first value found.
func (r *lineRedactor) run(first bool) {
	text := r.text
	if len(r.g.hits) > 0 {
		r.spans = mergeSpans(hitSpans(text, r.g.hits))
	}
	for i, off := 0, 0; i < r.nLines; i++ {
		if first && r.total > 0 {
			return
		}
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		if r.g.flags[i] == 0 && (r.si == len(r.spans) || r.spans[r.si].start > end) {
			off = end + 1 // nothing to look at on this line
			continue
		}
		off, i = r.line(i, off, end)
	}
}

// lineRedactor is redactDepth's pass over the lines of a text: the gates,
// the provider rules' spans (si: the next one), the lines replaced.
type lineRedactor struct {
	text          string
	depth, nLines int
	g             *gates
	spans         []span
	si            int
	repl          []lineReplacement
	total         int
}

// line redacts line i, text[off:end]; it returns where the next line
// starts and the last line it handled (base64 wrapped over lines takes
// several).
func (r *lineRedactor) line(i, off, end int) (int, int) {
	text := r.text
	var pre []span
	if r.si < len(r.spans) && r.spans[r.si].start <= end {
		pre, r.si = lineSpans(r.spans, r.si, off, end)
	}
	fl := r.g.flags[i]
	if fl&flagB64 != 0 && r.depth < maxBase64Depth {
		if next := r.wrapped(off); next > 0 {
			return next, i + strings.Count(text[off:next-1], "\n")
		}
		pre = append(pre, base64Spans(text[off:end], r.depth)...)
		if i+1 < r.nLines && opensBlock(text[off:end]) {
			r.g.flags[i+1] |= flagB64 // KEY_B64: | and the base64 below
		}
	}
	if out, n := redactLine(text[off:end], r.g.lower[off:end], r.g, pre, fl); n > 0 {
		r.repl = append(r.repl, lineReplacement{off, end, out})
		r.total += n
	}
	return end + 1, i
}

// wrapped replaces base64 wrapped over the lines from off on when it
// holds a secret; it returns where the line after the block starts, or
// -1.
func (r *lineRedactor) wrapped(off int) int {
	repl, next := wrappedBase64(r.text, off, r.depth)
	if next < 0 {
		return -1
	}
	r.repl = append(r.repl, repl...)
	r.total++
	for r.si < len(r.spans) && r.spans[r.si].start < next {
		r.si++
	}
	return next
}

// opensBlock reports a line that ends by opening a YAML block scalar
// (key: |, key: >-) or continuing on the next line ('\').
func opensBlock(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	t = strings.TrimRight(t, "+-123456789")
	return strings.HasSuffix(t, "|") || strings.HasSuffix(t, ">") || strings.HasSuffix(t, "\\")
}

// lineReplacement is the new text of the line text[start:end].
type lineReplacement struct {
	start, end int
	line       string
}

// lineSpans returns the spans (from si on) of the line text[off:end],
// relative to the line, and the index of the first span past it.
func lineSpans(spans []span, si, off, end int) ([]span, int) {
	var pre []span
	for si < len(spans) && spans[si].start < end {
		sp := spans[si]
		if sp.end > end {
			sp.end = end // rules do not cross lines; guard anyway
		}
		pre = append(pre, span{sp.start - off, sp.end - off})
		si++
	}
	for si < len(spans) && spans[si].start <= end {
		si++ // a span at the newline itself
	}
	return pre, si
}

// replaceLines returns text with the lines of repl (in order) replaced.
func replaceLines(text string, repl []lineReplacement) string {
	if len(repl) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16*len(repl))
	prev := 0
	for _, r := range repl {
		b.WriteString(text[prev:r.start])
		b.WriteString(r.line)
		prev = r.end
	}
	b.WriteString(text[prev:])
	return b.String()
}

// blocksPossible reports whether a text may hold a secret that spans
// lines (redactBlocks), so that most texts are never split into lines.
func blocksPossible(text string) bool {
	return strings.Contains(text, "PRIVATE KEY") || strings.Contains(text, "Private-Lines:") || strings.Contains(text, "variable \"") || k8sSecretPossible(text) ||
		valueKeyPossible(text)
}

// valueKeyPossible reports whether text holds "value:", "value\":" or
// "value':", in one pass over the text.
func valueKeyPossible(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "value")
		if j < 0 {
			return false
		}
		i += j + len("value")
		if rest := text[i:]; strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "\":") || strings.HasPrefix(rest, "':") {
			return true
		}
	}
}

// gates records which rules can match anywhere in a text, and on which
// lines, so that lines skip the others; lower is the text with ASCII
// letters in lower case (same byte offsets).
type gates struct {
	hits   []hit
	active []*rule
	lower  string
	flags  []lineFlag // per line: the line rules worth running
}

// lineFlag says which line rules a line needs.
type lineFlag uint16 // (flags are bits of lineMarkers)

const (
	flagAssign   lineFlag = 1 << iota // a secret word: assignments, pairs, markup
	flagURL                           // "://": URL passwords
	flagAuth                          // an HTTP authorization word
	flagCLI                           // curl, mysql, sshpass, a -p or --password flag
	flagNetrc                         // a .netrc word
	flagXML                           // markup: "</" or value=
	flagPgpass                        // a .pgpass line (host:port:db:user:password)
	flagProvider                      // a provider's name (asana, discord …): keyed values
	flagNear                          // a provider's name on one of the three lines above
	flagB64                           // base64 that may wrap JSON or KEY=value text
)

// lineMarkers are the lower-case markers of each flag, by their first two
// bytes.
var lineMarkers = func() map[uint16][]marker {
	t := map[uint16][]marker{}
	add := func(f lineFlag, words ...string) {
		for _, w := range words {
			k := uint16(w[0])<<8 | uint16(w[1])
			t[k] = append(t[k], marker{w, f, false})
		}
	}
	// addWS adds markers that must start a word (not follow a letter or
	// a digit): provider names are common bigrams inside words.
	addWS := func(f lineFlag, words ...string) {
		for _, w := range words {
			k := uint16(w[0])<<8 | uint16(w[1])
			t[k] = append(t[k], marker{w, f, true})
		}
	}
	add(flagAssign, secretWordStems...)
	add(flagAssign, "pat") // personal access token; "path" is skipped in scan
	add(flagURL, "://")
	add(flagAuth, "bearer", "basic", "authorization", "digest", "token ", "apikey ", "api-key ", "sso-key ")
	add(flagCLI, "curl", "mysql", "mariadb", "mongo", "sshpass", "wget", "--")
	add(flagNetrc, "machine", "password ", "passwd ", "account ")
	add(flagXML, "</", "value=")
	add(flagAssign, "login", "identified by")
	add(flagCLI, "redis-cli", "-u ")
	add(flagPgpass, ":5432:", ":*:")
	addWS(flagProvider, providerSpellings()...)
	addWS(flagB64, "b64", "base64", "eyj", "eyi", "ewo", "eya", "ew0k")
	return t
}()

// bigram is what the scanner of a text looks up at each byte: the line
// markers and the rule keywords that start with those two bytes.
type bigram struct {
	markers []marker
	kw      []kwRule
	lits    []int // rules whose (case-sensitive) literal starts here
}

// bigramOn is the small filter in front of bigrams (64 KiB: it stays in
// cache): 0 for none, 1 for markers or literals anywhere, 2 for entries
// that must start a word (rule keywords, provider names).
var bigramOn = func() *[1 << 16]uint8 {
	var t [1 << 16]uint8
	for k, b := range bigrams {
		if b == nil {
			continue
		}
		t[k] = 2
		if len(b.lits) > 0 {
			t[k] = 1
		}
		for _, m := range b.markers {
			if !m.wordStart {
				t[k] = 1
			}
		}
	}
	return &t
}()

// trigrams is the filter in front of bigramOn: a bit set by a hash of
// three lower-case bytes and whether they start a word (trigramKey). A
// marker or a literal that may match anywhere sets the bits of its first
// three bytes both at and inside a word; a word that must start a word
// (rule keywords, provider names) sets only the first. A two-byte word
// sets the bits of all 256 third bytes. A collision only lets a position
// through to the exact bigram checks of scan, so the filter never changes
// what is found.
var trigrams = func() *[1 << (trigramBits - 6)]uint64 {
	var t [1 << (trigramBits - 6)]uint64
	for k, b := range bigrams {
		if b == nil {
			continue
		}
		c, d := byte(k>>8), byte(k)
		if c == '\n' {
			panic("collector: a marker starts with a newline") // scan counts lines only at candidates
		}
		add := func(w string, anywhere bool) {
			if len(w) < 2 || w[0] != c || w[1] != d {
				panic("collector: word " + w + " under the wrong bigram")
			}
			set := func(e byte) {
				for _, ws := range []bool{true, false} {
					if ws || anywhere {
						h := trigramKey(c, d, e, ws)
						t[h>>6] |= 1 << (h & 63)
					}
				}
			}
			if len(w) == 2 {
				for e := 0; e < 256; e++ {
					set(byte(e))
				}
				return
			}
			set(w[2])
		}
		for _, m := range b.markers {
			add(m.word, !m.wordStart)
		}
		for _, ri := range b.lits {
			add(asciiLower(rules[ri].lit), true)
		}
		for _, kw := range b.kw {
			add(kw.word, false)
		}
	}
	return &t
}()

// trigramBits is the size of the trigram bit set's index, in bits: 2^18
// bits take 32 KiB and leave about 3 % of the bits set.
const trigramBits = 18

// trigramKey is the index in the trigram bit set of three bytes, at the
// start of a word (ws) or not.
func trigramKey(c, d, e byte, ws bool) uint32 {
	var p byte = 'a' // a letter before: not at the start of a word
	if ws {
		p = ' '
	}
	return trigramIndex(uint32(p) | uint32(c)<<8 | uint32(d)<<16 | uint32(e)<<24)
}

// trigramIndex is trigramKey of four bytes held little-endian: the byte
// before and the three of the trigram.
func trigramIndex(w uint32) uint32 {
	return (w>>8)*0x9E3779B1>>(32-trigramBits)&^1 | uint32(notAlnum[byte(w)])
}

// notAlnum is 1 for the bytes that are not ASCII letters or digits.
var notAlnum = func() (t [256]uint8) {
	for c := range t {
		if !isAlnum(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

// nextCandidate returns the first position from i on that trigrams let
// through. Position 0 and the last two positions of s are always
// candidates (they lack a byte of the four-byte load).
func nextCandidate(s string, i int) int {
	if i == 0 {
		return 0
	}
	t := trigrams
	// Five positions per eight-byte load (each reads the byte before it
	// and its three), tested without a branch between them.
	for ; i+7 <= len(s); i += 5 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i-1:]), 8))
		h0, h1, h2 := trigramIndex(uint32(w)), trigramIndex(uint32(w>>8)), trigramIndex(uint32(w>>16))
		h3, h4 := trigramIndex(uint32(w>>24)), trigramIndex(uint32(w>>32))
		m := t[h0>>6]>>(h0&63)&1 | t[h1>>6]>>(h1&63)&1<<1 | t[h2>>6]>>(h2&63)&1<<2 |
			t[h3>>6]>>(h3&63)&1<<3 | t[h4>>6]>>(h4&63)&1<<4
		if m != 0 {
			return i + bits.TrailingZeros64(m)
		}
	}
	for ; i+3 <= len(s); i++ {
		h := trigramIndex(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[i-1:]), 4)))
		if t[h>>6]&(1<<(h&63)) != 0 {
			return i
		}
	}
	return i
}

// bigrams is indexed by the first two bytes of a marker or keyword; nil
// entries (most) cost one load.
var bigrams = func() *[1 << 16]*bigram {
	var t [1 << 16]*bigram
	for k, ms := range lineMarkers {
		if t[k] == nil {
			t[k] = &bigram{}
		}
		t[k].markers = ms
	}
	for _, ri := range kwIdx.literal {
		lit := asciiLower(rules[ri].lit[:2])
		k := uint16(lit[0])<<8 | uint16(lit[1])
		if t[k] == nil {
			t[k] = &bigram{}
		}
		t[k].lits = append(t[k].lits, ri)
	}
	for k := range kwIdx.bucket {
		if b := kwIdx.bucket[k]; b != 0 {
			if t[k] == nil {
				t[k] = &bigram{}
			}
			t[k].kw = kwIdx.buckets[b-1]
		}
	}
	return &t
}()

type marker struct {
	word      string
	flag      lineFlag
	wordStart bool // only at the start of a word
}

// newGates scans text, whose ASCII letters lowered are lower (same
// length, asciiLower).
func newGates(text, lower string, nLines int) *gates {
	g := &gates{lower: lower}
	g.scan(text, nLines)
	return g
}

// scan makes one pass over the lower-case text: it sets the flags of
// every line from the markers it holds, and records the rule hits (a
// keyword at the start of a word, rules.go).
func (g *gates) scan(text string, nLines int) {
	g.flags = make([]lineFlag, nLines)
	st := scanState{g: g, text: text, h: newHitSet(text), netrc: -1}
	lower := g.lower
	on := bigramOn
	for i := nextCandidate(lower, 0); i+1 < len(lower); i = nextCandidate(lower, i+1) {
		k := uint16(lower[i])<<8 | uint16(lower[i+1])
		v := on[k]
		if v == 0 {
			continue
		}
		ws := i == 0 || !isAlnum(lower[i-1])
		if v == 2 && !ws {
			continue
		}
		st.at(i, bigrams[k], ws)
	}
	spreadNear(g.flags)
	g.hits = st.h.hits
	g.active = activeRules(g.hits)
}

// scanState is what scan keeps between candidates: the line reached and
// where it starts, how far lines are counted, whether the text reads as
// a .netrc file (-1 unknown).
type scanState struct {
	g                      *gates
	text                   string
	h                      *hitSet
	ln, lineStart, counted int
	netrc                  int
}

// at checks the markers, literals and keywords of the bigram at i (ws: i
// starts a word).
func (st *scanState) at(i int, bg *bigram, ws bool) {
	lower := st.g.lower
	for _, m := range bg.markers {
		if (ws || !m.wordStart) && strings.HasPrefix(lower[i:], m.word) && st.markerOK(i, m) {
			st.lineAt(i)
			st.g.flags[st.ln] |= m.flag
		}
	}
	for _, ri := range bg.lits {
		if strings.HasPrefix(st.text[i:], rules[ri].lit) {
			st.lineAt(i)
			st.h.addAt(ri, st.lineStart, i)
		}
	}
	if !ws {
		return
	}
	for _, k := range bg.kw {
		if strings.HasPrefix(lower[i:], k.word) && kwRunOK(lower, i, k) {
			st.lineAt(i)
			st.h.addAt(k.rule, st.lineStart, i)
		}
	}
}

// markerOK checks what a marker found at i needs besides its word: a
// netrc word a .netrc text, "pat" no letter after it (path).
func (st *scanState) markerOK(i int, m marker) bool {
	switch {
	case m.flag == flagNetrc:
		return st.isNetrc()
	case m.word == "pat":
		return i+3 == len(st.g.lower) || !isLetter(st.g.lower[i+3])
	}
	return true
}

// lineAt counts the lines up to i. No marker starts with a newline
// (trigrams checks), so lines are counted only where a marker, literal
// or keyword matches.
func (st *scanState) lineAt(i int) {
	lower := st.g.lower
	if nl := strings.Count(lower[st.counted:i], "\n"); nl > 0 {
		st.ln += nl
		st.lineStart = st.counted + strings.LastIndexByte(lower[st.counted:i], '\n') + 1
	}
	st.counted = i
}

// isNetrc reports (once) whether the text reads as a .netrc file.
func (st *scanState) isNetrc() bool {
	if st.netrc < 0 {
		st.netrc = 0
		if l := st.g.lower; strings.Contains(l, "machine ") && (strings.Contains(l, "login ") || strings.Contains(l, "password ")) {
			st.netrc = 1
		}
	}
	return st.netrc == 1
}

// spreadNear flags the three lines below a line that names a provider.
func spreadNear(flags []lineFlag) {
	for i := len(flags) - 1; i >= 0; i-- {
		if flags[i]&flagProvider != 0 {
			for j := i + 1; j < len(flags) && j <= i+3; j++ {
				flags[j] |= flagNear
			}
		}
	}
}

// kwRunOK checks a keyword's minRun at i.
func kwRunOK(lower string, i int, k kwRule) bool {
	ru := &rules[k.rule]
	switch {
	case ru.minRun == 0:
		return true
	case ru.runAfter:
		return tokenRun(lower[i+len(k.word):]) >= ru.minRun
	}
	return tokenRun(lower[i:]) >= ru.minRun
}

// asciiLower lowers ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	b := asciiLowerInto(make([]byte, 0, len(s)), s)
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is never written again
}

// asciiLowerInto appends s with its ASCII letters lowered to b[:0]
// (growing it when short) and returns it.
func asciiLowerInto(b []byte, s string) []byte {
	if cap(b) < len(s) {
		b = make([]byte, len(s))
	}
	b = b[:len(s)]
	i := 0
	// Eight bytes at a time: find the bytes in A–Z (high bit clear) and
	// set their 0x20 bit.
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
		binary.LittleEndian.PutUint64(b[i:], lower8(w))
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return b
}

// lower8 lowers the ASCII capitals among eight bytes.
func lower8(w uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	h := w &^ high
	geA := h + (0x80-'A')*ones   // high bit set where the byte is ≥ 'A'
	gtZ := h + (0x80-'Z'-1)*ones // high bit set where the byte is > 'Z'
	upper := (geA &^ gtZ) &^ w & high
	return w | upper>>2
}

// redactPEMBlocks redacts the bodies of private key blocks in place: a block
// on one line (escaped newlines) loses what lies between its markers; a block
// over several lines keeps its BEGIN and END lines, its first body line
// becomes [REDACTED] and the other body lines are emptied, quotes and
// concatenation operators kept. Each block counts once.
func redactPEMBlocks(lines []string) int {
	count := 0
	for i, from := 0, 0; i < len(lines); {
		loc := pemBeginRe().FindStringIndex(lines[i][from:])
		if loc == nil {
			i, from = i+1, 0
			continue
		}
		line := lines[i]
		head, rest := line[:from+loc[1]], line[from+loc[1]:]
		if end := pemEndRe().FindStringIndex(rest); end != nil {
			body := rest[:end[0]]
			if base64Run16Re().MatchString(body) && body != redacted {
				body = redacted
				count++
			}
			lines[i] = head + body + rest[end[0]:]
			from = len(head) + len(body) + end[1] - end[0]
			continue
		}
		first := true
		if pemBodyRe().MatchString(strings.TrimPrefix(rest, `\n`)) {
			lines[i] = head + redactRuns(rest, &first)
		}
		i, from = i+1, 0
		for ; i < len(lines); i++ {
			next := lines[i]
			if end := pemEndRe().FindStringIndex(next); end != nil {
				body := redactRuns(next[:end[0]], &first)
				lines[i] = body + next[end[0]:]
				from = len(body) + end[1] - end[0]
				break
			}
			if pemHeaderRe().MatchString(next) || strings.TrimSpace(next) == "" {
				continue
			}
			if !pemBodyRe().MatchString(next) {
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
	for _, loc := range base64RunRe().FindAllStringIndex(s, -1) {
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
// lower is line with ASCII letters in lower case; pre are the spans the
// provider rules found on the line in the first pass.
func redactLine(line, lower string, g *gates, pre []span, fl lineFlag) (string, int) {
	count := 0
	for pass := 0; pass < maxRedactPasses; pass++ {
		var spans []span
		if pass == 0 {
			spans = mergeSpans(append(pre, lineSecrets(line, lower, fl)...))
		} else {
			spans = findSecrets(line, lower, g, fl)
		}
		if len(spans) == 0 {
			return line, count
		}
		line, count = replaceSpans(line, spans), count+len(spans)
		lower = asciiLower(line)
	}
	if len(findSecrets(line, lower, g, fl)) > 0 {
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
func findSecrets(line, lower string, g *gates, fl lineFlag) []span {
	if fl == 0 && len(g.active) == 0 {
		return nil
	}
	return mergeSpans(append(ruleSpans(line, g.active), lineSecrets(line, lower, fl)...))
}

// lineSecrets returns the spans of the rules that work on one line: HTTP
// credentials, URL passwords, command-line passwords, markup and
// assignments to secret-looking names.
func lineSecrets(line, lower string, fl lineFlag) []span {
	var spans []span
	if len(line) > maxCodeLine {
		// Minified code: the heuristics for names and positions read
		// code as assignments; provider formats (run by the caller), URL
		// passwords and authorization values still apply.
		fl &= flagURL | flagAuth
	}
	if fl&flagAuth != 0 {
		spans = append(spans, authSpans(line, lower)...)
	}
	if fl&flagURL != 0 {
		spans = append(spans, urlPasswordSpans(line)...)
	}
	if fl&flagCLI != 0 {
		spans = append(spans, cliSpans(line, lower)...)
	}
	if fl&flagNetrc != 0 {
		spans = append(spans, netrcSpans(line, lower)...)
	}
	if fl&flagPgpass != 0 {
		spans = append(spans, pgpassSpans(line)...)
	}
	if fl&(flagAssign|flagProvider|flagNear) != 0 {
		spans = append(spans, findAssignments(line, fl)...)
	}
	if fl&(flagAssign|flagProvider|flagNear) != 0 {
		spans = append(spans, pairSpans(line, lower)...)
		spans = append(spans, callSpans(line, lower)...)
	}
	if fl&(flagAssign|flagProvider) != 0 {
		if fl&flagXML != 0 {
			spans = append(spans, xmlSpans(line, lower)...)
		}
	}
	return spans
}

// findAssignments returns the spans of secret values assigned to
// secret-looking names: `name = value`, `name: value`, `name := value`,
// `name => value` and the compound forms `.=`, `?=`, `::=`, `+=`, `||=`,
// `??=`; the name optionally quoted, a variable ($name), an index
// (ENV["NAME"], $_ENV['NAME']) or typed (`var name string =`,
// `name: string =`, `val name: String? =`); the value quoted or bare. For
// a quoted value the span is inside the quotes. It is a hand-written
// scanner rather than a regular expression because it runs on most lines
// of most files.
func findAssignments(line string, fl lineFlag) []span {
	var spans []span
	for i := 0; i < len(line); i++ {
		if c := line[i]; c == '=' || c == ':' {
			i = assignmentAt(line, i, fl, &spans)
		}
	}
	return spans
}

// assignmentAt reads the operator at i and the assignment around it,
// appends the span of a secret value to spans, and returns the last byte
// it read (the scan goes on after it).
func assignmentAt(line string, i int, fl lineFlag, spans *[]span) int {
	if i+1 < len(line) && line[i] == '=' && (line[i+1] == '=' || line[i+1] == '~') {
		// == and =~ are comparisons, except NAME==value in a config
		// line, a value that starts with '='.
		if sp, ok := doubleEqualValue(line, i); ok {
			*spans = append(*spans, sp)
			return sp.end - 1
		}
		return i + 1
	}
	opStart, opEnd, ok := assignOperator(line, i)
	if !ok {
		return opEnd - 1
	}
	name := assignedName(line, opStart)
	switch {
	case name == "" || testOutputName(line, opStart, name):
		return opEnd - 1
	case !hasSecretWord(name):
		// A provider's value under a name that holds the provider
		// (ASANA_CLIENT_ID) or below a line that names it.
		return keyedAssignment(line, name, opEnd, fl, spans)
	}
	return secretAssignment(line, name, opStart, opEnd, fl, spans)
}

// assignOperator reads the assignment operator at i (= : := => and the
// compound .= ?= ::= += ||= ??=): where it starts and ends, and false for
// a scope (::) or a comparison (!= <= >=).
func assignOperator(line string, i int) (opStart, opEnd int, ok bool) {
	c := line[i]
	opStart, opEnd = i, i+1
	var next byte
	if opEnd < len(line) {
		next = line[opEnd]
	}
	switch {
	case c == ':' && next == ':':
		return i, i + 1, false // :: is a scope (or the start of ::=)
	case c == ':' && next == '=', c == '=' && next == '>':
		opEnd++
	}
	if c != '=' && next != '=' {
		return opStart, opEnd, true
	}
	for k := 0; k < 3 && opStart > 0 && strings.IndexByte(".?:+|&^", line[opStart-1]) >= 0; k++ {
		opStart--
	}
	return opStart, opEnd, opStart == 0 || strings.IndexByte("!<>=", line[opStart-1]) < 0
}

// doubleEqualValue is the value of NAME==value in a config line (the value
// starts with '='), at the operator i.
func doubleEqualValue(line string, i int) (span, bool) {
	name := assignedName(line, i)
	if name == "" || !hasSecretWord(name) || nameKind(name) == notSecret {
		return span{}, false
	}
	if le, ok := lineValue(line, i, i+1, true); ok && symbolSecret(line[i+1:le]) {
		return span{i + 1, le}, true
	}
	return span{}, false
}

// keyedAssignment reads the value assigned to name (which has no secret
// word) when the name or a line above names a provider; it returns the
// last byte read.
func keyedAssignment(line, name string, opEnd int, fl lineFlag, spans *[]span) int {
	if fl&(flagProvider|flagNear) == 0 || !keyedName(name, fl) {
		return opEnd - 1
	}
	vs, ve, quoted := valueAfter(line, opEnd)
	if vs >= 0 && !quoted {
		if fs, fe, ok := fallbackValue(line, ve); ok {
			vs, ve, quoted = fs, fe, true
		}
	}
	if vs >= 0 && providerValue(line[vs:ve], quoted) && (quoted || ve == len(line) || isValueStop(line[ve])) {
		*spans = append(*spans, span{vs, ve})
		return ve
	}
	return opEnd - 1
}

// secretAssignment reads the value assigned to a name with a secret word
// in it; it returns the last byte read.
func secretAssignment(line, name string, opStart, opEnd int, fl lineFlag, spans *[]span) int {
	vs, ve, quoted := valueAfter(line, opEnd)
	if vs < 0 {
		return symbolValue(line, name, opStart, opEnd, spans)
	}
	kind := nameKind(name)
	if !quoted {
		if fe, ok := fallbackAssignment(line, ve, kind, spans); ok {
			return fe
		}
	}
	last := ve - 1
	if quoted {
		last = ve // the closing quote
	}
	if kind == notSecret {
		return last
	}
	if !quoted && cutShort(line, ve) {
		if le, ok := cutValue(line, opStart, vs, ve, kind); ok {
			if secretValue(line[vs:le], false, kind == passwordName) || symbolSecret(line[vs:le]) {
				*spans = append(*spans, span{vs, le})
			}
			return le - 1
		}
		if line[ve] == '(' || line[ve] == '[' {
			return last // a call or an index expression
		}
	}
	if assignedSecret(line[vs:ve], name, kind, quoted, fl) {
		*spans = append(*spans, span{vs, ve})
	}
	return last
}

// fallbackAssignment reads the literal after a default operator that
// follows the bare value ending at ve (process.env.X || 'literal',
// os.getenv("X") or "literal"); it returns the literal's end.
func fallbackAssignment(line string, ve int, kind nameClass, spans *[]span) (int, bool) {
	fs, fe, ok := fallbackValue(line, ve)
	if !ok {
		return 0, false
	}
	if kind != notSecret && secretValue(line[fs:fe], true, kind == passwordName) {
		*spans = append(*spans, span{fs, fe})
	}
	return fe, true
}

// assignedSecret decides a value assigned to a secret name of kind kind:
// a secret, or a provider's credential under a name or a line that
// names the provider.
func assignedSecret(v, name string, kind nameClass, quoted bool, fl lineFlag) bool {
	if secretValue(v, quoted, kind == passwordName) {
		return true
	}
	return fl&(flagProvider|flagNear) != 0 && keyedName(name, fl) && providerValue(v, quoted)
}

// cutShort reports a bare value that ends at ve on a symbol (not white
// space, not the end of the line).
func cutShort(line string, ve int) bool {
	return ve < len(line) && line[ve] != ' ' && line[ve] != '\t' && line[ve] != '\r' && isValueStop(line[ve])
}

// cutValue is a bare value cut short by a symbol at ve: in a config line
// (NAME=value and nothing else) the value runs to the end. A first piece
// too short to be a secret itself may be followed by what looks like
// more fields (w&LRM3…=): that is one value.
func cutValue(line string, opStart, vs, ve int, kind nameClass) (int, bool) {
	short := ve-vs < minSecretLen && line[ve] == '&'
	return lineValue(line, opStart, vs, kind == passwordName || short)
}

// symbolValue reads a value that starts with a symbol (&l(CV0…) in a
// config line; it returns the last byte read.
func symbolValue(line, name string, opStart, opEnd int, spans *[]span) int {
	k := opEnd
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k < len(line) && strings.IndexByte("&(|<>=,;)[]{}", line[k]) >= 0 && nameKind(name) != notSecret {
		if le, ok := lineValue(line, opStart, k, true); ok && symbolSecret(line[k:le]) {
			*spans = append(*spans, span{k, le})
			return le - 1
		}
	}
	return opEnd - 1
}

// lineValue returns the end of a bare value that runs to the end of a
// config line: the assignment at op starts the line (after white space,
// "- ", export, ENV, ARG, set) and the rest holds no space, quote or call.
// Trailing white space and a " #" comment are left out.
func lineValue(line string, op, vs int, password bool) (int, bool) {
	if !nameAlone(line, op) {
		return 0, false
	}
	end := len(line)
	if k := strings.Index(line[vs:], " #"); k >= 0 {
		end = vs + k
	}
	for end > vs && (line[end-1] == ' ' || line[end-1] == '\t' || line[end-1] == '\r') {
		end--
	}
	for end > vs && (line[end-1] == ',' || line[end-1] == ';') {
		end-- // code's trailing punctuation
	}
	if v := line[vs:end]; v == "" || codeLineValue(v, password) {
		return 0, false
	}
	return end, true
}

// nameAlone reports whether the name is alone before the operator at op
// (after white space, "- ", export, ENV, ARG, set).
func nameAlone(line string, op int) bool {
	head := strings.TrimLeft(line[:op], " \t")
	for _, p := range []string{"export ", "ENV ", "ARG ", "set ", "- ", "readonly ", "declare "} {
		head = strings.TrimPrefix(head, p)
	}
	return !strings.ContainsAny(strings.TrimSpace(head), " \t\"'`()[]{},;")
}

// codeLineValue reports a line value that is code or holds more fields
// (a query string, a connection string) rather than one secret.
func codeLineValue(v string, password bool) bool {
	if strings.ContainsAny(v, " \t\"'`") || isCall(v) || isCodeExpr(v) || codeShape(v) || selector(v) {
		return true
	}
	return (!password || strings.Contains(v, "?")) && moreFieldsRe().MatchString(v)
}

// moreFieldsRe finds another field after a value: a query string
// (&q=1) or a connection string (;Other=x).
var moreFieldsRe = lazyRegexp(`&[a-z_][a-z0-9_.\-]*=|[;,][A-Za-z_][A-Za-z0-9_.\-]*=`)

// isCodeExpr reports a value that is code: a name followed by calls,
// indexes, conversions and selectors (dk.EncapsulationKey().Bytes(),
// map[Level]secret{}), brackets balanced, nothing but code characters.
func isCodeExpr(v string) bool {
	if !callRe().MatchString(v) && !strings.HasPrefix(v, "map[") && !strings.HasPrefix(v, "[]") {
		return false
	}
	depth := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return false
			}
		case isAlnum(c) || strings.IndexByte("_$.*&,:!-+", c) >= 0:
		default:
			return false
		}
	}
	return depth == 0
}

// isCall reports a value that is a call, an index or a composite literal:
// a name and a bracket whose match ends the value (f(x), m[k], T{a}).
func isCall(v string) bool {
	loc := callRe().FindStringIndex(v)
	if loc == nil {
		return false
	}
	open := v[loc[1]-1]
	close := map[byte]byte{'(': ')', '[': ']', '{': '}'}[open]
	depth := 0
	for i := loc[1] - 1; i < len(v); i++ {
		switch v[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return strings.Trim(v[i+1:], ",;") == ""
			}
		}
	}
	return false
}

// callRe is a value that starts with a call or an index: f(x), a.b[c].
var callRe = lazyRegexp(`^[A-Za-z_$][A-Za-z0-9_$.]*[(\[{]`)

// symbolSecret accepts a line value that mixes letters, digits and symbols
// like generated keys do (Django's SECRET_KEY): long, three classes or
// more, high entropy.
func symbolSecret(v string) bool {
	return len(v) >= 24 && charClasses(v) >= 3 && entropy(v) >= 4 && !isPlaceholder(v) && !codeShape(v)
}

// codeShapeRe is a value that is code: a dereference or a cast
// (*((*unsafe.Pointer)(p)), *(*float64)(ptr), &x), a call or a generic type
// opened by a name (this.cache.getIdToken(, Required<NodeAuthOptions>,
// Token<SyntaxKind.QuestionToken>), a constant (SIGN_IN_V2_SUBMIT_PASSWORD),
// or a hexadecimal number (0x8031006C).
var codeShapeRe = lazyRegexp(`^(?:[*&!]+\(|[*&!]+[A-Za-z_$][A-Za-z0-9_$.]*[,;)]*$|\(+[*&]|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[,;]?$|0[xX][0-9a-fA-F]{1,16}[uUlL]*[,;]?$|(?:new|await|typeof|yield\*?)[ (])`)

// wordNameRe is a name made of whole words (slice, Required,
// NodeAuthOptions).
var wordNameRe = lazyRegexp(`^(?:[a-z]{3,}|[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*)$`)

// callStartRe is a value opened by a call, an index or a generic type.
var callStartRe = lazyRegexp(`^([A-Za-z_$][A-Za-z0-9_$.]*)(?:\?\.)?[(<\[]`)

// codeShape reports a value that is code (codeShapeRe), or opens with a
// call, an index or a generic type whose name reads as one (Required<,
// this.cache.getIdToken(, crypto_1.default.createPublicKey(): a random
// key with a bracket in it (jaB81qYM0(A=…) opens with no such name.
func codeShape(v string) bool {
	if codeShapeRe().MatchString(v) {
		return true
	}
	m := callStartRe().FindStringSubmatch(v)
	if m == nil {
		return false
	}
	name := m[1]
	if wordNameRe().MatchString(name) || camelWordsRe().MatchString(name) {
		return true // Required<, Token<, slice(, getIdToken(
	}
	for _, part := range strings.Split(strings.Trim(name, "."), ".") {
		if part != "" && strings.Trim(part, lowerLetters+upperLetters+"_$") != "" && !isIdentifierLike(part) {
			return false // a part with digits that reads as no words
		}
	}
	return strings.Contains(name, ".") || isIdentifierLike(name)
}

// testOutputName reports "--- PASS:" and "=== PASS" of test output, which
// name no password.
func testOutputName(line string, op int, name string) bool {
	if name != "PASS" {
		return false
	}
	head := strings.TrimRight(line[:op], " \t")
	head = strings.TrimSuffix(head, name)
	return strings.HasSuffix(head, "--- ") || strings.HasSuffix(head, "=== ")
}

// typeWords are type names that stand between a name and its value in a
// typed declaration (lower case).
var typeWords = map[string]bool{
	"string": true, "str": true, "&str": true, "&'static": true, "[]byte": true, "bytes": true,
	"text": true, "char": true, "char*": true, "*char": true, "secretstr": true, "securestring": true,
	"charsequence": true, "any": true, "object": true, "dynamic": true, "secret": true, "final": true,
	"optional": true, "nullable": true, "const": true, "let": true, "var": true, "val": true,
	"int": true, "bool": true, "byte": true, "rune": true, "error": true, "interface{}": true,
}

// declWords come before a declared name (export NAME=, ENV NAME=).
var declWords = map[string]bool{
	"export": true, "env": true, "arg": true, "readonly": true, "declare": true, "local": true, "static": true,
	"public": true, "private": true, "protected": true, "internal": true, "define": true, "set": true, "typeset": true,
}

// assignedName returns the name assigned at the operator starting at op:
// the name just before it, or, when that is a type (`var apiToken string =`,
// `apiKey: string =`, `val x: String? =`), the name declared before the
// type.
func assignedName(line string, op int) string {
	name, start := nameBefore(line, op)
	if name == "" || nameKind(name) != notSecret {
		return name
	}
	if prev := typedName(line, name, start); prev != "" {
		return prev
	}
	return name
}

// typedName is the name declared before a type that starts at start
// (`name: Type =`, `var name Type =`), or "".
func typedName(line, name string, start int) string {
	j := backOver(line, start, " \t&*'")
	if j > 0 && line[j-1] == ':' {
		// name: Type = value
		prev, _ := nameBefore(line, j-1)
		return prev
	}
	isType := typeWords[strings.ToLower(strings.TrimLeft(name, "&*"))] || (name[0] >= 'A' && name[0] <= 'Z')
	if !isType || j == start {
		return ""
	}
	// var name Type = value (Go)
	if prev, _ := nameBefore(line, j); prev != "" && !typeWords[strings.ToLower(prev)] && !declWords[strings.ToLower(prev)] {
		return prev
	}
	return ""
}

// nameBefore returns the name that ends just before the operator at op,
// and where it starts: letters, digits, _ . and -, optionally quoted, a
// variable ($name, @name), an index whose key is quoted (ENV["NAME"]), a
// type with a nullable mark (String?), spaces allowed before the operator.
// It is empty when there is none or when the name has no letter.
func nameBefore(line string, op int) (string, int) {
	j := backOver(line, op, " \t")
	j = backOver(line, j, "?!") // String?, definite assignment x!
	if j > 1 && line[j-1] == ']' {
		name, start, ok := indexKey(line, j-1)
		if ok {
			return name, start
		}
		j = start // Final[str]: the type before the bracket
	}
	if j > 0 && strings.IndexByte("\"'`", line[j-1]) >= 0 {
		j--
	}
	end := j
	j = nameRunStart(line, j)
	for j < end && !isLetter(line[j]) && line[j] != '_' {
		j++ // a name starts with a letter or _
	}
	if j == end {
		return "", j
	}
	return line[j:end], j
}

// backOver moves j back over the bytes of set.
func backOver(line string, j int, set string) int {
	for j > 0 && strings.IndexByte(set, line[j-1]) >= 0 {
		j--
	}
	return j
}

// nameRunStart is where the run of name bytes that ends at j starts (with
// the & * and [] of a type: &str, []byte).
func nameRunStart(line string, j int) int {
	for j > 0 {
		switch c := line[j-1]; {
		case isNameByte(c) || c == '&' || c == '*':
			j--
		case c == ']' && j > 1 && line[j-2] == '[':
			j -= 2
		default:
			return j
		}
	}
	return j
}

// indexKey reads the key of an index whose ']' is at k: ENV["NAME"],
// $_ENV['NAME'], headers[:token]. When the index holds no name it returns
// false and where the bracket opens (or k+1 when none does).
func indexKey(line string, k int) (string, int, bool) {
	if k > 0 && (line[k-1] == '"' || line[k-1] == '\'') {
		q := line[k-1]
		open := strings.LastIndexByte(line[:k-1], q)
		if open > 0 && line[open-1] == '[' {
			return line[open+1 : k-1], open + 1, true
		}
	}
	open := strings.LastIndexByte(line[:k], '[')
	if open <= 0 {
		return "", k + 1, false
	}
	inner := strings.TrimLeft(line[open+1:k], ":")
	if inner != "" && strings.IndexFunc(inner, func(r rune) bool { return r >= 128 || !isNameByte(byte(r)) }) < 0 {
		return inner, open + 1, true
	}
	return "", open, false
}

// valueAfter returns the value that starts after the operator ending at
// from (spaces skipped): a quoted string (span inside the quotes, quoted
// true) or a bare run up to white space, a quote or one of , ; ( ) { } [ ]
// < > & |. vs is -1 when there is no value.
func valueAfter(line string, from int) (vs, ve int, quoted bool) {
	k := skipBlanks(line, from)
	if k == len(line) {
		return -1, -1, false
	}
	k = afterWrapper(line, k)
	if q := line[k]; q == '"' || q == '\'' || q == '`' {
		if e := closingQuote(line, k); e >= 0 {
			return k + 1, e, true
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

// afterWrapper skips a conversion or wrapper around a literal at k:
// []byte("…"), b"…", r'…', SecretStr("…"), Buffer.from('…'),
// new String("…").
func afterWrapper(line string, k int) int {
	for _, w := range valueWrappers {
		if strings.HasPrefix(line[k:], w) && k+len(w) < len(line) && strings.IndexByte("\"'`", line[k+len(w)]) >= 0 {
			return k + len(w)
		}
	}
	return k
}

// closingQuote is the index of the quote that closes the one at k
// (backslash escapes skipped but in backquotes), or -1.
func closingQuote(line string, k int) int {
	q := line[k]
	for e := k + 1; e < len(line); e++ {
		switch line[e] {
		case '\\':
			if q != '`' {
				e++
			}
		case q:
			return e
		}
	}
	return -1
}

// valueWrappers come before a quoted literal that is still the value.
var valueWrappers = []string{
	"[]byte(", "[]rune(", "string(", "String(", "str(", "bytes(", "SecretStr(", "Secret(", "SecretString(",
	"Buffer.from(", "new String(", "b", "r", "u", "f", "rb", "br", "@", "$", "Some(", "Optional.of(",
	"String::from(", "Cow::from(", ".to_string(", "base64.b64decode(", "atob(",
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
	for _, w := range words {
		if publicWords[w] {
			return notSecret // public keys, certificates, publishable keys
		}
	}
	if fullSecretNames[strings.Join(words, "_")] {
		return secretName
	}
	last := words[len(words)-1]
	switch {
	case last == "pat" && len(words) == 1:
		return notSecret // pat: a pattern
	case passwordWords[last]:
		return passwordName
	case secretWords[last]:
		return secretName
	case len(words) == 1:
		return compoundKind(last)
	}
	return notSecret
}

// publicWords make a name public: public keys, certificates, publishable
// keys, verifiers.
var publicWords = map[string]bool{
	"public": true, "pub": true, "publishable": true, "cert": true, "certificate": true,
	"fingerprint": true, "verifier": true, "verification": true,
}

// compoundKind classifies one lower-case word that ends in a secret word:
// apikey, accesstoken, dbpassword.
func compoundKind(w string) nameClass {
	for _, suffix := range []string{"password", "passwd"} {
		if strings.HasSuffix(w, suffix) {
			return passwordName
		}
	}
	for _, suffix := range []string{"token", "secret", "apikey"} {
		if strings.HasSuffix(w, suffix) {
			return secretName
		}
	}
	return notSecret
}

// splitWords splits an identifier into lower-case words.
func splitWords(name string) []string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return splitWordsRunes(name)
		}
	}
	// ASCII: the same split over bytes, the words cut from one lower-case
	// copy (splitWordsRunes is the reference, TestSplitWordsASCII).
	lower := asciiLower(name)
	words := make([]string, 0, 4)
	start := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '.' || c == '-':
			if i > start {
				words = append(words, lower[start:i])
			}
			start = i + 1
		case i > start && isUpperASCII(c) && camelBoundary(name, i):
			words = append(words, lower[start:i])
			start = i
		}
	}
	if len(name) > start {
		words = append(words, lower[start:])
	}
	if len(words) == 0 {
		return nil
	}
	return words
}

// camelBoundary reports a word starting at the capital at i of an ASCII
// name: a capital after a lower-case letter or a digit (fooBar), or the last
// of a run of capitals before lower case (APIKey → API|Key).
func camelBoundary(name string, i int) bool {
	prev := name[i-1]
	if isLowerASCII(prev) || prev >= '0' && prev <= '9' {
		return true
	}
	return isUpperASCII(prev) && i+1 < len(name) && isLowerASCII(name[i+1])
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLowerASCII(c byte) bool { return c >= 'a' && c <= 'z' }

// splitWordsRunes is splitWords for any text.
func splitWordsRunes(name string) []string {
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
// a secret: long enough, random-looking, not a placeholder, a path, a URL,
// a label or identifier, or (bare values) a code expression.
func secretValue(v string, quoted, password bool) bool {
	switch {
	case password:
		return passwordValue(v, quoted)
	case len(v) < minShortKeyLen:
		return false
	case len(v) < minSecretLen:
		return shortKey(v, quoted)
	}
	if standIn(v) || notLiteral(v) || codeOrLabel(v, quoted) {
		return false
	}
	return entropy(v) >= minEntropy || hexKey(v) && entropy(v) >= 2.5
}

// hexKey reports a value of hexadecimal digits, letters and digits both
// (and ':' or '-' between groups), whose alphabet of 16 caps its entropy
// near 3 bits for 16 characters (bd16a6bc:66ec41bb).
func hexKey(v string) bool {
	letters, digits := 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			letters++
		case c != ':' && c != '-':
			return false
		}
	}
	return letters >= 2 && digits >= 2 && letters+digits >= minSecretLen
}

// standIn reports a value that stands in for a key: already redacted, a
// placeholder, base64 of a WebAssembly module (AGFzbQ: "\0asm").
func standIn(v string) bool {
	return strings.Contains(v, "REDACTED") || isPlaceholder(v) || strings.HasPrefix(v, "AGFzbQ")
}

// notLiteral reports a value that is text, a URL, a path or a decorated
// name rather than a key.
func notLiteral(v string) bool {
	return strings.ContainsAny(v, " \t") || strings.Contains(v, "://") || isPathLike(v) || decoratedName(v)
}

// codeOrLabel reports a value that is code (bare values), an identifier
// or a label, or has one class of characters.
func codeOrLabel(v string, quoted bool) bool {
	switch {
	case identWithSecretWord(v), labelFields(v), camelWordsRe().MatchString(v), charClasses(v) < 2:
		return true
	case !quoted && (!bareLiteral(v) || codeShape(v)):
		return true
	}
	return (!quoted || strings.ContainsAny(v, "-_./: ")) && isIdentifierLike(v)
}

// decoratedName reports a name with decorations around it, as property
// keys are (__reactContainer$, $$typeof$$, __init__): words once the
// _ $ # @ are gone.
func decoratedName(v string) bool {
	t := strings.Trim(v, "_$#@")
	return len(t) < len(v) && t != "" && (camelWordsRe().MatchString(t) || isIdentifierLike(t) || wordNameRe().MatchString(t))
}

// labelFieldsRe finds a second name=value field in a label: a subtest
// name (Key=int32/Elem=int32), a query (key=value&x=1).
var labelFieldsRe = lazyRegexp(`^[*&\[\]]*[A-Za-z_][A-Za-z0-9_.\-]*(?:=[^/&,=]*(?:[/&,][A-Za-z_][A-Za-z0-9_.\-]*=[^/&,=]*)+|(?:/[A-Za-z_][A-Za-z0-9_.\-]*=[^/&,=]*)+)$`)

// labelFields reports a value made of name=value fields.
func labelFields(v string) bool {
	if strings.IndexByte(v, '%') >= 0 && isIdentifierLike(strings.ReplaceAll(percentRe().ReplaceAllString(v, "."), "#", ".")) && percentRe().MatchString(v) {
		return true // value%23still-query: words and escapes
	}
	if strings.IndexByte(v, '=') < 0 || !labelFieldsRe().MatchString(v) {
		return false
	}
	// The field names of a label are words (Key, Elem, q); a random
	// token with '=' and '/' in it (base64) splits into names that are not.
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '&' || r == ',' }) {
		if i := strings.IndexByte(f, '='); i > 0 && !fieldNameRe().MatchString(strings.TrimLeft(f[:i], "*&[]")) || i < 0 && randomPiece(f) {
			return false
		}
	}
	return true
}

// randomPiece reports a piece of a label (before a name=value field)
// that is random text, not a name: 12 characters or more, letters and
// digits that read as no identifier (u8te1jqmj6v5mh64e173u41xu/np=).
func randomPiece(f string) bool {
	return len(f) >= 12 && hasDigitAndLetter(f) && !fieldNameRe().MatchString(f) && !isIdentifierLike(f)
}

// fieldNameRe is the name of a label's field: letters (and _ . -), digits
// at the end only.
var fieldNameRe = lazyRegexp(`^[A-Za-z_][A-Za-z_.\-]*[0-9]*$`)

// percentRe is a URL escape.
var percentRe = lazyRegexp(`%[2-7][0-9A-Fa-f]`)

// camelWordsRe is a camelCase identifier of letters only
// (invalidUserNameOrPassword, overEvery, secureHeadersNonce).
var camelWordsRe = lazyRegexp(`^[a-z]{2,}(?:[A-Z][a-z]+)+$`)

// minShortKeyLen is the shortest key value (gitleaks' generic rule takes
// ten characters).
const minShortKeyLen = 10

// shortKey decides a key of 10 to 15 characters: random letters and
// digits (at least three of each, or two of each and a symbol), high
// entropy, nothing of a word, a path, a version or code.
func shortKey(v string, quoted bool) bool {
	if strings.Contains(v, "REDACTED") || isPlaceholder(v) || strings.ContainsAny(v, " \t.:-_,;()[]{}<>\"'`\\$%") || !quoted && (codeShape(v) || !bareLiteral(v)) {
		return false
	}
	letters, digits := countAlnum(v)
	if digits+letters < len(v)-1 || letters < 3 || digits < 1 || digits == 1 && !mixedCaseKey(v) {
		return false
	}
	if identWithSecretWord(v) || isIdentifierLike(v) || camelWordsRe().MatchString(v) {
		return false
	}
	return entropy(v) >= 3.3
}

// mixedCaseKey accepts a short key with a single digit when both cases
// mix in it at random (esFtOVSxa0yk): two capitals and two small
// letters at least, high entropy.
func mixedCaseKey(v string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(v); i++ {
		if isUpperASCII(v[i]) {
			upper++
		} else if isLowerASCII(v[i]) {
			lower++
		}
	}
	return upper >= 2 && lower >= 2 && entropy(v) >= 3.4
}

// countAlnum counts the ASCII letters and digits of v.
func countAlnum(v string) (letters, digits int) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case isLetter(c):
			letters++
		}
	}
	return letters, digits
}

// minPasswordLen is the shortest literal redacted as a password.
const minPasswordLen = 8

// passwordValue decides whether a literal assigned to a password name is a
// password: at least 8 characters, not prose, a placeholder, a path or a
// URL; a bare value must not look like code (an identifier, a selector, an
// expression) and must have a digit or a symbol.
func passwordValue(v string, quoted bool) bool {
	if len(v) < minPasswordLen || passwordStandIn(v) || passwordLabel(v) {
		return false
	}
	if strings.ContainsAny(v, " \t") || strings.Contains(v, "://") || isPathLike(v) {
		return false
	}
	if !quoted && (!bareLiteral(v) || charClasses(v) < 2 || codeShape(v)) {
		return false
	}
	return entropy(v) >= 2.5 || len(v) >= 12 && entropy(v) >= 2.0
}

// passwordStandIn reports a password that stands in for one: redacted, a
// placeholder or placeholder word, a documentation example.
func passwordStandIn(v string) bool {
	return strings.Contains(v, "REDACTED") || isPlaceholder(v) || placeholderWords[strings.ToLower(v)] || knownExamples[v]
}

// passwordLabel reports a label, a selector ([type=password]), escaped
// bytes or an identifier as a password's value.
func passwordLabel(v string) bool {
	switch {
	case labelFields(v) && !strings.Contains(v, "/"), strings.Contains(v, `\x`):
		return true
	case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
		return true
	}
	return identWithSecretWord(v) || camelWordsRe().MatchString(v)
}

// identWithSecretWord reports an identifier that names a secret
// (password16, apiKey2, tokenValue): a variable, not a literal.
func identWithSecretWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isAlnum(v[i]) && v[i] != '_' {
			return false
		}
	}
	found, short := false, 0
	for _, w := range splitWords(v) {
		t := strings.TrimRight(w, "0123456789")
		if strings.ContainsAny(t, "0123456789") {
			return false // digits inside a word: random text
		}
		if len(t) <= 2 {
			short++ // random text splits into short fragments
		}
		if len(t) >= 3 && (secretWords[t] || passwordWords[t] || t == "secrets" || t == "tokens" || t == "keys") {
			found = true
		}
	}
	return found && short <= 1
}

// isPathLike reports file paths and path-like values.
func isPathLike(v string) bool {
	for _, p := range []string{"/", "./", "../", "~/", "C:\\", "c:\\"} {
		if strings.HasPrefix(v, p) {
			// Base64 may start with '/': a path does not mix upper case,
			// lower case and digits in a random run.
			if isIdentifierLike(strings.Trim(v, "/.~")) {
				return true
			}
			return !(strings.ContainsAny(v, upperLetters) && strings.ContainsAny(v, lowerLetters) && hasDigit(v)) && !randomSegment(v)
		}
	}
	return false
}

// randomSegment reports a value split at '/' with a piece no path holds:
// 20 characters or more, letters and digits mixed with base64's '+' or
// '=' (/wufaiosgr2coror6xkvzx4v=h5sqn8mkpa+gutp/…: base64 of a key).
func randomSegment(v string) bool {
	for _, seg := range strings.Split(v, "/") {
		if len(seg) >= 20 && strings.ContainsAny(seg, "+=") && hasDigitAndLetter(seg) && entropy(seg) >= 3.5 {
			return true
		}
	}
	return false
}

const (
	upperLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerLetters = "abcdefghijklmnopqrstuvwxyz"
)

// bareLiteral reports whether an unquoted value can be a literal rather
// than code: not a selector (process.env.X), not an expression
// (2*maxCompilerConcurrency), not a boolean or a bare word without a digit.
func bareLiteral(v string) bool {
	if selector(v) || !hasDigit(v) {
		return false
	}
	if strings.HasPrefix(v, "-") && strings.Trim(v[1:], "0123456789.") == "" {
		return false // a negative number
	}
	if isCall(v) || isCodeExpr(v) {
		return false // a call, an index, a composite literal
	}
	if exprRe().MatchString(v) {
		// 2*maxCompilerConcurrency, n+1, size/2: a number and names.
		number, names := false, true
		for _, op := range exprSplitRe().Split(v, -1) {
			switch {
			case op == "":
			case strings.Trim(op, "0123456789.") == "":
				number = true
			case strings.Contains(op, "."):
				number = true // a selector: code
			case strings.ContainsAny(op, "0123456789"):
				names = false
			}
		}
		if number && names {
			return false
		}
	}
	return true
}

var (
	// exprRe is a value made of operands and arithmetic operators only.
	exprRe = lazyRegexp(`^[A-Za-z0-9_.]+(?:[*+/%][A-Za-z0-9_.]+)+$`)
	// exprSplitRe splits it into operands.
	exprSplitRe = lazyRegexp(`[*+/%]`)
)

// isIdentifierLike reports a value made of words, as identifiers, labels
// and header names are (testRSA2048PrivateKey, X-Fake-Connection-Token,
// dashboard.header.title): at least two words split at - _ . / : and camel
// case, each letters (two or more, at most one single letter), digits, or
// letters followed by digits, averaging three letters or more, with vowels.
// Random tokens split into short fragments that mix letters and digits.
func isIdentifierLike(v string) bool {
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return false // identifiers do not start with a digit
	}
	words := splitWords(strings.NewReplacer("/", ".", ":", ".", " ", ".").Replace(v))
	if len(words) < 2 {
		return false
	}
	var t identTally
	for _, w := range words {
		if !t.add(w) {
			return false
		}
	}
	return t.identifier()
}

// identTally counts the words of a value read as an identifier.
type identTally struct {
	letters    int // letters in all words
	singles    int // words of one letter
	noVowel    int // words of letters without a vowel
	lettered   int // words with letters
	withDigits int // words of letters then digits
}

// add counts a lower-case word: letters, then digits. It is false for a
// word no identifier has: a symbol, letters after digits, five
// consonants in a row (bljnjp).
func (t *identTally) add(w string) bool {
	i := 0
	for i < len(w) && w[i] >= 'a' && w[i] <= 'z' {
		i++
	}
	if consonantRun(w[:i]) >= 5 || strings.Trim(w[i:], "0123456789") != "" {
		return false
	}
	if i > 0 && i < len(w) {
		t.withDigits++
	}
	switch {
	case i == 0:
		return true
	case i == 1:
		t.singles++
	case !strings.ContainsAny(w[:i], "aeiou"):
		t.noVowel++ // an acronym (RSA, TLS) or a random fragment
	}
	t.letters += i
	t.lettered++
	return true
}

// identifier decides from the counts: few single letters, acronyms and
// numbered words, four letters a word or more.
func (t *identTally) identifier() bool {
	if t.lettered == 0 || t.singles > 1 || t.noVowel*3 > t.lettered || t.withDigits > 1 {
		return false
	}
	return t.letters >= 4*t.lettered-2*t.singles
}

// consonantRun is the longest run of consonants (y counts as a vowel) in
// a lower-case word.
func consonantRun(w string) int {
	best, cur := 0, 0
	for i := 0; i < len(w); i++ {
		if strings.IndexByte("aeiouy", w[i]) >= 0 {
			cur = 0
			continue
		}
		cur++
		best = max(best, cur)
	}
	return best
}

// dottedIdentRe is a selector expression such as process.env.DB_PASSWORD.
var dottedIdentRe = lazyRegexp(`^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

// selector reports an unquoted value that is a selector expression
// (process.env.DB_PASSWORD, cfg.api.token): dotted names. A dotted run
// with a piece no name has — 16 characters or more, letters and digits
// mixed at random, read as no words (pk.jycw29uvyqxozgu46cx2….j018qnjz…,
// a token of dotted random parts) — is a literal, not a selector.
func selector(v string) bool {
	if !dottedIdentRe().MatchString(v) {
		return false
	}
	for _, p := range strings.Split(v, ".") {
		if len(p) >= 16 && randomPiece(p) && entropy(p) >= 3.5 {
			return false
		}
	}
	return true
}

// isPlaceholder reports template and environment references (${TOKEN},
// $TOKEN, {{ .Values.token }}, %(token)s, <your-token>) and stand-ins
// (xxxxxxxx, ********, your-api-key-here, changeme).
func isPlaceholder(v string) bool {
	if referencePlaceholder(v) {
		return true
	}
	if (strings.Contains(v, "xxxx") || strings.Contains(v, "XXXX")) && (strings.Count(v, "x")+strings.Count(v, "X"))*4 >= len(v) {
		return true // sk_live_xxxxxxxxxxxx
	}
	if entropy(v) >= 4 && !isIdentifierLike(v) {
		return false // random text that happens to spell "todo"
	}
	l := strings.ToLower(v)
	for _, p := range standInWords {
		if strings.Contains(l, p) {
			return true
		}
	}
	return len(v) > 0 && strings.Trim(v, v[:1]) == ""
}

// standInWords in a value make it a stand-in.
var standInWords = []string{"****", "....", "your-", "your_", "yourkey", "changeme", "change-me", "change_me", "replace", "placeholder", "example", "dummy", "redacted", "insert", "fixme", "todo"}

// referencePlaceholder reports a reference to a value kept elsewhere:
// ${TOKEN}, $TOKEN, {{ .Values.token }}, <your-token>, {name}, %s,
// %(name)s, %VAR%.
func referencePlaceholder(v string) bool {
	if templateRe().MatchString(v) {
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{") {
		return true
	}
	return strings.HasPrefix(v, "%") && (len(v) < 3 || winVarRe().MatchString(v) || len(v) < 16 && strings.IndexByte("sdvqfx({", v[1]) >= 0)
}

// winVarRe is a Windows environment reference, %NAME%.
var winVarRe = lazyRegexp(`^%[A-Za-z_][A-Za-z0-9_]*%$`)

// templateRe finds template and variable references inside a value.
var templateRe = lazyRegexp(`\$\{[A-Za-z_][^}]*\}|\{\{[^}]*\}\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sdrf]|\$\([A-Za-z_][A-Za-z0-9_]*\)`)

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
	return hasPAT(s)
}

// hasPAT reports "pat" (a personal access token) ending a word of s:
// GITHUB_PAT, azureDevopsPat, but not path or pattern.
func hasPAT(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		if (s[i] == 'p' || s[i] == 'P') && (s[i+1] == 'a' || s[i+1] == 'A') && (s[i+2] == 't' || s[i+2] == 'T') &&
			(i+3 == len(s) || !(s[i+3] >= 'a' && s[i+3] <= 'z')) {
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

// redactedTexts remembers, for texts Redact changed, the lines it
// replaced (their numbers and their redacted text, never a secret), so
// that a file holding a secret read again unchanged — a language server's
// search reads the files the index cannot rule out on every call, and the
// index cannot vouch for a file redaction changes — costs a hash and a
// copy, not the rules again. Only a change that keeps the text's lines
// and replaces at most maxMemoLines bytes of them is remembered (at most
// 8 MiB of lines in all).
var redactedTexts, _ = lru.New[[32]byte, redactMemo](2048)

// maxMemoLines bounds the bytes of replaced lines one memo holds.
const maxMemoLines = 4 << 10

// redactMemo is what Redact made of one text: n values, and the lines it
// replaced, by index.
type redactMemo struct {
	n     int
	at    []int
	lines []string
}

// redactCached is Redact with the clean-text and redacted-lines memos;
// short texts are scanned directly, which costs less than hashing them.
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
	if m, ok := redactedTexts.Get(k); ok {
		return m.apply(text), m.n
	}
	out, n := Redact(text)
	if n == 0 {
		cleanTexts.Add(k, struct{}{})
	} else if m, ok := memoOf(text, out, n); ok {
		redactedTexts.Add(k, m)
	}
	return out, n
}

// memoOf is the memo of Redact(text) = out, n: false when out does not
// keep text's lines or replaces more than maxMemoLines bytes of them.
func memoOf(text, out string, n int) (redactMemo, bool) {
	if strings.Count(text, "\n") != strings.Count(out, "\n") {
		return redactMemo{}, false
	}
	m := redactMemo{n: n}
	size := 0
	for i := 0; text != ""; i++ {
		a, restA, _ := strings.Cut(text, "\n")
		b, restB, _ := strings.Cut(out, "\n")
		if a != b {
			if size += len(b); size > maxMemoLines {
				return redactMemo{}, false
			}
			m.at, m.lines = append(m.at, i), append(m.lines, strings.Clone(b))
		}
		text, out = restA, restB
	}
	return m, out == ""
}

// apply rebuilds Redact's text from text and the lines m replaced.
func (m redactMemo) apply(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	line, next := 0, 0
	for len(text) > 0 && next < len(m.at) {
		cur, rest, found := strings.Cut(text, "\n")
		if line == m.at[next] {
			b.WriteString(m.lines[next])
			next++
		} else {
			b.WriteString(cur)
		}
		if found {
			b.WriteByte('\n')
		}
		text, line = rest, line+1
	}
	b.WriteString(text)
	return b.String()
}
