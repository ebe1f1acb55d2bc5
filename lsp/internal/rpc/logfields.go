package rpc

import (
	"encoding/json"
	"errors"
	"strings"

	"go.uber.org/zap"
)

// errorFields describes an error for the log without echoing request
// values (docs/design.md#rule-9, issue 15): error messages quote what the client
// sent (a search pattern, a URI, a label), so the log gets only the field
// path of a -32602 error, the data.code of a -32803 error, the message's
// leading words up to the first value, and the message's size.
func errorFields(err error) []zap.Field {
	msg := err.Error()
	var je *Error
	if errors.As(err, &je) {
		msg = je.Message
		if je.Code == InvalidParams {
			field, _, _ := strings.Cut(strings.TrimPrefix(msg, "invalid params: "), ": ")
			return []zap.Field{zap.String("field", safeField(field)), zap.Int("messageBytes", len(msg))}
		}
		if je.Data != nil {
			var d struct {
				Code string `json:"code"`
			}
			if json.Unmarshal(je.Data, &d) == nil && d.Code != "" {
				return []zap.Field{zap.String("dataCode", d.Code), zap.String("error", leadingWords(msg)), zap.Int("messageBytes", len(msg))}
			}
		}
	}
	return []zap.Field{zap.String("error", leadingWords(msg)), zap.Int("messageBytes", len(msg))}
}

// safeField keeps a field path (sources[3].uri, search.pattern) and drops
// anything else.
func safeField(f string) string {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._[]", c) >= 0) {
			return "(value)"
		}
	}
	if len(f) > 80 {
		return f[:80]
	}
	return f
}

// leadingWords is the start of a message up to the first character that
// may open a value (a quote, a colon, a slash, a digit).
func leadingWords(msg string) string {
	end := len(msg)
	if i := strings.IndexAny(msg, "\":/'`0123456789{[(<\n"); i >= 0 {
		end = i
	}
	if end > 80 {
		end = 80
	}
	return strings.TrimSpace(msg[:end])
}
