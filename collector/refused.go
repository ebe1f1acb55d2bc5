package collector

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// RefusedFiles remembers, across processes, the files the content rules
// refused (binary, empty, not UTF-8) by their stat, so that a later read
// of the same file neither opens nor sniffs it (the workspace index
// implements it: docs/index.md "Refused files"). info is the stat the
// file was measured with; an implementation answers only for the very
// stat it was told of, and keeps nothing of a file that may have changed
// within its timestamp's tick.
type RefusedFiles interface {
	// Refused returns the refusal remembered for abs with stat info.
	Refused(abs string, info fs.FileInfo) (Refusal, bool)
	// PutRefused remembers that abs, read with stat info, was refused.
	PutRefused(abs string, info fs.FileInfo, r Refusal)
}

// CleanTexts knows texts that redaction leaves unchanged: the workspace
// index stores terms only of a file whose text [Redact] left alone, under
// a keyed hash of that text, so a text that hashes the same needs no scan
// (its redaction is the text itself, with no replacement).
type CleanTexts interface {
	// KnownClean reports whether text, read from abs, is a text
	// redaction was seen to leave unchanged.
	KnownClean(abs string, text []byte) bool
}

// SetCleanTexts makes reads skip redaction of the texts c knows clean
// (nil: none). It is meant to be called once, before the workspace is
// used.
func (w *Workspace) SetCleanTexts(c CleanTexts) { w.clean = c }

// redact is redactCached, but a text the store knows clean is not
// scanned.
func (w *Workspace) redact(abs string, data []byte) (string, int) {
	if w.clean != nil && len(data) > 0 && w.clean.KnownClean(abs, data) {
		return string(data), 0
	}
	return redactCached(string(data))
}

// Refusal is what the content rules said of a file: the reason and detail
// of its exclusion and the size it was read at. It packs into a number
// ([Refusal.Pack]): a store keeps no text of it.
type Refusal struct {
	Reason Reason
	Detail string
	Size   int64
}

// SetRefusedFiles makes reads consult and feed r for the content rules'
// refusals (nil: none). It is meant to be called once, before the
// workspace is used.
func (w *Workspace) SetRefusedFiles(r RefusedFiles) { w.refused = r }

// refusedBefore is the refusal a store remembers for abs read with stat
// info.
func (w *Workspace) refusedBefore(abs string, info fs.FileInfo) (Refusal, bool) {
	if w.refused == nil || info == nil {
		return Refusal{}, false
	}
	return w.refused.Refused(abs, info)
}

// rememberRefused tells the store that abs, read with stat info, was
// refused as r; only refusals that [Refusal.Pack] keeps, of a file read
// whole at the size measured.
func (w *Workspace) rememberRefused(abs string, info fs.FileInfo, r Refusal) {
	if w.refused == nil || info == nil || r.Size != info.Size() {
		return
	}
	if _, ok := r.Pack(); ok {
		w.refused.PutRefused(abs, info, r)
	}
}

// Kinds of refusal a number holds (Pack): the reason, and which of its
// details with what number.
const (
	packNUL         = 1 + iota // binary: NUL byte
	packControl                // binary: N% control bytes
	packNonText                // binary: N% non-text bytes
	packEmptyZero              // empty: 0 bytes
	packEmptySpace             // empty: only white space
	packInvalidUTF8            // invalid_utf8: at byte N
)

// Pack returns r as a number (its size aside), or false when r is not a
// refusal of the content rules that a number holds exactly: binary, empty
// and invalid UTF-8 are; a secret (a private key block) and anything a
// read's error said are not. [UnpackRefusal] gives r back.
func (r Refusal) Pack() (uint64, bool) {
	kind, arg := uint64(0), uint64(0)
	switch {
	case r.Reason == ReasonBinary && r.Detail == "NUL byte in the first 8 KB":
		kind = packNUL
	case r.Reason == ReasonBinary && strings.HasSuffix(r.Detail, "% control bytes in the first 8 KB"):
		kind, arg = packControl, leadingNumber(r.Detail)
	case r.Reason == ReasonBinary && strings.HasSuffix(r.Detail, "% non-text bytes in the first 8 KB"):
		kind, arg = packNonText, leadingNumber(r.Detail)
	case r.Reason == ReasonEmpty && r.Detail == "0 bytes":
		kind = packEmptyZero
	case r.Reason == ReasonEmpty && r.Detail == "only white space":
		kind = packEmptySpace
	case r.Reason == ReasonInvalidUTF8 && strings.HasPrefix(r.Detail, "invalid UTF-8 at byte "):
		kind, arg = packInvalidUTF8, trailingNumber(r.Detail)
	default:
		return 0, false
	}
	n := kind | arg<<8
	// Only what comes back exactly is packed.
	if back, ok := UnpackRefusal(n, r.Size); !ok || back != r {
		return 0, false
	}
	return n, true
}

// UnpackRefusal is the refusal [Refusal.Pack] made n of, for a file of
// size bytes; false when n is not such a number.
func UnpackRefusal(n uint64, size int64) (Refusal, bool) {
	arg := n >> 8
	if arg > 1<<40 {
		return Refusal{}, false
	}
	r := Refusal{Size: size}
	switch n & 0xff {
	case packNUL:
		r.Reason, r.Detail = ReasonBinary, "NUL byte in the first 8 KB"
	case packControl:
		r.Reason, r.Detail = ReasonBinary, fmt.Sprintf("%d%% control bytes in the first 8 KB", arg)
	case packNonText:
		r.Reason, r.Detail = ReasonBinary, fmt.Sprintf("%d%% non-text bytes in the first 8 KB", arg)
	case packEmptyZero:
		r.Reason, r.Detail = ReasonEmpty, "0 bytes"
	case packEmptySpace:
		r.Reason, r.Detail = ReasonEmpty, "only white space"
	case packInvalidUTF8:
		r.Reason, r.Detail = ReasonInvalidUTF8, fmt.Sprintf("invalid UTF-8 at byte %d", arg)
	default:
		return Refusal{}, false
	}
	if n&0xff != packControl && n&0xff != packNonText && n&0xff != packInvalidUTF8 && arg != 0 {
		return Refusal{}, false
	}
	return r, true
}

// leadingNumber is the decimal number s starts with (0 when none).
func leadingNumber(s string) uint64 {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseUint(s[:i], 10, 64)
	return n
}

// trailingNumber is the decimal number s ends with (0 when none).
func trailingNumber(s string) uint64 {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, _ := strconv.ParseUint(s[i:], 10, 64)
	return n
}

// refusalProbes are the texts [RulesProbe] puts through the content rules
// and redaction.
var refusalProbes = []string{
	"", " \n\t", "\ufeff \n", "ab\x00cd", "\x01\x02\x03\x04 text", "t\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6xt",
	"caf\xc3\xa9 ok \xe2\x82", "package p\n\nfunc F() {}\n",
	"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
	"password = \"hunter2-Xq9v!zz\"\n", "aws_key AKIAIOSFODNN7EXAMPLE here\n",
	"token: ghp_0123456789abcdefghijABCDEFGHIJ012345\n", "the password is not here\n",
}

// RulesProbe is what the content rules and redaction make of a few
// probe texts, with the provider rules' expressions and the secret
// words redaction knows. A store that keeps what these rules decided (the
// workspace index: refusals, and terms only of files redaction leaves
// alone) folds it into its version, so a change of the rules invalidates
// what it remembers.
func RulesProbe() string {
	var b strings.Builder
	for _, ru := range rules {
		fmt.Fprintf(&b, "%s %q %q %s %d %v\n", ru.id, ru.keywords, ru.lit, ru.expr, ru.minRun, ru.runAfter)
	}
	for _, m := range []map[string]bool{secretWords, fullSecretNames, passwordWords} {
		words := make([]string, 0, len(m))
		for w := range m {
			words = append(words, w)
		}
		sort.Strings(words)
		fmt.Fprintf(&b, "%q\n", words)
	}
	for _, p := range refusalProbes {
		_, reason, detail := checkBytes([]byte(p))
		red, n := Redact(p)
		fmt.Fprintf(&b, "%s|%s|%d|%s\n", reason, detail, n, red)
	}
	return b.String()
}
