package tokenizer

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// A compiled vocabulary is the part of a tokenizer.json that counting needs,
// in a compact binary form (gzip-compressed):
//
//	"ACODE-BPE1\n"
//	uvarint n, n bytes: the header (JSON, compiledHeader)
//	vocab:  header.Vocab times uvarint len + the token's bytes (len 0: no token with this id)
//	merges: header.Merges times uvarint left id, uvarint right id, and the
//	        merged token's id as a zigzag delta from the previous merge's, in
//	        rank order
//
// Byte-level tokens are stored as their raw bytes (the "Ġ"-style characters
// decoded), character-level tokens as UTF-8.
const compiledMagic = "ACODE-BPE2\n"

// compiledHeader describes a compiled vocabulary.
type compiledHeader struct {
	ByteLevel    bool     `json:"byteLevel"`
	Pre          string   `json:"pre"`
	Norm         string   `json:"norm"`
	IgnoreMerges bool     `json:"ignoreMerges"`
	ByteFallback bool     `json:"byteFallback"`
	Unk          bool     `json:"unk"`
	Added        []string `json:"added"`     // non-special added tokens matched in the raw text
	AddedNorm    []string `json:"addedNorm"` // … matched in the normalized text
	Vocab        int      `json:"vocab"`
	Merges       int      `json:"merges"`
}

// hfJSON is the part of a tokenizer.json that is read.
type hfJSON struct {
	AddedTokens  []hfAddedToken  `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Model        hfModelJSON     `json:"model"`
}

// hfAddedToken is an entry of a tokenizer.json's added_tokens.
type hfAddedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type hfModelJSON struct {
	Type                    string            `json:"type"`
	Dropout                 *float64          `json:"dropout"`
	UnkToken                *string           `json:"unk_token"`
	ContinuingSubwordPrefix *string           `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string           `json:"end_of_word_suffix"`
	FuseUnk                 bool              `json:"fuse_unk"`
	ByteFallback            bool              `json:"byte_fallback"`
	IgnoreMerges            bool              `json:"ignore_merges"`
	Vocab                   map[string]uint32 `json:"vocab"`
	Merges                  []json.RawMessage `json:"merges"`
}

// component is a normalizer or pre-tokenizer object of a tokenizer.json.
type component struct {
	Type           string          `json:"type"`
	Pattern        json.RawMessage `json:"pattern"`
	Content        *string         `json:"content"`
	Behavior       string          `json:"behavior"`
	Invert         bool            `json:"invert"`
	AddPrefixSpace bool            `json:"add_prefix_space"`
	UseRegex       *bool           `json:"use_regex"`
	Normalizers    []component     `json:"normalizers"`
	Pretokenizers  []component     `json:"pretokenizers"`
}

type patternJSON struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

func (c component) pattern() (s string, regex bool) {
	var p patternJSON
	if json.Unmarshal(c.Pattern, &p) != nil {
		return "", false
	}
	if p.Regex != nil {
		return *p.Regex, true
	}
	if p.String != nil {
		return *p.String, false
	}
	return "", false
}

// unsupported builds the error that names what a tokenizer.json uses that
// acode-lsp cannot count exactly.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("tokenizer: tokenizer.json: "+format+" is not supported (acode-lsp counts BPE models exactly with the pre-tokenizers of Llama 3, Qwen 2/2.5/3 and DeepSeek V3 — byte-level — and the Gemma 3 SentencePiece form)", args...)
}

// CompileVocabulary reads a Hugging Face tokenizer.json and returns its
// compiled form (the format of the embedded vocabularies). It fails, naming
// the part, when the file uses something the exact counter does not
// implement. The generator of the embedded vocabularies
// (budget/tokenizer/internal/genvocab) and context.tokenizer.file use it.
func CompileVocabulary(tokenizerJSON []byte) ([]byte, error) {
	tj, err := decodeHFJSON(tokenizerJSON)
	if err != nil {
		return nil, err
	}
	m := tj.Model
	h, err := modelHeader(m)
	if err != nil {
		return nil, err
	}
	hasNormalizer, err := compileNormalizer(tj.Normalizer, &h)
	if err != nil {
		return nil, err
	}
	if err := compilePreTokenizer(tj.PreTokenizer, &h); err != nil {
		return nil, err
	}
	if err := compileAdded(tj.AddedTokens, hasNormalizer, &h); err != nil {
		return nil, err
	}
	vocab, err := vocabByID(m.Vocab, h.ByteLevel)
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	for _, tok := range vocab {
		putUvarint(&body, uint64(len(tok)))
		body.WriteString(tok)
	}
	if h.Merges, err = compileMerges(&body, m); err != nil {
		return nil, err
	}
	h.Vocab = len(vocab)
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString(compiledMagic)
	putUvarint(&out, uint64(len(hj)))
	out.Write(hj)
	out.Write(body.Bytes())

	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(out.Bytes())
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// decodeHFJSON decodes a tokenizer.json, saying only where it broke: a
// JSON error's text may quote the file.
func decodeHFJSON(data []byte) (hfJSON, error) {
	var tj hfJSON
	if err := json.Unmarshal(data, &tj); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return tj, fmt.Errorf("tokenizer: tokenizer.json: not valid JSON (at byte %d)", se.Offset)
		}
		return tj, errors.New("tokenizer: tokenizer.json: not the JSON of a Hugging Face tokenizer (a field has the wrong type)")
	}
	return tj, nil
}

// modelHeader checks that the model is a plain BPE and starts the header
// with its flags.
func modelHeader(m hfModelJSON) (compiledHeader, error) {
	var h compiledHeader
	switch {
	case m.Type == "":
		return h, errors.New("tokenizer: tokenizer.json: no model.type (is this a Hugging Face tokenizer.json?)")
	case m.Type != "BPE":
		return h, unsupported("model.type %q", short(m.Type))
	case m.Dropout != nil && *m.Dropout != 0:
		return h, unsupported("model.dropout %v", *m.Dropout)
	case deref(m.ContinuingSubwordPrefix) != "":
		return h, unsupported("model.continuing_subword_prefix %q", short(*m.ContinuingSubwordPrefix))
	case deref(m.EndOfWordSuffix) != "":
		return h, unsupported("model.end_of_word_suffix %q", short(*m.EndOfWordSuffix))
	}
	h.IgnoreMerges, h.ByteFallback = m.IgnoreMerges, m.ByteFallback
	if m.UnkToken != nil {
		_, h.Unk = m.Vocab[*m.UnkToken]
	}
	return h, nil
}

// compileNormalizer sets h.Norm from the normalizer (NFC, Gemma 3's
// Replace " " → "▁", or an empty Sequence) and reports whether there is
// one at all.
func compileNormalizer(raw json.RawMessage, h *compiledHeader) (bool, error) {
	if isJSONNull(raw) {
		return false, nil
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return true, fmt.Errorf("tokenizer: tokenizer.json: normalizer: %w", err)
	}
	switch {
	case c.Type == "NFC":
		h.Norm = normNFC
	case c.Type == "Sequence" && len(c.Normalizers) == 0:
	case c.Type == "Replace":
		p, re := c.pattern()
		if re || p != " " || deref(c.Content) != "▁" {
			return true, unsupported("normalizer Replace %q → %q", short(p), short(deref(c.Content)))
		}
		h.Norm = normMetaspace
	default:
		return true, unsupported("normalizer %s", describe(raw))
	}
	return true, nil
}

// compilePreTokenizer sets h.Pre (and h.ByteLevel) from the pre-tokenizer:
// none after Gemma 3's normalizer, else a Sequence of Splits ending with
// ByteLevel.
func compilePreTokenizer(raw json.RawMessage, h *compiledHeader) error {
	var pre component
	if !isJSONNull(raw) {
		if err := json.Unmarshal(raw, &pre); err != nil {
			return fmt.Errorf("tokenizer: tokenizer.json: pre_tokenizer: %w", err)
		}
	}
	switch {
	case h.Norm == normMetaspace:
		// Gemma 3: the normalizer turned spaces into "▁", so a Split on " "
		// never matches; each section is one word of characters.
		if pre.Type != "" {
			if p, re := pre.pattern(); pre.Type != "Split" || re || p != " " {
				return unsupported("pre_tokenizer %s after a Replace \" \" → \"▁\" normalizer", describe(raw))
			}
		}
		h.Pre = preNone
		return nil
	case pre.Type == "Sequence":
		p, err := byteLevelSequence(pre.Pretokenizers, raw)
		if err != nil {
			return err
		}
		h.Pre, h.ByteLevel = p, true
		return nil
	default:
		return unsupported("pre_tokenizer %s", describe(raw))
	}
}

// byteLevelPre maps the Split patterns of a byte-level Sequence (joined by
// NUL) to the pre-tokenizer that implements them.
var byteLevelPre = map[string]string{
	llama3Pattern: preLlama3,
	qwen3Pattern:  preQwen3,
	deepseekDigits + "\x00" + deepseekCJK + "\x00" + deepseekRest: preDeepseek,
}

// byteLevelSequence names the pre-tokenizer of a Sequence of isolating
// regex Splits ending with a plain ByteLevel.
func byteLevelSequence(steps []component, raw json.RawMessage) (string, error) {
	if len(steps) == 0 || steps[len(steps)-1].Type != "ByteLevel" {
		return "", unsupported("pre_tokenizer %s (a Sequence must end with ByteLevel)", describe(raw))
	}
	bl := steps[len(steps)-1]
	if bl.AddPrefixSpace || bl.UseRegex == nil || *bl.UseRegex {
		return "", unsupported("pre_tokenizer ByteLevel with add_prefix_space or use_regex")
	}
	var pats []string
	for _, st := range steps[:len(steps)-1] {
		p, re := st.pattern()
		if st.Type != "Split" || !re || st.Behavior != "Isolated" || st.Invert {
			return "", unsupported("pre_tokenizer step %s", describeComponent(st))
		}
		pats = append(pats, p)
	}
	pre, ok := byteLevelPre[strings.Join(pats, "\x00")]
	if !ok {
		return "", unsupported("pre_tokenizer Split pattern(s) %q", shortAll(pats))
	}
	return pre, nil
}

// compileAdded lists the non-special added tokens (special ones are
// ordinary text), matched in the raw or the normalized text as HF does.
func compileAdded(added []hfAddedToken, hasNormalizer bool, h *compiledHeader) error {
	addedBytes := 0
	for _, a := range added {
		if a.Special {
			continue
		}
		if a.LStrip || a.RStrip || a.SingleWord {
			return unsupported("added token %q with lstrip, rstrip or single_word", short(a.Content))
		}
		if a.Normalized && hasNormalizer {
			s := normalizeAdded(h.Norm, a.Content)
			h.AddedNorm = append(h.AddedNorm, s)
			addedBytes += len(s)
		} else {
			h.Added = append(h.Added, a.Content)
			addedBytes += len(a.Content)
		}
	}
	if addedBytes > maxAddedBytes {
		return fmt.Errorf("tokenizer: tokenizer.json: its non-special added tokens hold %d bytes; more than %d is not supported", addedBytes, maxAddedBytes)
	}
	return nil
}

// vocabByID lays the vocabulary out by id, byte-level tokens decoded to
// their bytes ("" where no reachable token has the id).
func vocabByID(v map[string]uint32, byteLevel bool) ([]string, error) {
	n := 0
	for _, id := range v {
		n = max(n, int(id)+1)
	}
	// Ids index tables of n entries: a few holes are fine, but an id far
	// beyond the vocabulary's size would make a tiny file cost hundreds of
	// MB (issue 21).
	if n > 1<<24 || n > len(v)+1<<16 {
		return nil, fmt.Errorf("tokenizer: tokenizer.json: token id %d is too large for a vocabulary of %d tokens", n-1, len(v))
	}
	vocab := make([]string, n)
	for tok, id := range v {
		b, ok := tok, true
		if byteLevel {
			b, ok = byteLevelDecode(tok) // !ok: not reachable from byte-level text
		}
		if !ok || b == "" {
			continue
		}
		if vocab[id] != "" {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: tokens %q and %q share id %d", short(vocab[id]), short(b), id)
		}
		vocab[id] = b
	}
	if byteLevel {
		for c := range 256 {
			if _, ok := v[string(byteLevelEncode[c])]; !ok {
				return nil, unsupported("a byte-level vocabulary without the token for byte 0x%02X", c)
			}
		}
	}
	return vocab, nil
}

// compileMerges writes the merges in rank order (left id, right id, the
// result's id as a zigzag delta from the previous one) and returns how
// many there are.
func compileMerges(body *bytes.Buffer, m hfModelJSON) (int, error) {
	prevResult := int64(0)
	for i, raw := range m.Merges {
		a, b, err := parseMerge(raw)
		if err != nil {
			return 0, fmt.Errorf("tokenizer: tokenizer.json: merge %d: %w", i, err)
		}
		ia, oka := m.Vocab[a]
		ib, okb := m.Vocab[b]
		iab, okab := m.Vocab[a+b]
		if !oka || !okb || !okab {
			return 0, fmt.Errorf("tokenizer: tokenizer.json: merge %d (%q %q): a part or the result is not in the vocabulary", i, short(a), short(b))
		}
		putUvarint(body, uint64(ia))
		putUvarint(body, uint64(ib))
		d := int64(iab) - prevResult
		putUvarint(body, uint64(d<<1)^uint64(d>>63))
		prevResult = int64(iab)
	}
	return len(m.Merges), nil
}

// putUvarint appends v as a uvarint.
func putUvarint(b *bytes.Buffer, v uint64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutUvarint(tmp[:], v)])
}

func isJSONNull(r json.RawMessage) bool {
	s := strings.TrimSpace(string(r))
	return s == "" || s == "null"
}

// describe shortens a component for an error message.
func describe(r json.RawMessage) string {
	var c component
	if json.Unmarshal(r, &c) != nil {
		return "(not a component object)"
	}
	return shortN(describeComponent(c), 240)
}

func describeComponent(c component) string {
	s := c.Type
	if p, re := c.pattern(); p != "" {
		kind := "String"
		if re {
			kind = "Regex"
		}
		s += fmt.Sprintf(" (%s %q)", kind, short(p))
	}
	if c.Type == "Sequence" {
		var parts []string
		for _, x := range append(c.Normalizers, c.Pretokenizers...) {
			parts = append(parts, describeComponent(x))
		}
		s += " [" + strings.Join(parts, ", ") + "]"
	}
	if s == "" {
		return "(missing)"
	}
	return s
}

func normalizeAdded(norm, s string) string {
	if norm == normMetaspace {
		return strings.ReplaceAll(s, " ", "▁")
	}
	if norm == normNFC {
		return nfc(s)
	}
	return s
}

// parseMerge reads a merge: "a b" (the old format) or ["a", "b"].
func parseMerge(raw json.RawMessage) (string, string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		a, b, ok := strings.Cut(s, " ")
		if !ok {
			return "", "", fmt.Errorf("%q is not two tokens", short(s))
		}
		return a, b, nil
	}
	var pair []string
	if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
		return "", "", fmt.Errorf("%s is not a pair of tokens", short(string(raw)))
	}
	return pair[0], pair[1], nil
}

// byteLevelEncode is GPT-2's bytes_to_unicode: printable bytes stand for
// themselves, the others for U+0100 onwards, in order.
var byteLevelEncode, byteLevelDecodeMap = func() ([256]rune, map[rune]byte) {
	var enc [256]rune
	dec := map[rune]byte{}
	n := 0
	for b := 0; b < 256; b++ {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE {
			enc[b] = rune(b)
		} else {
			enc[b] = rune(256 + n)
			n++
		}
		dec[enc[b]] = byte(b)
	}
	return enc, dec
}()

// byteLevelDecode turns a byte-level token back into its bytes.
func byteLevelDecode(tok string) (string, bool) {
	var b strings.Builder
	for _, r := range tok {
		c, ok := byteLevelDecodeMap[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// loadCompiled builds a model from a compiled vocabulary.
func loadCompiled(spec string, gz []byte) (*hfModel, error) {
	bad := func(what string) error { return fmt.Errorf("tokenizer: vocabulary %s: %s", spec, what) }
	data, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: vocabulary %s: %w", spec, err)
	}
	if !bytes.HasPrefix(data, []byte(compiledMagic)) {
		return nil, bad("not a compiled vocabulary")
	}
	r := &compiledReader{p: data[len(compiledMagic):]}
	h, err := r.header()
	if err != nil {
		return nil, bad(err.Error())
	}
	m := &hfModel{
		spec: spec, byteLevel: h.ByteLevel, pre: h.Pre, norm: h.Norm,
		ignoreMerges: h.IgnoreMerges, byteFallback: h.ByteFallback, unk: h.Unk,
		addedRaw: newAddedSet(h.Added), addedNorm: newAddedSet(h.AddedNorm),
	}
	t, entry, err := r.vocab(h.Vocab)
	if err != nil {
		return nil, bad(err.Error())
	}
	// The token index and the merge table are independent: build them on
	// two cores (half the time to a ready encoder on a quiet machine).
	var wg sync.WaitGroup
	var buildErr error
	wg.Go(func() { buildErr = t.build() })
	m.merges, err = r.merges(h.Merges, entry)
	wg.Wait()
	if err == nil {
		err = buildErr
	}
	if err != nil {
		return nil, bad(err.Error())
	}
	m.vocab = t
	m.self = make([]uint32, h.Vocab)
	if err := m.setByteIDs(); err != nil {
		return nil, bad(err.Error())
	}
	m.metaID = t.get("▁")
	if len(r.p) != 0 {
		return nil, bad("trailing data")
	}
	return m, nil
}

// gunzip decompresses a compiled vocabulary in one allocation.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	size := 0
	if len(gz) >= 4 { // gzip's trailer holds the uncompressed size
		size = int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(size, 256<<20)+1))
	_, err = buf.ReadFrom(zr)
	return buf.Bytes(), err
}

// compiledReader reads the parts of a compiled vocabulary after its magic.
type compiledReader struct{ p []byte }

func (r *compiledReader) uvarint() (uint64, bool) {
	v, k := binary.Uvarint(r.p)
	if k <= 0 {
		return 0, false
	}
	r.p = r.p[k:]
	return v, true
}

// header reads the length-prefixed JSON header.
func (r *compiledReader) header() (compiledHeader, error) {
	var h compiledHeader
	hl, ok := r.uvarint()
	if !ok || hl > uint64(len(r.p)) {
		return h, errors.New("truncated header")
	}
	if err := json.Unmarshal(r.p[:hl], &h); err != nil {
		return h, errors.New("header: " + err.Error())
	}
	r.p = r.p[hl:]
	return h, nil
}

// vocab reads n tokens by id into a rank table (not yet built) and returns
// it with each id's entry in it (-1: no token has the id).
func (r *compiledReader) vocab(n int) (*rankTable, []int32, error) {
	t := &rankTable{off: make([]uint32, 0, n+1), rank: make([]uint32, 0, n)}
	arena := make([]byte, 0, len(r.p))
	entry := make([]int32, n)
	for id := range n {
		entry[id] = -1
		l, ok := r.uvarint()
		if !ok || l > uint64(len(r.p)) {
			return nil, nil, errors.New("truncated vocabulary")
		}
		if l == 0 {
			continue
		}
		entry[id] = int32(len(t.rank))
		t.off = append(t.off, uint32(len(arena)))
		t.rank = append(t.rank, uint32(id))
		arena = append(arena, r.p[:l]...)
		r.p = r.p[l:]
	}
	t.off = append(t.off, uint32(len(arena)))
	t.arena = string(arena)
	return t, entry, nil
}

// merges reads n merges in rank order; each must name ids that have a
// token.
func (r *compiledReader) merges(n int, entry []int32) (mergeTable, error) {
	mt := newMergeTable(n)
	vocab := uint64(len(entry))
	prev := int64(0)
	for rank := range n {
		a, ok1 := r.uvarint()
		b, ok2 := r.uvarint()
		zd, ok3 := r.uvarint()
		id := prev + (int64(zd>>1) ^ -int64(zd&1))
		if !ok1 || !ok2 || !ok3 || a >= vocab || b >= vocab || id < 0 || uint64(id) >= vocab {
			return mt, errors.New("truncated merges")
		}
		if entry[a] < 0 || entry[b] < 0 || entry[id] < 0 {
			return mt, fmt.Errorf("merge %d names an id without a token", rank)
		}
		prev = id
		mt.put(uint32(a), uint32(b), uint32(rank), uint32(id))
	}
	return mt, nil
}

// setByteIDs finds each byte's token: every byte in a byte-level
// vocabulary, the ASCII characters in a character-level one (noRank where
// there is none).
func (m *hfModel) setByteIDs() error {
	for c := range 256 {
		var key string
		if m.byteLevel {
			key = string([]byte{byte(c)})
		} else if c < 0x80 {
			key = string(rune(c))
		} else {
			m.byteID[c] = noRank // not a character by itself
			continue
		}
		m.byteID[c] = m.vocab.get(key)
		if m.byteLevel && m.byteID[c] == noRank {
			return fmt.Errorf("no token for byte 0x%02X", c)
		}
	}
	return nil
}

// maxQuoted is how much of a value from a tokenizer.json an error quotes:
// a short prefix, so that an error never carries a file's content.
const maxQuoted = 48

// short returns at most maxQuoted bytes of s (whole characters), with
// "…" when it was cut.
func short(s string) string { return shortN(s, maxQuoted) }

func shortN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func shortAll(ss []string) []string {
	out := make([]string, 0, min(len(ss), 4))
	for i, s := range ss {
		if i == 4 {
			out = append(out, "…")
			break
		}
		out = append(out, short(s))
	}
	return out
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
