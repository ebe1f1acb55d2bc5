package conversation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Roles a message may have. RoleDeveloper is OpenAI's newer name for a
// system message and is treated like one.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one OpenAI-style chat message. Decoding keeps every field the
// package does not know (and the original key order), so a message that
// goes through [Trim] unchanged encodes back to the same JSON object.
type Message struct {
	Role       string
	Content    Content
	ToolCalls  []ToolCall
	ToolCallID string
	Name       string

	keys  []string                   // key order as decoded
	extra map[string]json.RawMessage // fields not modelled above
	bad   *ParamError                // the first field that did not decode
}

// knownMessageKeys are the fields Message models, in encoding order.
var knownMessageKeys = []string{"role", "content", "tool_calls", "tool_call_id", "name"}

// UnmarshalJSON decodes a message object, keeping unknown fields.
func (m *Message) UnmarshalJSON(data []byte) error {
	keys, fields, err := decodeObject(data)
	if err != nil {
		return fmt.Errorf("conversation: message: %w", err)
	}
	*m = Message{keys: keys}
	for _, k := range keys {
		raw := fields[k]
		known, problem := m.decodeField(k, raw)
		switch {
		case !known:
			if m.extra == nil {
				m.extra = map[string]json.RawMessage{}
			}
			m.extra[k] = raw
		case problem != "" && m.bad == nil:
			// A field of the wrong type does not fail decoding: it is
			// recorded and reported by [Trim] with the message's index
			// ("messages[3].role").
			m.bad = &ParamError{Field: k, Message: problem}
		}
	}
	return nil
}

// decodeField decodes the modelled field k: known is false for a field
// Message does not model, problem says why a known one did not decode.
func (m *Message) decodeField(k string, raw json.RawMessage) (known bool, problem string) {
	switch k {
	case "role":
		if json.Unmarshal(raw, &m.Role) != nil {
			return true, "must be a string"
		}
	case "content":
		if err := json.Unmarshal(raw, &m.Content); err != nil {
			var pe *ParamError
			if errors.As(err, &pe) {
				return true, pe.Message
			}
			return true, err.Error()
		}
	case "tool_calls":
		if isNull(raw) {
			break
		}
		if err := json.Unmarshal(raw, &m.ToolCalls); err != nil {
			return true, "must be a list of tool calls: " + err.Error()
		}
	case "tool_call_id":
		if !isNull(raw) && json.Unmarshal(raw, &m.ToolCallID) != nil {
			return true, "must be a string"
		}
	case "name":
		if !isNull(raw) && json.Unmarshal(raw, &m.Name) != nil {
			return true, "must be a string"
		}
	default:
		return false, ""
	}
	return true, ""
}

// MarshalJSON encodes the message with its original key order and unknown
// fields; fields added since decoding follow in the order role, content,
// tool_calls, tool_call_id, name.
func (m Message) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	seen := make(map[string]bool, len(m.keys))
	first := true
	emit := func(k string) error {
		v, ok, err := m.field(k)
		if err != nil || !ok {
			return err
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		writeJSONString(&buf, k)
		buf.WriteByte(':')
		buf.Write(v)
		return nil
	}
	for _, k := range m.keys {
		seen[k] = true
		if err := emit(k); err != nil {
			return nil, err
		}
	}
	for _, k := range knownMessageKeys {
		if !seen[k] {
			if err := emit(k); err != nil {
				return nil, err
			}
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// field returns the encoding of one key; ok is false when it is to be
// left out (an unset known field that was not in the input).
func (m Message) field(k string) (v []byte, ok bool, err error) {
	decoded := m.hasKey(k)
	switch k {
	case "role":
		return marshalNoEscape(m.Role), true, nil
	case "content":
		if m.Content.kind == contentAbsent && !decoded {
			return nil, false, nil
		}
		b, err := m.Content.MarshalJSON()
		return b, err == nil, err
	case "tool_calls":
		if len(m.ToolCalls) == 0 && !decoded {
			return nil, false, nil
		}
		if m.ToolCalls == nil { // decoded as null
			return []byte("null"), true, nil
		}
		b, err := json.Marshal(m.ToolCalls)
		return b, err == nil, err
	case "tool_call_id":
		if m.ToolCallID == "" && !decoded {
			return nil, false, nil
		}
		return marshalNoEscape(m.ToolCallID), true, nil
	case "name":
		if m.Name == "" && !decoded {
			return nil, false, nil
		}
		return marshalNoEscape(m.Name), true, nil
	}
	raw, ok := m.extra[k]
	return raw, ok, nil
}

func (m Message) hasKey(k string) bool {
	for _, key := range m.keys {
		if key == k {
			return true
		}
	}
	return false
}

// Err reports a field of the decoded message that had the wrong type
// (its Field is relative to the message, e.g. "content"), or nil.
func (m Message) Err() *ParamError { return m.bad }

// Extra returns the raw JSON of a field Message does not model.
func (m Message) Extra(key string) (json.RawMessage, bool) {
	raw, ok := m.extra[key]
	return raw, ok
}

// Marker fields a trim sets, when asked with "markers": true, on a message
// it replaced by a placeholder (seed 003): "_truncated": true and
// "_originalTokens": the content's tokens before. They are not counted in
// the message's cost; strip keys starting with "_" before sending the
// messages to a provider (they reject unknown fields).
const (
	MarkerTruncated      = "_truncated"
	MarkerOriginalTokens = "_originalTokens"
)

// WithExtra returns m with a field Message does not model set to raw
// (appended after the existing keys when new). m itself is unchanged.
func (m Message) WithExtra(key string, raw json.RawMessage) Message {
	for _, k := range knownMessageKeys {
		if k == key {
			panic("conversation: WithExtra on a modelled field " + key)
		}
	}
	extra := make(map[string]json.RawMessage, len(m.extra)+1)
	for k, v := range m.extra {
		extra[k] = v
	}
	if _, ok := extra[key]; !ok {
		keys := make([]string, len(m.keys), len(m.keys)+1)
		copy(keys, m.keys)
		if len(m.keys) == 0 { // built in Go: keep the known fields first
			for _, k := range knownMessageKeys {
				if _, ok, _ := m.field(k); ok {
					keys = append(keys, k)
				}
			}
		}
		m.keys = append(keys, key)
	}
	extra[key] = raw
	m.extra = extra
	return m
}

// IsSystem reports whether the message is a system (or developer) message,
// which trimming never drops.
func (m Message) IsSystem() bool {
	return m.Role == RoleSystem || m.Role == RoleDeveloper
}

type contentKind int

const (
	contentAbsent contentKind = iota
	contentNull
	contentText
	contentParts
)

// Content is a message's content: a string, a list of parts, or null.
type Content struct {
	kind  contentKind
	text  string
	parts []Part
}

// TextContent returns string content.
func TextContent(s string) Content { return Content{kind: contentText, text: s} }

// PartsContent returns multi-part content.
func PartsContent(parts ...Part) Content { return Content{kind: contentParts, parts: parts} }

// IsParts reports whether the content is a list of parts.
func (c Content) IsParts() bool { return c.kind == contentParts }

// IsNull reports whether the content is null or absent.
func (c Content) IsNull() bool { return c.kind == contentAbsent || c.kind == contentNull }

// Text returns the content as text: the string, or the text parts joined
// by newlines.
func (c Content) Text() string {
	if c.kind != contentParts {
		return c.text
	}
	var buf bytes.Buffer
	for _, p := range c.parts {
		if p.Type == "text" {
			if buf.Len() > 0 {
				buf.WriteByte('\n')
			}
			buf.WriteString(p.Text)
		}
	}
	return buf.String()
}

// Parts returns the parts of multi-part content.
func (c Content) Parts() []Part { return c.parts }

// UnmarshalJSON decodes a string, a list of parts or null.
func (c *Content) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case isNull(data):
		*c = Content{kind: contentNull}
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return &ParamError{Field: "content", Message: err.Error()}
		}
		*c = TextContent(s)
	case len(data) > 0 && data[0] == '[':
		var parts []Part
		if err := json.Unmarshal(data, &parts); err != nil {
			return err
		}
		*c = Content{kind: contentParts, parts: parts}
		if parts == nil {
			c.parts = []Part{}
		}
	default:
		return &ParamError{Field: "content", Message: "must be a string, a list of parts or null"}
	}
	return nil
}

// MarshalJSON encodes the content as it was decoded.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.kind {
	case contentText:
		return marshalNoEscape(c.text), nil
	case contentParts:
		if c.parts == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(c.parts)
	default:
		return []byte("null"), nil
	}
}

// Part is one element of multi-part content. Image parts ("image",
// "image_url", "input_image") cost [ImageTokens]; text parts cost their
// text; any other part costs the tokens of its JSON.
type Part struct {
	Type string
	Text string
	// Raw is the part as decoded; when set it is encoded unchanged.
	Raw json.RawMessage
}

// UnmarshalJSON decodes a part, keeping its raw JSON.
func (p *Part) UnmarshalJSON(data []byte) error {
	var v struct {
		Type *string `json:"type"`
		Text string  `json:"text"`
	}
	if err := json.Unmarshal(data, &v); err != nil || v.Type == nil {
		return &ParamError{Field: "content", Message: "each part must be an object with a string \"type\""}
	}
	*p = Part{Type: *v.Type, Text: v.Text, Raw: append(json.RawMessage(nil), data...)}
	return nil
}

// MarshalJSON encodes Raw, or the type and text.
func (p Part) MarshalJSON() ([]byte, error) {
	if p.Raw != nil {
		return p.Raw, nil
	}
	var buf bytes.Buffer
	buf.WriteString(`{"type":`)
	buf.Write(marshalNoEscape(p.Type))
	if p.Type == "text" || p.Text != "" {
		buf.WriteString(`,"text":`)
		buf.Write(marshalNoEscape(p.Text))
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ToolCall is one entry of an assistant message's tool_calls. Arguments is
// the raw JSON of function.arguments (OpenAI sends a JSON string; an object
// is accepted too).
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
	// Raw is the call as decoded; when set it is encoded unchanged.
	Raw json.RawMessage
}

// UnmarshalJSON decodes a tool call, keeping its raw JSON.
func (t *ToolCall) UnmarshalJSON(data []byte) error {
	var v struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("tool call: %w", err)
	}
	*t = ToolCall{ID: v.ID, Name: v.Function.Name, Arguments: v.Function.Arguments, Raw: append(json.RawMessage(nil), data...)}
	return nil
}

// MarshalJSON encodes Raw, or an OpenAI function call.
func (t ToolCall) MarshalJSON() ([]byte, error) {
	if t.Raw != nil {
		return t.Raw, nil
	}
	args := t.Arguments
	if args == nil {
		args = json.RawMessage(`"{}"`)
	}
	var buf bytes.Buffer
	buf.WriteString(`{"id":`)
	buf.Write(marshalNoEscape(t.ID))
	buf.WriteString(`,"type":"function","function":{"name":`)
	buf.Write(marshalNoEscape(t.Name))
	buf.WriteString(`,"arguments":`)
	buf.Write(args)
	buf.WriteString(`}}`)
	return buf.Bytes(), nil
}

// argumentsText is what a tool call's arguments cost: the string's value
// when they are a JSON string, else the compact JSON.
func (t ToolCall) argumentsText() string {
	raw := bytes.TrimSpace(t.Arguments)
	if len(raw) == 0 || isNull(raw) {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

// decodeObject decodes a JSON object into its keys (in order) and raw values.
func decodeObject(data []byte) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("expected an object")
	}
	var keys []string
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		if _, dup := fields[k]; !dup {
			keys = append(keys, k)
		}
		fields[k] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	return keys, fields, nil
}

func isNull(raw []byte) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// marshalNoEscape encodes a string without HTML escaping, so <, > and &
// in messages stay as they were written.
func marshalNoEscape(s string) []byte {
	var buf bytes.Buffer
	writeJSONString(&buf, s)
	return buf.Bytes()
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	// Encoding a string cannot fail; drop the newline Encode appends.
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1)
}
