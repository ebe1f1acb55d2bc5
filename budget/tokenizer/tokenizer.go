package tokenizer

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// Tokenizer counts tokens of text for one encoding.
type Tokenizer interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Encoding names the encoding: "o200k_base", "cl100k_base",
	// "p50k_base", "r50k_base", "llama3", "qwen3", "deepseek_v3",
	// "gemma3", "file:<path>" for a configured tokenizer.json, or
	// "heuristic".
	Encoding() string
	// Exact is false only for the heuristic.
	Exact() bool
}

// Encoding names.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
	P50kBase   = "p50k_base"
	R50kBase   = "r50k_base"
	Llama3     = "llama3"      // Llama 3.x (Hugging Face tokenizer.json)
	Qwen3      = "qwen3"       // Qwen 2, 2.5 and 3
	DeepseekV3 = "deepseek_v3" // DeepSeek V3 and R1
	Gemma3     = "gemma3"      // Gemma 3 and Gemini 2.x/3 (SentencePiece BPE)
	// HeuristicName is what the heuristic's Encoding method returns.
	HeuristicName = "heuristic"
)

// FilePrefix before a path names a tokenizer.json as an encoding
// ("file:/path/to/tokenizer.json", [ForFile]); it is what such a
// tokenizer's Encoding returns.
const FilePrefix = "file:"

// DefaultModel is the model ForModel uses for an empty name.
const DefaultModel = "gpt-4o"

// Encodings lists the exact encodings, newest first.
func Encodings() []string {
	return []string{O200kBase, Cl100kBase, P50kBase, R50kBase, Llama3, Qwen3, DeepseekV3, Gemma3}
}

// ForModel returns the exact tokenizer for a known model, or for a model
// without a public tokenizer (Claude, unknown models) an upper-bound
// estimate: a documented factor × the o200k_base count ([EstimateOf]). It never fails for a non-empty model name; "" means
// [DefaultModel]. The error is only for an encoder that cannot be built.
func ForModel(model string) (Tokenizer, error) {
	if model == "" {
		model = DefaultModel
	}
	enc, ok := EncodingForModel(model)
	if !ok {
		// No public tokenizer (Claude) or an unknown model: an upper-bound
		// estimate over o200k_base (estimate.go).
		return newEstimator(model)
	}
	return ForEncoding(enc)
}

// ForEncoding returns the exact tokenizer for an encoding name (case and
// surrounding spaces ignored). An unknown name is an error listing the
// valid ones.
func ForEncoding(name string) (Tokenizer, error) {
	if path, ok := strings.CutPrefix(strings.TrimSpace(name), FilePrefix); ok {
		return ForFile(path)
	}
	key := strings.ToLower(strings.TrimSpace(name))
	if h, ok := hfEncoders[key]; ok {
		if err := h.load(); err != nil {
			return nil, err
		}
		return h, nil
	}
	e, ok := encoders[key]
	if !ok {
		return nil, fmt.Errorf("tokenizer: unknown encoding %q (valid: %s)", name, strings.Join(Encodings(), ", "))
	}
	if err := e.check(); err != nil {
		return nil, err
	}
	return e, nil
}

// KnownEncoding reports whether name (case and surrounding spaces
// ignored) is one of [Encodings], without building its tables: a
// configuration check that must not take the ~0.1 s of a first load.
func KnownEncoding(name string) bool {
	key := strings.ToLower(strings.TrimSpace(name))
	_, hf := hfEncoders[key]
	_, tk := encoders[key]
	return hf || tk
}

// encoder is the exact tokenizer of one encoding: a hand-written splitter
// for the encoding's pattern and tiktoken's byte-pair merge over the
// encoding's ranks. The rank table is built on the first count (or by
// [Preload] in the background), not when the encoder is resolved: a
// process that resolves a tokenizer but never counts (a map replayed
// from its plan, a validation of an encoding's name) does not pay the
// table's ~30–50 ms of CPU.
type encoder struct {
	name  string
	split splitFunc
	once  sync.Once
	err   error
	ranks *rankTable
	ready atomic.Bool // the load has finished (set after ranks and err)
}

var encoders = map[string]*encoder{
	O200kBase:  {name: O200kBase, split: nextO200k},
	Cl100kBase: {name: Cl100kBase, split: nextCl100k},
	P50kBase:   {name: P50kBase, split: nextGPT2},
	R50kBase:   {name: R50kBase, split: nextGPT2},
}

// load builds the rank table on first use.
func (e *encoder) load() error {
	e.once.Do(func() {
		e.ranks, e.err = loadRanks(e.name)
		e.ready.Store(true)
	})
	return e.err
}

// check reports whether the encoder's ranks can be had without building
// them: the embedded rank file is there (building it then fails only on
// a corrupt binary, which TestRankTable and every count test would see).
func (e *encoder) check() error {
	if _, err := assets.Assets.Open(e.name + ".tiktoken"); err != nil {
		return fmt.Errorf("tokenizer: read ranks of %s: %w", e.name, err)
	}
	return nil
}

// table returns the rank table, building it on first use. A rank file
// that does not parse is a corrupt binary (see check): that panics rather
// than count wrong.
func (e *encoder) table() *rankTable {
	if err := e.load(); err != nil {
		panic(err.Error())
	}
	return e.ranks
}

// Count implements [Tokenizer].
func (e *encoder) Count(text string) int {
	text = toValidUTF8(text)
	ranks := e.table()
	n := 0
	for i := 0; i < len(text); {
		j := e.split(text, i)
		n += ranks.countPiece(text[i:j])
		i = j
	}
	return n
}

// Encoding implements [Tokenizer].
func (e *encoder) Encoding() string { return e.name }

// Exact implements [Tokenizer]; it is always true.
func (e *encoder) Exact() bool { return true }

// Resolve returns the tokenizer for a configuration that names a model, an
// encoding, or both: the encoding wins when it is not empty, else the model
// decides ([ForModel]). Every caller that turns settings into a tokenizer
// uses it, so the rule lives in one place.
func Resolve(model, encoding string) (Tokenizer, error) {
	if encoding != "" {
		return ForEncoding(encoding)
	}
	return ForModel(model)
}

// Preload starts building t's tables in the background when they are
// built on first use (an exact encoding's ranks), so that a caller that
// knows it will count — a pack with a query — has them ready by then
// without waiting for them now. It returns at once; the first count
// waits for the build if it is still running.
func Preload(t Tokenizer) {
	if c, ok := t.(*Cached); ok {
		t = c.t
	}
	if e, ok := t.(*encoder); ok && !e.ready.Load() {
		go func() { _ = e.load() }()
	}
}
