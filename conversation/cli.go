package conversation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// TrimInput is the standard input of `acode-lsp trim`: either a JSON array
// of chat messages, or an object holding "messages" and optionally the
// other acode/trimConversation params ("model", "maxContextTokens", …) and
// any other keys (kept for the output).
type TrimInput struct {
	// Request holds the messages and the params found in the input.
	Request TrimRequest

	object bool
	keys   []string
	fields map[string]json.RawMessage
}

// ParseTrimInput decodes the input of `acode-lsp trim`.
func ParseTrimInput(data []byte) (*TrimInput, error) {
	data = bytes.TrimSpace(data)
	in := &TrimInput{}
	switch {
	case len(data) > 0 && data[0] == '[':
		if err := json.Unmarshal(data, &in.Request.Messages); err != nil {
			return nil, fmt.Errorf("conversation: read messages: %w", err)
		}
	case len(data) > 0 && data[0] == '{':
		keys, fields, err := decodeObject(data)
		if err != nil {
			return nil, fmt.Errorf("conversation: read conversation: %w", err)
		}
		if _, ok := fields["messages"]; !ok {
			return nil, &ParamError{Field: "messages", Message: "the input object has no \"messages\" list"}
		}
		if err := json.Unmarshal(data, &in.Request); err != nil {
			return nil, fmt.Errorf("conversation: read conversation: %w", err)
		}
		in.object, in.keys, in.fields = true, keys, fields
	default:
		return nil, &ParamError{Field: "messages", Message: "the input must be a JSON array of chat messages or an object with \"messages\""}
	}
	return in, nil
}

// Output encodes the trimmed messages in the shape of the input: an array
// (one message a line) for an array, the same object with "messages"
// replaced for an object.
func (in *TrimInput) Output(msgs []Message) ([]byte, error) {
	list, err := encodeMessageLines(msgs, "")
	if err != nil {
		return nil, err
	}
	if !in.object {
		return append(list, '\n'), nil
	}
	var buf bytes.Buffer
	buf.WriteString("{\n")
	for i, k := range in.keys {
		buf.WriteString("  ")
		writeJSONString(&buf, k)
		buf.WriteString(": ")
		if k == "messages" {
			list, err = encodeMessageLines(msgs, "  ")
			if err != nil {
				return nil, err
			}
			buf.Write(list)
		} else {
			if err := json.Compact(&buf, in.fields[k]); err != nil {
				return nil, fmt.Errorf("conversation: encode %s: %w", k, err)
			}
		}
		if i < len(in.keys)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// encodeMessageLines encodes messages as a JSON array, one message a line.
func encodeMessageLines(msgs []Message, indent string) ([]byte, error) {
	var buf bytes.Buffer
	if len(msgs) == 0 {
		return []byte("[]"), nil
	}
	buf.WriteString("[\n")
	for i, m := range msgs {
		b, err := m.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("conversation: encode message %d: %w", i, err)
		}
		buf.WriteString(indent + "  ")
		if err := json.Compact(&buf, b); err != nil {
			return nil, fmt.Errorf("conversation: encode message %d: %w", i, err)
		}
		if i < len(msgs)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(indent + "]")
	return buf.Bytes(), nil
}

// TrimReport is the one-line summary `acode-lsp trim` prints on stderr.
// With exact false (the heuristic tokenizer) the counts are marked ≈.
func TrimReport(res *TrimResult, encoding string, exact bool) string {
	about := ""
	if !exact {
		about = "≈"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "trim: %s%d → %s%d tokens (max %d, %s)", about, res.OriginalTokens, about, res.FinalTokens, res.MaxTokens, encoding)
	if !res.Truncated {
		b.WriteString(", fits unchanged")
	} else {
		fmt.Fprintf(&b, ", %s truncated, %s dropped",
			plural(res.Placeholders, "tool output", "tool outputs"), plural(res.DroppedCount, "message", "messages"))
	}
	return b.String()
}

// CheckReport is the one-line summary `acode-lsp trim --check` prints on
// stderr.
func CheckReport(res *CheckResult, encoding string, exact bool) string {
	about := ""
	if !exact {
		about = "≈"
	}
	verdict := "within budget"
	if !res.WithinBudget {
		verdict = fmt.Sprintf("over by %d tokens", -res.AvailableTokens)
	}
	return fmt.Sprintf("check: %s%d of %d tokens (%d%%, %s, %s), %s", about, res.CurrentTokens, res.MaxInputTokens,
		res.UtilizationPercent, res.Level, encoding, verdict)
}

// FitReport is the summary `acode-lsp fit` prints on stderr.
func FitReport(res *FitResult) string {
	if res.Continuation == nil {
		return fmt.Sprintf("fit: %d tokens; %s", res.Tokens, res.Note)
	}
	return fmt.Sprintf("fit: %d tokens; %d of %d items on this page; continue with --cursor %s", res.Tokens, res.Returned, res.Total, *res.Continuation)
}
