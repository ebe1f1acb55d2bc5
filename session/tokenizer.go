package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Tokenizer returns the cached tokenizer a request counts with — the one
// rule of every door: a tokenizer.json file when the request names one
// (relative to the primary root), else its encoding, else its model, else
// the configured one (context.tokenizer.model, .encoding or .file, as
// pack.ConfiguredTokenizer reads them). A name or file that cannot be used
// is a *pack.ParamError naming the request's field (tokenizerFile,
// encoding, model).
func (s *Session) Tokenizer(model, encoding, file string) (tokenizer.Tokenizer, error) {
	field := "model"
	switch {
	case file != "":
		path := file
		if !filepath.IsAbs(path) {
			if len(s.roots) == 0 {
				return nil, &pack.ParamError{Field: "tokenizerFile", Message: fmt.Sprintf("%s is a relative path and there is no workspace root: give an absolute path to the tokenizer.json", short(file))}
			}
			path = filepath.Join(s.roots[0], path)
		}
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			return nil, &pack.ParamError{Field: "tokenizerFile", Message: fmt.Sprintf("%s is not a readable file: name a Hugging Face tokenizer.json", short(file))}
		}
		model, encoding, field = "", tokenizer.FilePrefix+path, "tokenizerFile"
	case encoding != "":
		field = "encoding"
	case model == "":
		model, encoding = pack.ConfiguredTokenizer(s.cfg)
	}
	t, err := s.tokenizers.Get(model, encoding, s.cfg.Context.Tokenizer.CacheSize)
	if err != nil {
		return nil, &pack.ParamError{Field: field, Message: err.Error()}
	}
	return t, nil
}

// maxQuoted is the most of a request's value an error message quotes.
const maxQuoted = 80

// short quotes a request's value in an error message: escaped (control
// characters, bidi controls) and cut to a short prefix, so an error never
// echoes a large argument.
func short(v string) string {
	if len(v) > maxQuoted {
		cut := maxQuoted
		for cut > 0 && v[cut]&0xC0 == 0x80 {
			cut--
		}
		return fmt.Sprintf("%q… (%d bytes)", collector.EscapePath(v[:cut]), len(v))
	}
	return fmt.Sprintf("%q", collector.EscapePath(v))
}

// Short quotes a request's value for an error message as every door
// does: escaped and at most a short prefix.
func Short(v string) string { return short(v) }
