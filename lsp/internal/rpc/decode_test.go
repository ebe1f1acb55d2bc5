package rpc

import (
	"encoding/json"
	"testing"
	"time"
)

// evenInt decodes only even numbers, naming itself in a FieldError.
type evenInt int

func (e *evenInt) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	if n%2 != 0 {
		return &FieldError{Field: "options.even", Msg: "must be even"}
	}
	*e = evenInt(n)
	return nil
}

type decodeBase struct {
	Root string `json:"root"`
}

type decodeSource struct {
	URI       string    `json:"uri"`
	Timestamp time.Time `json:"timestamp"`
}

type decodeParams struct {
	decodeBase
	Sources []decodeSource            `json:"sources"`
	Weights map[string]float64        `json:"weights"`
	Nested  map[string][]decodeSource `json:"nested"`
	Options *struct {
		Even evenInt `json:"even"`
	} `json:"options"`
	Limit  int    `json:"limit"`
	Hidden string `json:"-"`
}

// TestDecodeParams: a params value that does not decode is named by its
// full JSON path, indices and map keys included.
func TestDecodeParams(t *testing.T) {
	tests := []struct{ name, params, want string }{
		{"missing", ``, "invalid params: params: missing"},
		{"null", `null`, "invalid params: params: missing"},
		{"not an object", `[1]`, "invalid params: params: must be an object"},
		{"wrong type at top", `{"limit":"ten"}`, "invalid params: limit: expected an integer, got string"},
		{"case-folded key", `{"LIMIT":true}`, "invalid params: LIMIT: expected an integer, got bool"},
		{"embedded field", `{"root":5}`, "invalid params: root: expected a string, got number"},
		{"element of a list", `{"sources":[{"uri":"a"},{"uri":7}]}`, "invalid params: sources[1].uri: expected a string, got number"},
		{"time in a list", `{"sources":[{"uri":"a","timestamp":"yesterday"}]}`, `invalid params: sources[0].timestamp: "yesterday" is not an RFC 3339 time (e.g. 2026-11-22T10:00:00Z)`},
		{"map value", `{"weights":{"a":1,"b":"x"}}`, "invalid params: weights.b: expected a number, got string"},
		{"list in a map", `{"nested":{"k":[{"uri":[]}]}}`, "invalid params: nested.k[0].uri: expected a string, got array"},
		{"list where an object goes", `{"options":[]}`, "invalid params: options: expected an object, got array"},
		{"field error", `{"options":{"even":3}}`, "invalid params: options.even: must be even"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p decodeParams
			err := DecodeParams(json.RawMessage(tt.params), &p)
			if err == nil {
				t.Fatalf("DecodeParams(%s) = nil, want %q", tt.params, tt.want)
			}
			if err.Code != InvalidParams || err.Message != tt.want {
				t.Errorf("DecodeParams(%s) = %d %q, want %d %q", tt.params, err.Code, err.Message, InvalidParams, tt.want)
			}
		})
	}
	var p decodeParams
	if err := DecodeParams(json.RawMessage(`{"root":"/r","hidden":"x","sources":[{"uri":"file:///a"}],"options":{"even":4}}`), &p); err != nil {
		t.Fatalf("valid params: %v", err)
	}
	if p.Root != "/r" || p.Hidden != "" || len(p.Sources) != 1 || p.Options.Even != 4 {
		t.Errorf("decoded %+v", p)
	}
}
