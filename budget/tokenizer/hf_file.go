package tokenizer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// fileKey identifies a tokenizer file by what it is — its resolved path,
// size and modification time — not by how a caller spelled it: the 1,000
// spellings of one path share one compiled model, and an edited file is
// compiled again.
type fileKey struct {
	real  string
	size  int64
	mtime int64
}

func (k fileKey) String() string {
	return k.real + "\x00" + strconv.FormatInt(k.size, 10) + "\x00" + strconv.FormatInt(k.mtime, 10)
}

// fileEntry is one compiled tokenizer file, loaded once.
type fileEntry struct {
	once  sync.Once
	model *hfModel
	err   error
}

// maxFileModels bounds the compiled tokenizer files a process keeps (each
// is about as large as an embedded vocabulary, ~10–40 MiB): the least
// recently used is dropped. A Registry keeps its own few (registry.go).
const maxFileModels = 3

var (
	fileMu    sync.Mutex
	fileCache = mustLRU[fileKey, *fileEntry](maxFileModels)
	// compileMu lets one tokenizer file be compiled at a time: a compile
	// holds the parsed JSON (a few times the file), so concurrent requests
	// for many files do not multiply the peak.
	compileMu sync.Mutex
	// fileCompiles counts compiles (tests).
	fileCompiles int
)

func mustLRU[K lruKey, V any](n int) *lru.Cache[K, V] {
	c, err := lru.New[K, V](n)
	if err != nil {
		panic("tokenizer: " + err.Error())
	}
	return c
}

// fileTokenizer is the exact tokenizer of a tokenizer.json, as one caller
// named it: the model is shared by every spelling of the same file.
type fileTokenizer struct {
	name  string // FilePrefix + the path as given
	key   fileKey
	model *hfModel
}

// Count implements [Tokenizer].
func (t *fileTokenizer) Count(text string) int { return t.model.count(toValidUTF8(text)) }

// Encoding implements [Tokenizer]: "file:" + the path as given.
func (t *fileTokenizer) Encoding() string { return t.name }

// Exact implements [Tokenizer]; it is always true.
func (t *fileTokenizer) Exact() bool { return true }

// fileIdentity implements fileIdentified (registry.go).
func (t *fileTokenizer) fileIdentity() string { return t.key.String() }

// ForFile returns the exact tokenizer of a Hugging Face tokenizer.json
// (context.tokenizer.file, --tokenizer-file). The file is read through the
// safe read (a regular file, at most maxTokenizerFile bytes, never
// blocking) and compiled once per resolved file (its real path, size and
// modification time); the process keeps the last few compiled files. What
// the file uses that acode-lsp does not implement is an error naming it
// (quoting at most a short prefix of any value). Its Encoding is "file:" +
// path as given. Where the path comes from a repository's configuration,
// check it first with [CheckFileAllowed].
func ForFile(path string) (Tokenizer, error) {
	real, fi, err := resolveTokenizerFile(path)
	if err != nil {
		return nil, err
	}
	key := fileKey{real: real, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	fileMu.Lock()
	e, ok := fileCache.Get(key)
	if !ok {
		e = &fileEntry{}
		fileCache.Add(key, e)
	}
	fileMu.Unlock()
	e.once.Do(func() {
		compileMu.Lock()
		defer compileMu.Unlock()
		fileCompiles++
		e.model, e.err = compileTokenizerFile(path, real, fi)
	})
	if e.err != nil {
		fileMu.Lock()
		if cur, ok := fileCache.Peek(key); ok && cur == e {
			fileCache.Remove(key) // a later call tries again
		}
		fileMu.Unlock()
		return nil, e.err
	}
	return &fileTokenizer{name: FilePrefix + path, key: key, model: e.model}, nil
}

// resolveTokenizerFile returns the real path of a tokenizer file and what
// it is, refusing anything but a regular file under the cap.
func resolveTokenizerFile(path string) (string, fs.FileInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, fmt.Errorf("tokenizer: %s: %w", path, unwrapPath(err))
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return "", nil, fmt.Errorf("tokenizer: %s: %w", path, unwrapPath(err))
	case !fi.Mode().IsRegular():
		return "", nil, fmt.Errorf("tokenizer: %s is not a regular file (%s)", path, safeio.Kind(fi.Mode()))
	case fi.Size() > maxTokenizerFile:
		return "", nil, fmt.Errorf("tokenizer: %s is larger than %d MB", path, maxTokenizerFile>>20)
	}
	return real, fi, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// compileTokenizerFile reads the file measured as fi (the safe read checks
// it is still that file) and compiles it.
func compileTokenizerFile(path, real string, fi fs.FileInfo) (*hfModel, error) {
	data, err := readTokenizerFile(path, real, fi)
	if err != nil {
		return nil, err
	}
	gz, err := CompileVocabulary(data)
	if err != nil {
		return nil, err
	}
	return loadCompiled(FilePrefix+path, gz)
}

// maxTokenizerFile bounds a tokenizer.json (the largest common ones, such
// as Gemma 3's, are ~35 MB).
const maxTokenizerFile = 64 << 20

// readTokenizerFile reads a regular file of at most maxTokenizerFile bytes
// (a FIFO or a device named by a hostile config is refused unread).
func readTokenizerFile(path, real string, fi fs.FileInfo) ([]byte, error) {
	// safeio opens without blocking and checks the descriptor: os.Open of
	// a FIFO named by a hostile config would block forever (issue 15).
	data, err := safeio.ReadFile(context.Background(), real, maxTokenizerFile, safeio.Options{Expect: fi})
	switch {
	case errors.Is(err, safeio.ErrNotRegular):
		return nil, fmt.Errorf("tokenizer: %s is not a regular file", path)
	case errors.Is(err, safeio.ErrTooLarge):
		return nil, fmt.Errorf("tokenizer: %s is larger than %d MB", path, maxTokenizerFile>>20)
	case errors.Is(err, safeio.ErrChanged):
		return nil, fmt.Errorf("tokenizer: %s changed while it was read; try again", path)
	case err != nil:
		return nil, fmt.Errorf("tokenizer: %s: %w", path, unwrapPath(err))
	}
	return data, nil
}

// ErrFileNotAllowed is wrapped by the error of [CheckFileAllowed].
var ErrFileNotAllowed = errors.New("tokenizer: tokenizer file outside the workspace")

// CheckFileAllowed checks a tokenizer file named by a repository's
// configuration (context.tokenizer.file), which may be hostile: it must
// resolve — links followed — inside one of the workspace roots or inside
// userConfigDir (the user's own configuration, [UserConfigDir]; "" for
// none), and be a regular file. It returns the resolved path. A file that does not exist yet is
// checked by its cleaned absolute path (ForFile will then fail on it). The
// error names the path and the allowed places, never anything in the file
// (which is not read).
func CheckFileAllowed(path string, roots []string, userConfigDir string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("tokenizer: %s: %w", path, unwrapPath(err))
		}
		real = filepath.Clean(abs)
	} else if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("tokenizer: %s is not a regular file (%s)", path, safeio.Kind(fi.Mode()))
	}
	allowed := append(append([]string(nil), roots...), userConfigDir)
	var places []string
	for _, d := range allowed {
		if d == "" {
			continue
		}
		places = append(places, d)
		if within(real, d) {
			return real, nil
		}
		if rd, err := filepath.EvalSymlinks(d); err == nil && within(real, rd) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%w: %s resolves outside the workspace and the user's configuration directory (allowed: %s); "+
		"a repository's configuration may only name a tokenizer.json inside them — move the file there, or pass it with --tokenizer-file",
		ErrFileNotAllowed, path, strings.Join(places, ", "))
}

// within reports whether path is dir or below it (both absolute, clean).
func within(path, dir string) bool {
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(dir) {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// UserConfigDir is the user's own acode-lsp configuration directory
// ($XDG_CONFIG_HOME/acode-lsp, else ~/.config/acode-lsp), where a
// repository's configuration may also find a tokenizer file; "" when
// unknown.
func UserConfigDir() string {
	d, err := os.UserConfigDir()
	if err != nil || d == "" {
		return ""
	}
	return filepath.Join(d, "acode-lsp")
}

// lruKey is the key type of the package's LRUs (the test files have a
// function named comparable).
type lruKey interface{ ~string | fileKey }
