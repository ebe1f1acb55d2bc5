package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// streamOutcome is what reading a byte stream to its end produced: the
// methods of the messages let through, and the error responses written.
type streamOutcome struct {
	Methods []string
	Errors  []string // "id code"
}

// readAll runs a Stream over input until EOF.
func readAll(t *testing.T, input string, max int64) streamOutcome {
	t.Helper()
	var out bytes.Buffer
	s := NewStream(strings.NewReader(input), &out, max, zap.NewNop())
	var got streamOutcome
	for {
		msg, _, err := s.Read(context.Background())
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("read: %v", err)
			}
			break
		}
		switch m := msg.(type) {
		case *jsonrpc2.Call:
			got.Methods = append(got.Methods, m.Method())
		case *jsonrpc2.Notification:
			got.Methods = append(got.Methods, m.Method())
		case *jsonrpc2.Response:
			got.Methods = append(got.Methods, "(response)")
		}
	}
	r := bufio.NewReader(&out)
	for {
		body, err := readFrame(r)
		if err != nil {
			break
		}
		var resp struct {
			ID    json.RawMessage `json:"id"`
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			t.Fatalf("error response is not JSON: %s", body)
		}
		got.Errors = append(got.Errors, string(resp.ID)+" "+itoa(resp.Error.Code))
	}
	return got
}

func TestFrameStreamHostileInput(t *testing.T) {
	req := func(id, method string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{}}`
	}
	ok := string(frame([]byte(req("9", "after"))))
	body := req("1", "first")
	big := `{"jsonrpc":"2.0","id":7,"method":"big","params":{"text":"` + strings.Repeat("x", 5000) + `"}}`
	tests := []struct {
		name  string
		input string
		max   int64
		want  streamOutcome
	}{
		{"valid", string(frame([]byte(body))) + ok, 0,
			streamOutcome{Methods: []string{"first", "after"}}},
		{"header case and extra headers", "content-length: " + itoa(len(body)) + "\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body + ok, 0,
			streamOutcome{Methods: []string{"first", "after"}}},
		{"invalid JSON", string(frame([]byte(`{"jsonrpc":"2.0","id":3,"method":`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"3 -32700"}}},
		{"not JSON at all", string(frame([]byte(`hello`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32700"}}},
		{"Content-Length too small", "Content-Length: 26\r\n\r\n" + body + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"1 -32700"}}},
		{"Content-Length too large", "Content-Length: " + itoa(len(body)+12) + "\r\n\r\n" + body + ok, 0,
			streamOutcome{Methods: []string{"first", "after"}}},
		{"truncated frame then a valid one", "Content-Length: 200\r\n\r\n" + body[:30] + ok + strings.Repeat(" ", 200), 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"1 -32700"}}},
		{"bad Content-Length value", "Content-Length: abc\r\n\r\n" + body + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32700"}}},
		{"missing Content-Length", "Content-Type: x\r\n\r\n" + body + ok, 0,
			streamOutcome{Methods: []string{"after"}}},
		{"garbage between frames", "garbage\r\n\r\n" + ok, 0,
			streamOutcome{Methods: []string{"after"}}},
		{"header line too long", "Content-Length: " + strings.Repeat("1", 2000) + "\r\n\r\n" + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32700"}}},
		{"over the size limit", string(frame([]byte(big))) + ok, 1000,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"7 -32600"}}},
		{"batch", string(frame([]byte("["+body+"]"))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32600"}}},
		{"not an object", string(frame([]byte(`42`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32600"}}},
		{"wrong jsonrpc version", string(frame([]byte(`{"jsonrpc":"1.0","id":4,"method":"x"}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"4 -32600"}}},
		{"fractional id", string(frame([]byte(`{"jsonrpc":"2.0","id":1.5,"method":"x"}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32600"}}},
		{"object id", string(frame([]byte(`{"jsonrpc":"2.0","id":{},"method":"x"}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"null -32600"}}},
		{"no method", string(frame([]byte(`{"jsonrpc":"2.0","id":5}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"5 -32600"}}},
		{"method not a string", string(frame([]byte(`{"jsonrpc":"2.0","id":6,"method":7}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}, Errors: []string{"6 -32600"}}},
		{"malformed response is not answered", string(frame([]byte(`{"jsonrpc":"2.0","id":1.5,"result":1}`))) + ok, 0,
			streamOutcome{Methods: []string{"after"}}},
		{"response", string(frame([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))) + ok, 0,
			streamOutcome{Methods: []string{"(response)", "after"}}},
		{"truncated at the end", ok + "Content-Length: 100\r\n\r\n{\"jsonrpc\"", 0,
			streamOutcome{Methods: []string{"after"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.max
			if max == 0 {
				max = DefaultMaxMessageBytes
			}
			got := readAll(t, tt.input, max)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanID(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for none
	}{
		{`{"jsonrpc":"2.0","id":12,"method":"x"}`, "12"},
		{`{"id":"abc","method":"x"}`, `"abc"`},
		{`{"id":"a\"b"}`, `"a\"b"`},
		{`{"method":"x","params":{"id":5},"id":6}`, "6"},
		{`{"params":["id",{"id":1}],"id":-3}`, "-3"},
		{`{"params":{"text":"\"id\":9"},"id":"k"}`, `"k"`},
		{`{"id":null}`, ""},
		{`{"id":1.5}`, ""},
		{`{"id":99999999999}`, ""},
		{`{"jsonrpc":"2.0","id":12,"method":"x","params":{"te`, "12"},
		{`{"jsonrpc":"2.0","method":"x","params":{"te`, ""},
		{`{"jsonrpc":"2.0","id":1`, ""},
		{`[{"id":1}]`, ""},
		{`{"id" : "x y" }`, `"x y"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(scanID([]byte(tt.in)))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzScanID checks that scanID agrees with a JSON decoder on every valid
// message, and never panics on anything.
func FuzzScanID(f *testing.F) {
	for _, s := range []string{`{"id":1}`, `{"id":"x","params":{"id":2}}`, `{"a":[{"id":3}],"id":4}`, `{"id":`, `"id"`, `{"id":"\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := scanID(data)
		var env map[string]json.RawMessage
		if json.Unmarshal(data, &env) != nil {
			return
		}
		want := validID(env["id"])
		if bytes.Count(data, []byte(`"id"`)) != 1 {
			return // duplicate keys: decoders differ on which wins
		}
		if !bytes.Equal(bytes.TrimSpace(want), got) {
			t.Errorf("scanID(%q) = %q, want %q", data, got, want)
		}
	})
}

// FuzzFrameStream feeds arbitrary bytes followed by a valid frame: the
// stream must never fail or panic and must answer in well-formed frames
// (readAll checks both); when the bytes declare no frame of their own, the
// valid request at the end must still come through.
func FuzzFrameStream(f *testing.F) {
	for _, s := range []string{"", "{}", "garbage\r\n\r\n", "Content-Length: 5\r\n\r\n{}", "Content-Length: 3\r\n\r\n{\"id\":1", "Content-Length: -1\r\n\r\n", "\r\n\r\n", "Content-Length: 99999999999\r\n\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		input := string(data) + string(frame([]byte(`{"jsonrpc":"2.0","id":"last","method":"last"}`)))
		got := readAll(t, input, 4096)
		if indexFold(data, headerMarker) >= 0 {
			return // the bytes may declare a body that swallows the final frame
		}
		if len(got.Methods) == 0 || got.Methods[len(got.Methods)-1] != "last" {
			t.Errorf("the final request was lost: %+v", got)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// frame wraps a body in a base-protocol frame.
func frame(body []byte) []byte {
	return append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
}

// readFrame reads one base-protocol frame.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	if length < 0 {
		return nil, errors.New("no Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

// TestSuccessBody: the response written without re-encoding its result is
// byte for byte jsonrpc2's own encoding, for number and string ids and
// results of every JSON kind.
func TestSuccessBody(t *testing.T) {
	ids := []jsonrpc2.ID{jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID(`a"<b>`), jsonrpc2.NewNumberID(0)}
	results := []any{nil, []int{}, "x<y>&", map[string]any{"a": []any{1.5, true, nil}}, 12}
	for _, id := range ids {
		for _, res := range results {
			r, err := jsonrpc2.NewResponse(id, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got, err := successBody(r)
			if err != nil || string(got) != string(want) {
				t.Errorf("successBody(%v, %v) = %s, %v; want %s", id, res, got, err, want)
			}
		}
	}
}
