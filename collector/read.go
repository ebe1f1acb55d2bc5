package collector

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// binarySample is how much of a file the binary test looks at.
const binarySample = 8 << 10

// Read reads one file through every rule of what may enter a context: the
// open document's text when the overlay has it, else the disk. It resolves
// path (absolute, or relative to the primary root) and refuses it when it
// lies outside every root, is ignored or excluded, is a secret file, is not
// a regular file, is over the size cap, is binary, is not UTF-8, is empty, or
// starts a private key block. What it lets in is redacted. Used for
// references and for sources named by URI.
func (w *Workspace) Read(ctx context.Context, t SourceType, path string) (Source, *Exclusion) {
	return w.read(ctx, t, path, nil)
}

// ReadText is Read for text the caller already has (a source sent with its
// content and a uri): every rule of the path applies (outside the roots,
// ignored, excluded, secret) and the text goes through the content rules
// (size, binary, UTF-8, empty, redaction) in place of the file's.
func (w *Workspace) ReadText(ctx context.Context, t SourceType, path, text string) (Source, *Exclusion) {
	return w.read(ctx, t, path, &text)
}

func (w *Workspace) read(ctx context.Context, t SourceType, path string, given *string) (Source, *Exclusion) {
	abs := w.absPath(path)
	if err := ctx.Err(); err != nil {
		return Source{}, w.exclude(t, w.shown(abs), ReasonUnreadable, "canceled: "+err.Error(), 0)
	}
	resolved, err := resolve(abs)
	if err != nil {
		return Source{}, w.exclude(t, w.shown(abs), ReasonUnreadable, describeErr(err), 0)
	}
	r, _ := w.locate(resolved)
	if r == nil {
		return Source{}, w.exclude(t, w.shown(abs), ReasonOutside, "resolves outside the workspace roots", 0)
	}
	rel, _ := w.relResolved(resolved)
	info, statErr := os.Stat(resolved)
	isDir := statErr == nil && info.IsDir()
	if ig, why := w.ignoredPath(r, resolved, isDir); ig {
		return Source{}, w.exclude(t, rel, ReasonIgnored, why, sizeOf(info))
	}
	if resolved != abs {
		if secret, why := IsSecretPath(abs); secret {
			return Source{}, w.exclude(t, rel, ReasonSecret, why+" (symlink)", sizeOf(info))
		}
	}
	return w.admit(ctx, t, resolved, rel, info, statErr, abs, given)
}

// admit applies the per-file rules to the resolved file abs shown as rel.
// info and statErr are the result of os.Stat(abs); alias is the path as
// named before resolving symlinks, also tried in the overlay. given, when
// not nil, is the text to use instead of the overlay's or the disk's.
func (w *Workspace) admit(ctx context.Context, t SourceType, abs, rel string, info fs.FileInfo, statErr error, alias string, given *string) (Source, *Exclusion) {
	data, mod, x := w.readChecked(ctx, t, abs, rel, info, statErr, alias, given, false, nil)
	if x != nil {
		return Source{}, x
	}
	content, n := w.redact(abs, data)
	return Source{Type: t, Path: DisplayPath(rel), AbsPath: abs, Content: content, Timestamp: mod, Redactions: n}, nil
}

// ReadRaw reads one file that [Workspace.List] let in through every rule
// of [Workspace.ReadRef] but redaction: it returns the text as read (the
// overlay's or the disk's, without a byte order mark) for a scan that
// keeps no text — a term count, say. The text is not redacted: it must
// not reach a context, a log or a cache.
func (w *Workspace) ReadRaw(ctx context.Context, t SourceType, f FileRef) ([]byte, *Exclusion) {
	rel := f.rel
	if rel == "" {
		rel = f.Path
	}
	data, _, x := w.readChecked(ctx, t, f.Abs, rel, f.Info, nil, f.alias, nil, false, nil)
	return data, x
}

// ScanRaw reads f as [Workspace.ReadRaw] does into a pooled buffer and
// calls scan with the text, which is valid only until scan returns: scan
// must keep nothing of it (no slice, no string made without a copy). A
// scan of every file of a tree (the query's term counts, the index's
// terms) thus allocates no text per file. The exclusion is ReadRaw's;
// scan is not called with one.
func (w *Workspace) ScanRaw(ctx context.Context, t SourceType, f FileRef, scan func(text []byte)) *Exclusion {
	rel := f.rel
	if rel == "" {
		rel = f.Path
	}
	bp := rawBufs.Get().(*[]byte)
	// A ref with its listed path came from a walk (List), which gave it
	// its stat (an lstat) and let its name in (IsSecretPath).
	listed := f.rel != ""
	data, _, x := w.readChecked(ctx, t, f.Abs, rel, f.Info, nil, f.alias, nil, listed, *bp)
	if x == nil {
		scan(data)
	}
	if c := cap(data); c > cap(*bp) && c <= maxPooledRaw {
		*bp = data[:0] // grown: keep the larger buffer
	}
	rawBufs.Put(bp)
	return x
}

// rawBufs pools ScanRaw's buffers; one larger than maxPooledRaw (a size
// cap raised past the default) is left to the collector.
var rawBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledRaw = 4 << 20

// readChecked reads the resolved file abs shown as rel (see admit) through
// every rule but redaction; a file on disk is read into buf when it fits
// (safeio.ReadFileInto). listed says a walk listed abs as rel: its name
// passed IsSecretPath there (precheck's first rule, not run again) and
// info is the walk's own lstat of abs, which stands for the check before
// the open (safeio.Options.Listed).
func (w *Workspace) readChecked(ctx context.Context, t SourceType, abs, rel string, info fs.FileInfo, statErr error, alias string, given *string, listed bool, buf []byte) ([]byte, time.Time, *Exclusion) {
	precheck := w.precheck
	if listed {
		precheck = w.precheckNamed
	}
	text, mod, ok, x := precheck(t, abs, rel, info, statErr, alias, given)
	if x != nil {
		return nil, time.Time{}, x
	}
	var data []byte
	if ok {
		data = []byte(text)
	} else {
		if c, hit := w.knownExclusion(abs, info); hit {
			return nil, time.Time{}, w.exclude(t, rel, c.reason, c.detail, c.size)
		}
		if r, hit := w.refusedBefore(abs, info); hit {
			return nil, time.Time{}, w.exclude(t, rel, r.Reason, r.Detail, r.Size)
		}
		var err error
		data, err = readRegularInto(ctx, abs, info, w.maxSize, listed, buf)
		if errors.Is(err, errChanged) && w.ListingsKept() {
			// A kept listing's stat went stale without a reported change
			// (a watcher that missed it): read what is there now, and
			// have the next List walk again.
			w.DropListings()
			if now, serr := os.Stat(abs); serr == nil && now.Mode().IsRegular() {
				info = now
				data, err = readRegular(ctx, abs, info, w.maxSize)
			}
		}
		var grew *grewError
		if errors.As(err, &grew) {
			return nil, time.Time{}, w.exclude(t, rel, ReasonTooLarge, overCap(grew.size, w.maxSize), grew.size)
		}
		if err != nil {
			return nil, time.Time{}, w.exclude(t, rel, ReasonUnreadable, describeErr(err), info.Size())
		}
		mod = info.ModTime()
	}
	size := int64(len(data))
	checked, reason, detail := checkBytes(data)
	if reason != "" {
		if !ok {
			w.rememberExclusion(abs, info, contentExclusion{reason, detail, size})
			w.rememberRefused(abs, info, Refusal{reason, detail, size})
		}
		return nil, time.Time{}, w.exclude(t, rel, reason, detail, size)
	}
	return checked, mod, nil
}

// precheck applies the per-file rules that need no content: a secret file
// name; for text from the overlay (or given) the size cap; for a file on
// disk a stat error, a file that is not regular, the size cap. It returns
// the overlay's (or the given) text when there is one (ok), with its time.
func (w *Workspace) precheck(t SourceType, abs, rel string, info fs.FileInfo, statErr error, alias string, given *string) (text string, mod time.Time, ok bool, x *Exclusion) {
	if secret, why := IsSecretPath(rel); secret {
		return "", time.Time{}, false, w.exclude(t, rel, ReasonSecret, why, sizeOf(info))
	}
	return w.precheckNamed(t, abs, rel, info, statErr, alias, given)
}

// precheckNamed is precheck for a file whose name IsSecretPath let in.
func (w *Workspace) precheckNamed(t SourceType, abs, rel string, info fs.FileInfo, statErr error, alias string, given *string) (text string, mod time.Time, ok bool, x *Exclusion) {
	text, mod, ok = w.openOverlay(abs, alias)
	if given != nil {
		text, mod, ok = *given, time.Time{}, true
	}
	if ok {
		if int64(len(text)) > w.maxSize {
			return "", time.Time{}, false, w.exclude(t, rel, ReasonTooLarge, overCap(int64(len(text)), w.maxSize), int64(len(text)))
		}
		return text, mod, true, nil
	}
	switch {
	case statErr != nil:
		return "", time.Time{}, false, w.exclude(t, rel, ReasonUnreadable, describeErr(statErr), 0)
	case !info.Mode().IsRegular():
		return "", time.Time{}, false, w.exclude(t, rel, ReasonUnreadable, "not a regular file ("+safeio.Kind(info.Mode())+")", 0)
	case info.Size() > w.maxSize:
		return "", time.Time{}, false, w.exclude(t, rel, ReasonTooLarge, overCap(info.Size(), w.maxSize), info.Size())
	}
	return "", time.Time{}, false, nil
}

// openOverlay asks the overlay for abs, then for its alias.
func (w *Workspace) openOverlay(abs, alias string) (string, time.Time, bool) {
	if w.overlay == nil {
		return "", time.Time{}, false
	}
	if text, mod, ok := w.overlay.Open(abs); ok {
		return text, mod, true
	}
	if alias != "" && alias != abs {
		return w.overlay.Open(alias)
	}
	return "", time.Time{}, false
}

// errGrew reports a file that grew past the cap after it was measured.
var errGrew = errors.New("collector: file grew past the size cap")

// errChanged reports a file that is not the one measured any more.
var errChanged = errors.New("collector: file changed while being read")

// readRegular reads a regular file that was measured by info. It opens the
// file without following a symlink and without blocking (a file swapped for
// a FIFO cannot hang the walk), checks on the descriptor that it is still a
// regular file and the file measured (same file, size and mtime), and reads
// at most max+1 bytes, checking ctx between blocks (safeio.ReadFile).
func readRegular(ctx context.Context, abs string, info fs.FileInfo, max int64) ([]byte, error) {
	return readRegularInto(ctx, abs, info, max, false, nil)
}

// readRegularInto is readRegular reading into buf when the file fits;
// listed: info is the listing's lstat of abs (safeio.Options.Listed).
func readRegularInto(ctx context.Context, abs string, info fs.FileInfo, max int64, listed bool, buf []byte) ([]byte, error) {
	data, err := safeio.ReadFileInto(ctx, abs, max, safeio.Options{NoFollow: true, Expect: info, Listed: listed}, buf)
	var tl *safeio.TooLargeError
	switch {
	case errors.As(err, &tl):
		return data, &grewError{size: tl.Size}
	case errors.Is(err, safeio.ErrNotRegular), errors.Is(err, safeio.ErrChanged):
		return nil, errChanged
	case err != nil:
		return nil, err
	}
	return data, nil
}

// grewError is errGrew with the size seen.
type grewError struct{ size int64 }

func (e *grewError) Error() string { return errGrew.Error() }
func (e *grewError) Unwrap() error { return errGrew }

// checkContent applies the content rules: empty, binary, invalid UTF-8,
// white space only, private key. It returns the text (without a UTF-8 byte
// order mark) or the reason to exclude it.
func checkContent(data []byte) (text string, reason Reason, detail string) {
	checked, reason, detail := checkBytes(data)
	if reason != "" {
		return "", reason, detail
	}
	return string(checked), "", ""
}

// checkBytes is checkContent without the copy to a string: the text is a
// slice of data.
func checkBytes(data []byte) (text []byte, reason Reason, detail string) {
	if len(data) == 0 {
		return nil, ReasonEmpty, "0 bytes"
	}
	if bin, why := isBinary(data); bin {
		return nil, ReasonBinary, why
	}
	if !utf8.Valid(data) {
		return nil, ReasonInvalidUTF8, fmt.Sprintf("invalid UTF-8 at byte %d", firstInvalid(data))
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, ReasonEmpty, "only white space"
	}
	if pemPrivateKeyStart(data) {
		return nil, ReasonSecret, "starts with a PEM private key block"
	}
	return data, "", ""
}

// isBinary looks at the first 8 KB: a NUL byte, more than 10% control bytes
// (other than tab, newlines, form feed and escape) or more than 30% bytes
// that are not UTF-8 make a file binary.
func isBinary(data []byte) (bool, string) {
	sample := data
	if len(sample) > binarySample {
		sample = sample[:binarySample]
	}
	if bytes.IndexByte(sample, 0) >= 0 {
		return true, "NUL byte in the first 8 KB"
	}
	ctrl, invalid := countNonText(sample)
	switch {
	case ctrl*10 > len(sample):
		return true, fmt.Sprintf("%d%% control bytes in the first 8 KB", ctrl*100/len(sample))
	case invalid*10 > len(sample)*3:
		return true, fmt.Sprintf("%d%% non-text bytes in the first 8 KB", invalid*100/len(sample))
	}
	return false, ""
}

// firstInvalid returns the offset of the first byte that is not UTF-8.
func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// overCap is the Detail of a too_large exclusion.
func overCap(size, max int64) string {
	return humanSize(size) + " over the " + humanSize(max) + " cap"
}

// humanSize formats a byte count with binary units.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, exp := float64(n), 0
	for v >= unit && exp < 4 {
		v /= unit
		exp++
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + [...]string{"", "KiB", "MiB", "GiB", "TiB"}[exp]
}

func sizeOf(info fs.FileInfo) int64 {
	if info == nil || !info.Mode().IsRegular() {
		return 0
	}
	return info.Size()
}

// ctrlBytes marks the control bytes countNonText counts.
var ctrlBytes = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		if c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b {
			t[c] = 1
		}
	}
	t[0x7f] = 1
	return t
}()

// countNonText counts the control bytes (other than tab, newlines, form
// feed and escape) and the bytes that start no UTF-8 sequence (short
// sequences at the end aside) in sample, skipping printable ASCII eight
// bytes at a time.
func countNonText(sample []byte) (ctrl, invalid int) {
	const ones = 0x0101010101010101
	for i := 0; i < len(sample); {
		if i+8 <= len(sample) {
			// Eight ASCII bytes at once: none starts a multi-byte
			// sequence; the control bytes among them are counted by table
			// when any byte is below 0x20 or is 0x7f.
			x := binary.LittleEndian.Uint64(sample[i:])
			if x&(0x80*ones) == 0 {
				if hasCtrl8(x) {
					for _, c := range sample[i : i+8] {
						ctrl += int(ctrlBytes[c])
					}
				}
				i += 8
				continue
			}
		}
		c := sample[i]
		if c < utf8.RuneSelf {
			ctrl += int(ctrlBytes[c])
			i++
			continue
		}
		r, size := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && size == 1 && i+utf8.UTFMax <= len(sample) {
			invalid++
		}
		i += size
	}
	return ctrl, invalid
}

// hasCtrl8 reports whether any of the eight ASCII bytes packed in x is
// below 0x20 or is 0x7f.
func hasCtrl8(x uint64) bool {
	const ones = 0x0101010101010101
	low := (x - 0x20*ones) &^ x // high bit: a byte < 0x20
	del := x ^ 0x7f*ones        // zero byte: 0x7f
	del = (del - ones) &^ del   // high bit: a byte == 0x7f
	return (low|del)&(0x80*ones) != 0
}

// Admitted is what [Workspace.ReadRef] would make of f without reading
// it, for a pack that has what it needs of the file's text from an index
// (pack/mapindex.go): the source without its Content, and ok; or ok false
// when only a read can tell — the overlay has the file (an open
// document's text is not the disk's) — or an exclusion the rules that
// need no content give it (a secret name, not a regular file, over the
// size cap).
func (w *Workspace) Admitted(t SourceType, f FileRef) (s Source, ok bool, x *Exclusion) {
	if f.Info == nil {
		return Source{}, false, nil
	}
	rel := f.rel
	if rel == "" {
		rel = f.Path
	}
	_, _, overlaid, x := w.precheck(t, f.Abs, rel, f.Info, nil, f.alias, nil)
	if x != nil || overlaid {
		return Source{}, false, x
	}
	return Source{Type: t, Path: DisplayPath(rel), AbsPath: f.Abs, Timestamp: f.Info.ModTime()}, true, nil
}
