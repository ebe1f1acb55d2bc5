package lsp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestHostileClient sends one malformed message after another on a single
// connection. Each must be answered (with the request's id when it can be
// found) or dropped cleanly, and a valid request right after must work.
func TestHostileClient(t *testing.T) {
	c := startServer(t, Options{MaxMessageBytes: 30 << 20}, nil)

	// Before initialize, requests are refused but the connection lives.
	if m := c.call(methodCountTokens, map[string]any{"text": "x"}); errCode(m) != -32002 {
		t.Fatalf("request before initialize: %+v", m)
	}
	c.initialize(nil, nil)

	req := func(id int, method, params string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`
	}
	count := req(0, methodCountTokens, `{"text":"abc"}`)
	// 21 MiB of text in short words: an unknown model is estimated from the
	// exact o200k count, and one 20 MiB word would take BPE tens of seconds.
	huge := strings.Repeat("ab ", 7<<20)
	steps := []struct {
		name  string
		raw   string
		id    string // id of the expected answer; "" when nothing is answered
		code  int
		check func(t *testing.T, m rpcMsg)
	}{
		{"invalid JSON", string(frame([]byte(`{"jsonrpc":"2.0","id":101,"method":"acode/countTokens","params":{"text":`))), "101", -32700, nil},
		{"not JSON", string(frame([]byte(`<html>`))), "null", -32700, nil},
		{"Content-Length too small", "Content-Length: 30\r\n\r\n" + req(102, methodCountTokens, `{"text":"abc"}`), "102", -32700, nil},
		{"Content-Length too large", "Content-Length: " + strconv.Itoa(len(req(103, methodCountTokens, `{"text":"abc"}`))+9) + "\r\n\r\n" + req(103, methodCountTokens, `{"text":"abc"}`), "103", 0, nil},
		{"truncated frame", "Content-Length: 500\r\n\r\n" + req(104, methodCountTokens, `{"text":"ab`), "104", -32700, nil},
		{"garbage header", "Content-Lenght: 12\r\n\r\n{\"id\":105}\r\n", "", 0, nil},
		{"unknown method", string(frame([]byte(req(106, "acode/doesNotExist", `{}`)))), "106", -32601, nil},
		{"wrong param type", string(frame([]byte(req(107, methodCountTokens, `{"text":["a"]}`)))), "107", -32602, nil},
		{"params not an object", string(frame([]byte(req(108, methodBudgetStatus, `7`)))), "108", 0, nil},
		{"array params", string(frame([]byte(req(109, methodCountTokens, `["a"]`)))), "109", -32602, nil},
		{"invalid id", string(frame([]byte(`{"jsonrpc":"2.0","id":[1],"method":"acode/countTokens","params":{}}`))), "null", -32600, nil},
		{"20 MB message", string(frame([]byte(req(110, methodCountTokens, `{"model":"mystery-model","text":"`+huge+`"}`)))), "110", 0,
			func(t *testing.T, m rpcMsg) {
				var got countTokensResult
				if err := json.Unmarshal(m.Result, &got); err != nil {
					t.Fatal(err)
				}
				tok, err := tokenizer.ForModel("mystery-model")
				if err != nil {
					t.Fatal(err)
				}
				want := countTokensResult{Tokens: tok.Count(huge), Encoding: tok.Encoding(), Estimate: tokenizer.EstimateOf(tok)}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}},
		{"notification with bad params", string(frame([]byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`))), "", 0, nil},
		{"didChange of a document never opened", string(frame([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nope.go","version":2},"contentChanges":[{"text":"x"}]}}`))), "", 0, nil},
		{"response nobody asked for", string(frame([]byte(`{"jsonrpc":"2.0","id":999,"result":{}}`))), "", 0, nil},
	}
	// Bytes sent after the follow-up request, for frames that claim more
	// than they hold.
	pad := map[string]int{"truncated frame": 500}
	for i, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			// The malformed bytes, then at once a valid request (a frame that
			// claims too many bytes can only end with what follows it).
			id := 200 + i
			followUp := frame([]byte(strings.Replace(count, `"id":0`, `"id":`+strconv.Itoa(id), 1)))
			c.writeRaw(append(append([]byte(st.raw), followUp...), strings.Repeat(" ", pad[st.name])...))
			if st.id != "" {
				m := c.await(st.id)
				if errCode(m) != st.code {
					t.Errorf("answer %+v, want code %d", m, st.code)
				}
				if st.check != nil {
					st.check(t, m)
				}
			}
			// The connection still works.
			if m := c.await(strconv.Itoa(id)); m.Error != nil {
				t.Fatalf("valid request after %s: %+v", st.name, m.Error)
			}
		})
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestMessageOverTheLimitIsRejectedWithItsID(t *testing.T) {
	c := startServer(t, Options{MaxMessageBytes: 1 << 20}, nil)
	c.initialize(nil, nil)
	big := `{"jsonrpc":"2.0","id":"big-1","method":"acode/countTokens","params":{"text":"` + strings.Repeat("z", 2<<20) + `"}}`
	c.writeRaw(frame([]byte(big)))
	m := c.await(`"big-1"`)
	if errCode(m) != -32600 || !strings.Contains(m.Error.Message, "exceeds the limit") {
		t.Fatalf("got %+v, want -32600 naming the limit", m)
	}
	c.result(methodCountTokens, map[string]any{"text": "still alive"}, nil)
}
