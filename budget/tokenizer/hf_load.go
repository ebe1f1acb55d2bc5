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
	AddedTokens []struct {
		ID         int    `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
		Special    bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Model        hfModelJSON     `json:"model"`
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
	var tj hfJSON
	if err := json.Unmarshal(tokenizerJSON, &tj); err != nil {
		// The error text may quote the file; say only where it broke.
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: not valid JSON (at byte %d)", se.Offset)
		}
		return nil, errors.New("tokenizer: tokenizer.json: not the JSON of a Hugging Face tokenizer (a field has the wrong type)")
	}
	m := tj.Model
	if m.Type != "BPE" {
		if m.Type == "" {
			return nil, errors.New("tokenizer: tokenizer.json: no model.type (is this a Hugging Face tokenizer.json?)")
		}
		return nil, unsupported("model.type %q", short(m.Type))
	}
	if m.Dropout != nil && *m.Dropout != 0 {
		return nil, unsupported("model.dropout %v", *m.Dropout)
	}
	if m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "" {
		return nil, unsupported("model.continuing_subword_prefix %q", short(*m.ContinuingSubwordPrefix))
	}
	if m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "" {
		return nil, unsupported("model.end_of_word_suffix %q", short(*m.EndOfWordSuffix))
	}
	h := compiledHeader{IgnoreMerges: m.IgnoreMerges, ByteFallback: m.ByteFallback}
	if m.UnkToken != nil {
		if _, ok := m.Vocab[*m.UnkToken]; ok {
			h.Unk = true
		}
	}

	// Normalizer.
	hasNormalizer := false
	if !isJSONNull(tj.Normalizer) {
		hasNormalizer = true
		var c component
		if err := json.Unmarshal(tj.Normalizer, &c); err != nil {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: normalizer: %w", err)
		}
		switch {
		case c.Type == "NFC":
			h.Norm = normNFC
		case c.Type == "Sequence" && len(c.Normalizers) == 0:
		case c.Type == "Replace":
			p, re := c.pattern()
			if re || p != " " || c.Content == nil || *c.Content != "▁" {
				return nil, unsupported("normalizer Replace %q → %q", short(p), short(deref(c.Content)))
			}
			h.Norm = normMetaspace
		default:
			return nil, unsupported("normalizer %s", describe(tj.Normalizer))
		}
	}

	// Pre-tokenizer.
	var pre component
	if !isJSONNull(tj.PreTokenizer) {
		if err := json.Unmarshal(tj.PreTokenizer, &pre); err != nil {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: pre_tokenizer: %w", err)
		}
	}
	switch {
	case h.Norm == normMetaspace:
		// Gemma 3: the normalizer turned spaces into "▁", so a Split on " "
		// never matches; each section is one word of characters.
		if pre.Type != "" {
			if p, re := pre.pattern(); pre.Type != "Split" || re || p != " " {
				return nil, unsupported("pre_tokenizer %s after a Replace \" \" → \"▁\" normalizer", describe(tj.PreTokenizer))
			}
		}
		h.Pre = preNone
	case pre.Type == "Sequence":
		steps := pre.Pretokenizers
		if len(steps) == 0 || steps[len(steps)-1].Type != "ByteLevel" {
			return nil, unsupported("pre_tokenizer %s (a Sequence must end with ByteLevel)", describe(tj.PreTokenizer))
		}
		bl := steps[len(steps)-1]
		if bl.AddPrefixSpace || bl.UseRegex == nil || *bl.UseRegex {
			return nil, unsupported("pre_tokenizer ByteLevel with add_prefix_space or use_regex")
		}
		var pats []string
		for _, st := range steps[:len(steps)-1] {
			p, re := st.pattern()
			if st.Type != "Split" || !re || st.Behavior != "Isolated" || st.Invert {
				return nil, unsupported("pre_tokenizer step %s", describeComponent(st))
			}
			pats = append(pats, p)
		}
		switch strings.Join(pats, "\x00") {
		case llama3Pattern:
			h.Pre = preLlama3
		case qwen3Pattern:
			h.Pre = preQwen3
		case deepseekDigits + "\x00" + deepseekCJK + "\x00" + deepseekRest:
			h.Pre = preDeepseek
		default:
			return nil, unsupported("pre_tokenizer Split pattern(s) %q", shortAll(pats))
		}
		h.ByteLevel = true
	default:
		return nil, unsupported("pre_tokenizer %s", describe(tj.PreTokenizer))
	}

	// Added tokens: special ones are ordinary text (content only); the
	// others are matched as HF does.
	for _, a := range tj.AddedTokens {
		if a.Special {
			continue
		}
		if a.LStrip || a.RStrip || a.SingleWord {
			return nil, unsupported("added token %q with lstrip, rstrip or single_word", short(a.Content))
		}
		if a.Normalized && hasNormalizer {
			h.AddedNorm = append(h.AddedNorm, normalizeAdded(h.Norm, a.Content))
		} else {
			h.Added = append(h.Added, a.Content)
		}
	}

	addedBytes := 0
	for _, a := range append(h.Added[:len(h.Added):len(h.Added)], h.AddedNorm...) {
		addedBytes += len(a)
	}
	if addedBytes > maxAddedBytes {
		return nil, fmt.Errorf("tokenizer: tokenizer.json: its non-special added tokens hold %d bytes; more than %d is not supported", addedBytes, maxAddedBytes)
	}

	// Vocabulary by id.
	n := 0
	for _, id := range m.Vocab {
		if int(id) >= n {
			n = int(id) + 1
		}
	}
	// Ids index tables of n entries: a few holes are fine, but an id far
	// beyond the vocabulary's size would make a tiny file cost hundreds of
	// MB (issue 21).
	if n > 1<<24 || n > len(m.Vocab)+1<<16 {
		return nil, fmt.Errorf("tokenizer: tokenizer.json: token id %d is too large for a vocabulary of %d tokens", n-1, len(m.Vocab))
	}
	vocab := make([]string, n)
	for tok, id := range m.Vocab {
		b := tok
		if h.ByteLevel {
			var ok bool
			if b, ok = byteLevelDecode(tok); !ok {
				continue // not reachable from byte-level text
			}
		}
		if b == "" {
			continue
		}
		if vocab[id] != "" {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: tokens %q and %q share id %d", short(vocab[id]), short(b), id)
		}
		vocab[id] = b
	}
	if h.ByteLevel {
		for c := 0; c < 256; c++ {
			if _, ok := m.Vocab[string(byteLevelEncode[c])]; !ok {
				return nil, unsupported("a byte-level vocabulary without the token for byte 0x%02X", c)
			}
		}
	}

	// Merges.
	var out bytes.Buffer
	out.WriteString(compiledMagic)
	var body bytes.Buffer
	var tmp [binary.MaxVarintLen64]byte
	putU := func(v uint64) { body.Write(tmp[:binary.PutUvarint(tmp[:], v)]) }
	for _, tok := range vocab {
		putU(uint64(len(tok)))
		body.WriteString(tok)
	}
	prevResult := int64(0)
	for i, raw := range m.Merges {
		a, b, err := parseMerge(raw)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: merge %d: %w", i, err)
		}
		ia, oka := m.Vocab[a]
		ib, okb := m.Vocab[b]
		iab, okab := m.Vocab[a+b]
		if !oka || !okb || !okab {
			return nil, fmt.Errorf("tokenizer: tokenizer.json: merge %d (%q %q): a part or the result is not in the vocabulary", i, short(a), short(b))
		}
		putU(uint64(ia))
		putU(uint64(ib))
		d := int64(iab) - prevResult
		putU(uint64(d<<1) ^ uint64(d>>63))
		prevResult = int64(iab)
		h.Merges++
	}
	h.Vocab = n
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	out.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(hj)))])
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
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("tokenizer: vocabulary %s: %w", spec, err)
	}
	size := 0
	if len(gz) >= 4 { // gzip's trailer holds the uncompressed size
		size = int(binary.LittleEndian.Uint32(gz[len(gz)-4:]))
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(size, 256<<20)+1))
	_, err = buf.ReadFrom(zr)
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("tokenizer: vocabulary %s: %w", spec, err)
	}
	bad := func(what string) error { return fmt.Errorf("tokenizer: vocabulary %s: %s", spec, what) }
	if !bytes.HasPrefix(data, []byte(compiledMagic)) {
		return nil, bad("not a compiled vocabulary")
	}
	p := data[len(compiledMagic):]
	uv := func() (uint64, bool) {
		v, k := binary.Uvarint(p)
		if k <= 0 {
			return 0, false
		}
		p = p[k:]
		return v, true
	}
	hl, ok := uv()
	if !ok || hl > uint64(len(p)) {
		return nil, bad("truncated header")
	}
	var h compiledHeader
	if err := json.Unmarshal(p[:hl], &h); err != nil {
		return nil, bad("header: " + err.Error())
	}
	p = p[hl:]

	m := &hfModel{
		spec: spec, byteLevel: h.ByteLevel, pre: h.Pre, norm: h.Norm,
		ignoreMerges: h.IgnoreMerges, byteFallback: h.ByteFallback, unk: h.Unk,
		addedRaw: newAddedSet(h.Added), addedNorm: newAddedSet(h.AddedNorm),
	}
	t := &rankTable{off: make([]uint32, 0, h.Vocab+1), rank: make([]uint32, 0, h.Vocab)}
	arena := make([]byte, 0, len(p))
	entry := make([]int32, h.Vocab) // id → entry of t, -1 if none
	for id := 0; id < h.Vocab; id++ {
		entry[id] = -1
		l, ok := uv()
		if !ok || l > uint64(len(p)) {
			return nil, bad("truncated vocabulary")
		}
		if l == 0 {
			continue
		}
		entry[id] = int32(len(t.rank))
		t.off = append(t.off, uint32(len(arena)))
		t.rank = append(t.rank, uint32(id))
		arena = append(arena, p[:l]...)
		p = p[l:]
	}
	t.off = append(t.off, uint32(len(arena)))
	t.arena = string(arena)
	// The token index and the merge table are independent: build them on
	// two cores (half the time to a ready encoder on a quiet machine).
	var wg sync.WaitGroup
	var buildErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		buildErr = t.build()
	}()
	m.merges = newMergeTable(h.Merges)
	prev := int64(0)
	for r := 0; r < h.Merges; r++ {
		a, ok1 := uv()
		b, ok2 := uv()
		zd, ok3 := uv()
		id := prev + (int64(zd>>1) ^ -int64(zd&1))
		if !ok1 || !ok2 || !ok3 || a >= uint64(h.Vocab) || b >= uint64(h.Vocab) || id < 0 || id >= int64(h.Vocab) {
			wg.Wait()
			return nil, bad("truncated merges")
		}
		if entry[a] < 0 || entry[b] < 0 || entry[id] < 0 {
			wg.Wait()
			return nil, bad(fmt.Sprintf("merge %d names an id without a token", r))
		}
		prev = id
		m.merges.put(uint32(a), uint32(b), uint32(r), uint32(id))
	}
	wg.Wait()
	if buildErr != nil {
		return nil, bad(buildErr.Error())
	}
	m.vocab = t
	m.self = make([]uint32, h.Vocab)
	for c := range 256 {
		var key string
		if h.ByteLevel {
			key = string([]byte{byte(c)})
		} else if c < 0x80 {
			key = string(rune(c))
		} else {
			m.byteID[c] = noRank // not a character by itself
			continue
		}
		m.byteID[c] = t.get(key)
		if h.ByteLevel && m.byteID[c] == noRank {
			return nil, bad(fmt.Sprintf("no token for byte 0x%02X", c))
		}
	}
	m.metaID = t.get("▁")
	if len(p) != 0 {
		return nil, bad("trailing data")
	}
	return m, nil
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
