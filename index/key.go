package index

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// The per-user secret (docs/index.md "What is stored"): 32 random bytes in
// $XDG_STATE_HOME/acode-lsp/index.key (else ~/.local/state/…), mode 0600.
// Every hash the index stores (terms, paths, chunking keys, directory
// names) is keyed with it, paths and chunk sets are encrypted with it, and
// every segment header carries a MAC under it, so that a copy of the cache
// without the key reveals nothing a dictionary could recover, and a
// segment this user's acode-lsp did not write is never used. Without a
// usable key the index is off.

const keySize = 32

// keyPath is where the per-user secret lives.
func keyPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "acode-lsp", "index.key"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return "", fmt.Errorf("index: no state directory for the index key (set XDG_STATE_HOME)")
	}
	return filepath.Join(h, ".local", "state", "acode-lsp", "index.key"), nil
}

// keys are the subkeys derived from the per-user secret.
type keys struct {
	id    uint64    // names the secret in segment headers (not secret)
	terms sipKey    // term hashes
	paths sipKey    // path hashes (the record table)
	other sipKey    // chunking keys, root directory names
	mapw  sipKey    // map words of redacted files (mapred.go)
	mapm  [2]sipKey // map hash marks (mapred.go)
	mac   []byte    // HMAC-SHA256 of segment headers
	text  []byte    // HMAC-SHA256 of contents
	enc   cipher.Block
}

func deriveKeys(secret []byte) *keys {
	sub := func(label string) []byte {
		m := hmac.New(sha256.New, secret)
		io.WriteString(m, "acode-lsp index "+label)
		return m.Sum(nil)
	}
	k := &keys{
		id:    binary.LittleEndian.Uint64(sub("id")),
		terms: sipKeyOf(sub("terms")),
		paths: sipKeyOf(sub("paths")),
		other: sipKeyOf(sub("other")),
		mapw:  sipKeyOf(sub("map words")),
		mapm:  [2]sipKey{sipKeyOf(sub("map marks 0")), sipKeyOf(sub("map marks 1"))},
		mac:   sub("mac"),
		text:  sub("content"),
	}
	k.enc, _ = aes.NewCipher(sub("encrypt")) // 32 bytes: AES-256, cannot fail
	return k
}

func (k *keys) termHash(t string) uint64 { return k.terms.sum64(t) }
func (k *keys) pathHash(p string) uint64 { return k.paths.sum64(p) }
func (k *keys) keyHash(s string) uint64  { return k.other.sum64("chunking key\x00" + s) }

// contentHash is the first 16 bytes of the keyed hash (HMAC-SHA256) of a
// file's content: a guess at a small file's text cannot be confirmed
// against it without the key.
func (k *keys) contentHash(content []byte) (h [16]byte) {
	m := hmac.New(sha256.New, k.text)
	m.Write(content)
	copy(h[:], m.Sum(nil))
	return h
}

// headerMAC is the MAC of a segment header's first macOff bytes.
func (k *keys) headerMAC(h []byte) []byte {
	m := hmac.New(sha256.New, k.mac)
	m.Write(h[:macOff])
	return m.Sum(nil)[:macSize]
}

// crypt encrypts or decrypts b (AES-256-CTR) in place; the counter block
// is the segment's nonce, the record and the part of the record, so no two
// texts of any segment share a key stream.
func (k *keys) crypt(nonce uint64, rec int, part uint32, b []byte) {
	if len(b) <= smallCTR {
		sc := ctrScratches.Get().(*ctrScratch)
		sc.counter(nonce, rec, part)
		sc.xor(k.enc, b)
		ctrScratches.Put(sc)
		return
	}
	var iv [aes.BlockSize]byte
	putCounter(&iv, nonce, rec, part)
	cipher.NewCTR(k.enc, iv[:]).XORKeyStream(b, b)
}

// putCounter writes the first counter block of a text: the segment's
// nonce, the record and the part.
func putCounter(iv *[aes.BlockSize]byte, nonce uint64, rec int, part uint32) {
	binary.BigEndian.PutUint64(iv[:], nonce)
	binary.BigEndian.PutUint32(iv[8:], uint32(rec))
	binary.BigEndian.PutUint32(iv[12:], part)
}

// smallCTR is the longest text crypt encrypts block by block rather than
// through a cipher.Stream (whose allocation, one per path looked up, was
// 11 % of a warm pack's garbage on the 100K tree).
const smallCTR = 512

// ctrScratch is the counter block and key stream block of one small
// crypt, pooled: blocks handed to cipher.Block's Encrypt would escape.
type ctrScratch struct{ iv, ks [aes.BlockSize]byte }

var ctrScratches = sync.Pool{New: func() any { return new(ctrScratch) }}

func (sc *ctrScratch) counter(nonce uint64, rec int, part uint32) {
	putCounter(&sc.iv, nonce, rec, part)
}

// xor is AES-CTR over b (in place) from the counter block sc.iv: the key
// stream of cipher.NewCTR (the whole block incremented as a big-endian
// 128-bit number), computed one block at a time.
func (sc *ctrScratch) xor(enc cipher.Block, b []byte) {
	for len(b) > 0 {
		enc.Encrypt(sc.ks[:], sc.iv[:])
		n := min(len(b), aes.BlockSize)
		for i := 0; i < n; i++ {
			b[i] ^= sc.ks[i]
		}
		b = b[n:]
		for i := aes.BlockSize - 1; i >= 0; i-- {
			sc.iv[i]++
			if sc.iv[i] != 0 {
				break
			}
		}
	}
}

// Parts of a record that are encrypted (counter offsets: a path never
// reaches 2^31 blocks).
const (
	partPath   = 0
	partChunks = 1 << 31
)

var loaded sync.Map // key path → *keys

// loadKeys returns the keys of the per-user secret, creating the secret
// when it does not exist.
func loadKeys() (*keys, error) {
	p, err := keyPath()
	if err != nil {
		return nil, err
	}
	if k, ok := loaded.Load(p); ok {
		return k.(*keys), nil
	}
	secret, err := readOrMakeKey(p)
	if err != nil {
		return nil, err
	}
	k := deriveKeys(secret)
	loaded.Store(p, k)
	return k, nil
}

// readOrMakeKey reads the secret at p, first making it (atomically: a
// complete temporary file linked into place, so a concurrent process
// reads either nothing or the whole key) when it does not exist. The
// directory must be this user's; the file must be a regular file of this
// user, readable by no one else, of exactly keySize bytes.
func readOrMakeKey(p string) ([]byte, error) {
	state, err := trustedParent(filepath.Dir(filepath.Dir(p)))
	if err != nil {
		return nil, fmt.Errorf("index key: %w", err)
	}
	dir, err := ownDirs(state, filepath.Base(filepath.Dir(p)))
	if err != nil {
		return nil, fmt.Errorf("index key: %w", err)
	}
	p = filepath.Join(dir, filepath.Base(p))
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		if err := makeKey(p); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("index key: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("index key: %w", err)
	}
	switch {
	case !ownRegular(fi):
		return nil, fmt.Errorf("index key: %w: %s is not a regular file of this user", errUntrusted, p)
	case fi.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("index key: %w: %s is readable by others (mode %04o); remove it (a new key is made, the index is rebuilt)", errUntrusted, p, fi.Mode().Perm())
	case fi.Size() != keySize:
		return nil, fmt.Errorf("index key: %w: %s holds %d bytes, not %d; remove it (a new key is made, the index is rebuilt)", errUntrusted, p, fi.Size(), keySize)
	}
	b := make([]byte, keySize)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("index key: %w", err)
	}
	return b, nil
}

func makeKey(p string) error {
	b := make([]byte, keySize)
	if _, err := rand.Read(b); err != nil {
		return fmt.Errorf("index key: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-key-*")
	if err != nil {
		return fmt.Errorf("index key: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Link, not rename: a key another process made first is kept.
		if err = os.Link(f.Name(), p); errors.Is(err, fs.ErrExist) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("index key: %w", err)
	}
	return nil
}
