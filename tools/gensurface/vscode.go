package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/acode-lsp/acode-lsp/config"
)

// obj is a JSON object that keeps its keys in order.
type obj []field

type field struct {
	k string
	v any
}

// MarshalJSON writes the fields in order, without HTML escaping.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(f.k)
		if err != nil {
			return nil, err
		}
		v, err := marshal(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping and without the newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonText is v as compact JSON ("null" when it cannot be encoded).
func jsonText(v any) string {
	b, err := marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// vscodeConfiguration is package.json's contributes.configuration.
func (s surface) vscodeConfiguration() obj {
	props := obj{}
	for _, st := range s.settings {
		props = append(props, field{"acode." + st.Key, vscodeProperty(st)})
	}
	return obj{{"title", "Acode"}, {"properties", props}}
}

// vscodeProperty is one setting's JSON schema. A server setting may be
// null (unset: the config file decides) and says the file's default.
func vscodeProperty(st config.Setting) obj {
	var p obj
	typ := any(st.Type)
	def := st.Default
	doc := st.Doc
	if st.Server() {
		typ = []string{st.Type, "null"}
		def = nil
		doc += " Unset: `.agent/config.yml`, else " + valueText(config.FileDefault(st.File)) + "."
	}
	p = append(p, field{"type", typ})
	if st.Type == "array" {
		p = append(p, field{"items", obj{{"type", "string"}}})
	}
	p = append(p, field{"default", def})
	if st.Enum != nil {
		enum := []any{}
		if st.Server() {
			enum = append(enum, nil)
		}
		for _, e := range st.Enum {
			enum = append(enum, e)
		}
		p = append(p, field{"enum", enum})
	}
	if st.Min != nil {
		p = append(p, field{"minimum", *st.Min})
	}
	if st.Type == "object" {
		props := obj{}
		for _, k := range st.Properties {
			props = append(props, field{k, obj{{"type", "number"}, {"minimum", 0}, {"maximum", 100}}})
		}
		p = append(p, field{"properties", props}, field{"additionalProperties", false})
	}
	p = append(p, field{"markdownDescription", doc})
	if st.Scope != "" {
		p = append(p, field{"scope", st.Scope})
	}
	return p
}

// spliceConfiguration returns the package.json at path with the value of
// contributes.configuration replaced by conf (indented as npm writes it:
// two spaces), the rest of the file byte for byte as it was.
func spliceConfiguration(path string, conf obj) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	const key = "\n    \"configuration\": "
	i := bytes.Index(data, []byte(key))
	if i < 0 {
		return nil, fmt.Errorf("%s: no contributes.configuration (a line `    \"configuration\": {`)", path)
	}
	start := i + len(key)
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	var old json.RawMessage
	if err := dec.Decode(&old); err != nil {
		return nil, fmt.Errorf("%s: contributes.configuration: %w", path, err)
	}
	end := start + int(dec.InputOffset())
	compact, err := marshal(conf)
	if err != nil {
		return nil, err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, compact, "    ", "  "); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(data[:start])
	out.Write(ind.Bytes())
	out.Write(data[end:])
	return out.Bytes(), nil
}

// spliceBlocks returns the markdown file at path with the text between
// `<!-- gensurface:NAME -->` and `<!-- /gensurface:NAME -->` replaced by
// blocks[NAME]. Every block must be there.
func spliceBlocks(path string, blocks map[string]string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := string(data)
	for name, body := range blocks {
		open, shut := "<!-- gensurface:"+name+" -->\n", "<!-- /gensurface:"+name+" -->"
		i := strings.Index(text, open)
		j := strings.Index(text, shut)
		if i < 0 || j < i {
			return nil, fmt.Errorf("%s: no block %s…%s for the generated %s", path, strings.TrimSpace(open), shut, name)
		}
		text = text[:i+len(open)] + body + text[j:]
	}
	return []byte(text), nil
}
