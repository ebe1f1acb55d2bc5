package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/acode-lsp/acode-lsp/internal/golden"
)

var gen = flag.Bool("gen", false, "regenerate the inputs of testdata/trim/*.txtar (implies -update)")

// goldenInputs builds the inputs of the golden conversations (used with -gen).
var goldenInputs = map[string]func() (params string, msgs []Message){
	// A long tool-heavy agent session: passes 1 and 2.
	"tool_heavy_session": func() (string, []Message) {
		return `{"model":"gpt-4o","maxContextTokens":16000,"reservedOutputTokens":4000}`, agentTranscript(11, 40, 30)
	},
	// The same session in a window so small that old steps are dropped.
	"tool_heavy_session_pass3": func() (string, []Message) {
		return `{"model":"gpt-4o","maxContextTokens":2200,"reservedOutputTokens":700,"preserveRecentTurns":3}`, agentTranscript(11, 40, 30)
	},
	// Most outputs are errors: pass 1 keeps them, pass 2 truncates them oldest first.
	"error_heavy": func() (string, []Message) {
		r := rand.New(rand.NewPCG(5, 5))
		msgs := []Message{sys("You fix failing builds."), user("make the build pass")}
		for s := 1; s <= 16; s++ {
			out := fmt.Sprintf("FAIL ./pkg%d\nerror: undefined: Foo%d\n", s, s) + genLines(r, 20+r.IntN(20))
			if s%4 == 0 {
				out = genLines(r, 40) // a clean, long output
			}
			msgs = append(msgs, toolStep(fmt.Sprintf("call_%d", s), "run_tests", `{"pkg":"./..."}`, out)...)
		}
		return `{"model":"gpt-4o","maxContextTokens":6000,"reservedOutputTokens":1000,"smallOutputThreshold":50}`, msgs
	},
	// The system prompt alone is over the window: ACODE-CTX-003.
	"system_prompt_too_large": func() (string, []Message) {
		r := rand.New(rand.NewPCG(3, 3))
		return `{"model":"gpt-4o","maxContextTokens":8192,"reservedOutputTokens":1024}`,
			[]Message{sys(genLines(r, 900)), user("hello"), asst("hi")}
	},
}

func TestTrimGolden(t *testing.T) {
	dir := filepath.Join("testdata", "trim")
	if *gen {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, build := range goldenInputs {
			params, msgs := build()
			ar := &txtar.Archive{
				Comment: []byte("Golden conversation " + name + ": request params, input messages (one per line), the trimmed shape.\n" +
					"Regenerate inputs with -gen, outputs with -update.\n"),
				Files: []txtar.File{{Name: "params.json", Data: []byte(params + "\n")}, {Name: "messages.json", Data: messagesPerLine(t, msgs)}},
			}
			if err := os.WriteFile(filepath.Join(dir, name+".txtar"), txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := realCounter(t)
	golden.Run(t, filepath.Join(dir, "*.txtar"), func(t *testing.T, g *golden.Case) {
		var req TrimRequest
		for _, f := range g.Archive.Files {
			switch f.Name {
			case "params.json":
				if err := json.Unmarshal(f.Data, &req); err != nil {
					t.Fatalf("params.json: %v", err)
				}
			case "messages.json":
				if err := json.Unmarshal(f.Data, &req.Messages); err != nil {
					t.Fatalf("messages.json: %v", err)
				}
			}
		}
		in := req.Messages
		res, err := Trim(context.Background(), c, req)
		got := describeTrim(in, res, err)
		if err == nil {
			if res.FinalTokens > res.MaxTokens || ConversationTokens(c, res.Messages) != res.FinalTokens {
				t.Errorf("FinalTokens %d (exact %d), max %d", res.FinalTokens, ConversationTokens(c, res.Messages), res.MaxTokens)
			}
			checkPairs(t, in, res.Messages)
		}
		if *gen {
			g.Write(t, map[string]string{"want": string(got)})
			return
		}
		g.Check(t, g.Path, map[string]string{"want": string(got)})
	})
}

// messagesPerLine encodes messages as a JSON array with one message a line.
func messagesPerLine(t *testing.T, msgs []Message) []byte {
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, m := range msgs {
		b := marshalNoHTML(t, m)
		buf.WriteString(b)
		if i < len(msgs)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]\n")
	return buf.Bytes()
}

// describeTrim renders a trim outcome for a golden file: the numbers, then
// one line per kept message with its input index, role, cost and the start
// of its content.
func describeTrim(in []Message, res *TrimResult, err error) []byte {
	var b strings.Builder
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			fmt.Fprintf(&b, "error: %s currentTokens=%v maxTokens=%v\n%s\n", e.Code, e.Data["currentTokens"], e.Data["maxTokens"], e.Message)
		} else {
			fmt.Fprintf(&b, "error: %v\n", err)
		}
		return []byte(b.String())
	}
	fmt.Fprintf(&b, "originalTokens: %d\nfinalTokens: %d\nmaxTokens: %d\ntruncated: %v\ndroppedCount: %d\nplaceholders: %d\n",
		res.OriginalTokens, res.FinalTokens, res.MaxTokens, res.Truncated, res.DroppedCount, res.Placeholders)
	j := 0
	for _, m := range res.Messages {
		for j < len(in) && !sameMessage(in[j], m) {
			j++
		}
		role := m.Role
		for _, c := range m.ToolCalls {
			role += "[" + c.ID + " " + c.Name + "]"
		}
		if m.ToolCallID != "" {
			role += "(" + m.ToolCallID + ")"
		}
		text := m.Content.Text()
		if !strings.HasPrefix(text, "[content truncated") {
			text = strings.ReplaceAll(text, "\n", "⏎")
			if r := []rune(text); len(r) > 40 {
				text = string(r[:40]) + "…"
			}
		}
		fmt.Fprintf(&b, "#%d %s: %s\n", j, role, text)
		j++
	}
	return []byte(b.String())
}
