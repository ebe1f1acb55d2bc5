package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// TestBudgetGolden runs the golden requests of testdata/budget/*.txtar:
// a "method" file (sectionBudget, checkConversation or fitToolResult), the
// "params.json" of the request (messages, content and all), and the
// result as indented JSON in "want" (rewrite with -update). Session-free
// and clock-free, so every field is compared.
func TestBudgetGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "budget", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files in testdata/budget (%v)", err)
	}
	c := realCounter(t)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			parts := map[string][]byte{}
			for _, f := range ar.Files {
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
			if *update {
				ar.Files = append(filesExcept(ar.Files, "want"), txtar.File{Name: "want", Data: got.Bytes()})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(parts["want"]), got.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", file, diff)
			}
		})
	}
}

func mustDecode(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("params.json: %v", err)
	}
}
