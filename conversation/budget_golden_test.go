package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/golden"
)

// TestBudgetGolden runs the golden requests of testdata/budget/*.txtar:
// a "method" file (sectionBudget, checkConversation or fitToolResult), the
// "params.json" of the request (messages, content and all), and the
// result as indented JSON in "want" (rewrite with -update). Session-free
// and clock-free, so every field is compared.
func TestBudgetGolden(t *testing.T) {
	c := realCounter(t)
	golden.Run(t, filepath.Join("testdata", "budget", "*.txtar"), func(t *testing.T, g *golden.Case) {
		var err error
		parts := map[string][]byte{}
		for _, f := range g.Archive.Files {
			parts[f.Name] = f.Data
		}
		var res any
		switch method := strings.TrimSpace(string(parts["method"])); method {
		case "sectionBudget":
			var req SectionBudgetRequest
			mustDecode(t, parts["params.json"], &req)
			res, err = SectionBudget(req)
		case "checkConversation":
			var req CheckRequest
			mustDecode(t, parts["params.json"], &req)
			res, err = CheckConversation(context.Background(), c, req)
		case "fitToolResult":
			var req FitRequest
			mustDecode(t, parts["params.json"], &req)
			res, err = FitToolResult(context.Background(), c, req)
		default:
			t.Fatalf("unknown method %q", method)
		}
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		enc := json.NewEncoder(&got)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		g.Check(t, g.Path, map[string]string{"want": got.String()})
	})
}

func mustDecode(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("params.json: %v", err)
	}
}
