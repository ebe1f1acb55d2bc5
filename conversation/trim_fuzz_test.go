package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// fuzzConversation builds a conversation from bytes. Every message's
// content starts with a unique label "mN" so the output can be matched to
// the input; tool outputs are sometimes errors.
func fuzzConversation(data []byte) []Message {
	var msgs []Message
	var pending []string
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	calls := 0
	for len(data) > 0 && len(msgs) < 200 {
		op, size := next()%6, next()
		label := fmt.Sprintf("m%d", len(msgs))
		text := out(label, 1+size%60)
		switch op {
		case 0:
			msgs = append(msgs, sys(text))
		case 1:
			msgs = append(msgs, user(text))
		case 2:
			msgs = append(msgs, asst(text))
		case 3: // a step with 1-3 calls; results follow in a shuffled order
			var ids []string
			for k := 0; k <= size%3; k++ {
				calls++
				ids = append(ids, fmt.Sprintf("c%d", calls))
			}
			m := call(ids...)
			m.Content = TextContent(label)
			msgs = append(msgs, m)
			pending = append(pending, ids...)
			if size%2 == 0 && len(pending) > 1 {
				pending[0], pending[len(pending)-1] = pending[len(pending)-1], pending[0]
			}
		case 4, 5:
			if len(pending) == 0 {
				msgs = append(msgs, user(text))
				continue
			}
			id := pending[0]
			pending = pending[1:]
			if op == 5 {
				text += " error"
			}
			msgs = append(msgs, tool(id, text))
		}
	}
	for _, id := range pending {
		msgs = append(msgs, tool(id, out(fmt.Sprintf("m%d", len(msgs)), 3)))
	}
	return msgs
}

func labelOf(m Message) string {
	f := strings.Fields(m.Content.Text())
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func FuzzTrim(f *testing.F) {
	f.Add([]byte{0, 10, 1, 5, 3, 1, 4, 50, 3, 2, 4, 9, 5, 40, 4, 7, 2, 3, 1, 2}, uint16(60), uint8(1), uint8(1), uint8(5))
	f.Add([]byte{0, 59, 1, 1}, uint16(20), uint8(4), uint8(5), uint8(100))
	f.Add([]byte{1, 30, 3, 0, 4, 59, 4, 59, 3, 1, 5, 59, 2, 5, 1, 8, 2, 8, 1, 8}, uint16(90), uint8(0), uint8(0), uint8(0))
	f.Add([]byte{3, 2, 4, 40, 1, 3, 4, 40, 4, 40, 2, 1, 0, 3, 3, 4, 5, 20, 2, 2}, uint16(120), uint8(2), uint8(3), uint8(10))
	f.Fuzz(func(t *testing.T, data []byte, max uint16, preserve, maxAge, small uint8) {
		in := fuzzConversation(data)
		req := TrimRequest{
			Messages:             in,
			MaxContextTokens:     int(max) + 1,
			PreserveRecentTurns:  ptr(int(preserve % 8)),
			MaxAge:               ptr(int(maxAge % 10)),
			SmallOutputThreshold: ptr(int(small)),
		}
		res, err := Trim(context.Background(), words{}, req)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != errcode.Budget {
				t.Fatalf("err = %v, want ACODE-CTX-003", err)
			}
			if e.Data["maxTokens"] != req.MaxContextTokens || e.Data["currentTokens"].(int) <= req.MaxContextTokens {
				t.Fatalf("overflow data %v for max %d", e.Data, req.MaxContextTokens)
			}
			return
		}
		if res.FinalTokens > req.MaxContextTokens {
			t.Fatalf("FinalTokens %d over budget %d", res.FinalTokens, req.MaxContextTokens)
		}
		if got := ConversationTokens(words{}, res.Messages); got != res.FinalTokens {
			t.Fatalf("FinalTokens %d, exact cost %d", res.FinalTokens, got)
		}
		if res.DroppedCount != len(in)-len(res.Messages) {
			t.Fatalf("DroppedCount %d, %d messages gone", res.DroppedCount, len(in)-len(res.Messages))
		}
		// The output is a subsequence of the input; only tool outputs change.
		j := 0
		for _, m := range res.Messages {
			for j < len(in) && !sameMessage(in[j], m) {
				if in[j].IsSystem() {
					t.Fatalf("system message %s dropped", labelOf(in[j]))
				}
				j++
			}
			if j == len(in) {
				t.Fatalf("output message %q (%s) is not from the input in order", labelOf(m), m.Role)
			}
			j++
		}
		for ; j < len(in); j++ {
			if in[j].IsSystem() {
				t.Fatalf("system message %s dropped", labelOf(in[j]))
			}
		}
		checkPairs(t, in, res.Messages)
		// The newest message always stays when any turn is preserved.
		if len(in) > 0 && *req.PreserveRecentTurns > 0 && len(res.Messages) > 0 {
			if last := res.Messages[len(res.Messages)-1]; !sameMessage(in[len(in)-1], last) {
				t.Fatalf("last message %s dropped", labelOf(in[len(in)-1]))
			}
		}
	})
}

// sameMessage reports whether out is in, possibly with a placeholder for
// its content (tool outputs only).
func sameMessage(in, out Message) bool {
	if in.Role != out.Role || in.ToolCallID != out.ToolCallID || len(in.ToolCalls) != len(out.ToolCalls) {
		return false
	}
	for k := range in.ToolCalls {
		if in.ToolCalls[k].ID != out.ToolCalls[k].ID {
			return false
		}
	}
	if in.Content.Text() == out.Content.Text() {
		return true
	}
	return in.Role == RoleTool && strings.HasPrefix(out.Content.Text(), "[content truncated - ")
}
