package conversation

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// realCounter returns the cached gpt-4o tokenizer the server and CLI use.
func realCounter(t testing.TB) *tokenizer.Cached {
	t.Helper()
	tk, err := tokenizer.ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	return tokenizer.NewCached(tk, 0)
}

var vocabulary = strings.Fields(`func return if else for range err nil ctx context string int
	bool map slice append len make struct type interface package import var const defer go
	select case switch break continue fmt Errorf Sprintf strings Builder bytes Buffer json
	Marshal Unmarshal http Handler Request Response cart checkout service order item price
	total user session token budget limit window message tool result content line file path`)

// genLines returns n lines of code-like text from r.
func genLines(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat("\t", r.IntN(3)))
		for w := 2 + r.IntN(9); w > 0; w-- {
			b.WriteString(vocabulary[r.IntN(len(vocabulary))])
			switch r.IntN(6) {
			case 0:
				b.WriteString("(")
			case 1:
				b.WriteString(".")
			case 2:
				fmt.Fprintf(&b, " %d ", r.IntN(1000))
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// toolStep returns an assistant message calling name and its result.
func toolStep(id, name, args, output string) []Message {
	a := Message{Role: RoleAssistant, Content: TextContent("")}
	a.ToolCalls = []ToolCall{{ID: id, Name: name, Arguments: mustJSON(args)}}
	return []Message{a, {Role: RoleTool, ToolCallID: id, Content: TextContent(output)}}
}

func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// agentTranscript is a long tool-heavy agent session of steps tool calls
// with outputs of about linesPer lines each.
func agentTranscript(seed uint64, steps, linesPer int) []Message {
	r := rand.New(rand.NewPCG(seed, 2))
	msgs := []Message{
		sys("You are a coding agent. Use the tools to read, search and edit the repository. " + genLines(r, 40)),
		user("Find out why checkout fails for empty carts and fix it."),
	}
	tools := []string{"read_file", "search_content", "project_files", "vcs_diff", "run_tests"}
	for s := 1; s <= steps; s++ {
		name := tools[r.IntN(len(tools))]
		n := 1 + r.IntN(2*linesPer)
		out := genLines(r, n)
		if r.IntN(10) == 0 {
			out = "FAIL: TestCheckout\nerror: cart is empty\n" + genLines(r, 3)
		}
		msgs = append(msgs, toolStep(fmt.Sprintf("call_%d", s), name, fmt.Sprintf(`{"path":"cart/f%d.go"}`, s), out)...)
		if s%25 == 0 {
			msgs = append(msgs, user(fmt.Sprintf("Progress check %d: keep going.", s)))
		}
	}
	return append(msgs, asst("The fix is in cart/service.go: return early for empty carts."))
}
