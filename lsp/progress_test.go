package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
)

// progressEvent is a $/progress notification as the tests compare it.
type progressEvent struct {
	Token json.RawMessage
	Kind  string
	Title string
	Msg   string
}

// progressEvents collects the $/progress notifications after index from
// until one of kind "end".
func progressEvents(t *testing.T, c *fakeClient, from int) []progressEvent {
	t.Helper()
	var events []progressEvent
	for {
		m, next := c.waitNote("$/progress", from, nil)
		from = next
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct {
				Kind    string `json:"kind"`
				Title   string `json:"title"`
				Message string `json:"message"`
			} `json:"value"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		events = append(events, progressEvent{p.Token, p.Value.Kind, p.Value.Title, p.Value.Message})
		if p.Value.Kind == "end" {
			return events
		}
	}
}

func TestServerCreatedProgress(t *testing.T) {
	c := startServer(t, Options{}, func(s *Server) {
		s.requests["test/progress"] = func(ctx context.Context, _ json.RawMessage) (any, error) {
			p := s.startProgress(nil, "testing")
			p.report("half way", 50)
			p.end("done")
			return nil, nil
		}
	})
	c.initialize(map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil)
	c.result("test/progress", map[string]any{}, nil)
	create, next := c.waitNote("window/workDoneProgress/create", 0, nil)
	var params struct {
		Token json.RawMessage `json:"token"`
	}
	if err := json.Unmarshal(create.Params, &params); err != nil {
		t.Fatal(err)
	}
	var token string
	if err := json.Unmarshal(params.Token, &token); err != nil || token == "" {
		t.Fatalf("the progress token is not a string: %s (the by-value ProgressToken defect)", params.Token)
	}
	events := progressEvents(t, c, next)
	want := []progressEvent{
		{params.Token, "begin", "testing", "half way"},
		{params.Token, "end", "", "done"},
	}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNoProgressWithoutClientSupport(t *testing.T) {
	c := startServer(t, Options{}, func(s *Server) {
		s.requests["test/progress"] = func(ctx context.Context, _ json.RawMessage) (any, error) {
			p := s.startProgress(nil, "testing")
			p.report("x", 1)
			p.end("y")
			return p == nil, nil
		}
	})
	c.initialize(nil, nil)
	var isNil bool
	c.result("test/progress", map[string]any{}, &isNil)
	if !isNil {
		t.Error("a progress reporter was made for a client without window.workDoneProgress")
	}
}

func TestProgressTokenEncoding(t *testing.T) {
	tests := []struct {
		name  string
		token *protocol.ProgressToken
		want  string
	}{
		{"string", protocol.NewProgressToken("abc"), `{"token":"abc","value":null}`},
		{"number", protocol.NewNumberProgressToken(7), `{"token":7,"value":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(&protocol.ProgressParams{Token: *tt.token})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPackProgressMoves: a pack that searches the workspace reports
// window/workDoneProgress whose percentage moves with the files chunked,
// never backwards (issue 9: it sat at one value for the whole stage).
func TestPackProgressMoves(t *testing.T) {
	root := tempRoot(t)
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i)
		for j := 0; j < 15; j++ {
			fmt.Fprintf(&b, "// Checkout%d_%d checks out.\nfunc Checkout%d_%d() int { return %d }\n\n", i, j, i, j, j)
		}
		files[fmt.Sprintf("f%02d.go", i)] = b.String()
	}
	writeFiles(t, root, files)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	c.result(methodPackContext, map[string]any{"workDoneToken": "tok", "search": map[string]any{"pattern": "Checkout"}}, nil)
	from := 0
	var pcts []int
	chunking := map[int]bool{}
	for {
		m, next := c.waitNote("$/progress", from, nil)
		from = next
		var p struct {
			Value struct {
				Kind       string `json:"kind"`
				Message    string `json:"message"`
				Percentage *int   `json:"percentage"`
			} `json:"value"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Value.Kind == "end" {
			break
		}
		if p.Value.Percentage != nil {
			pcts = append(pcts, *p.Value.Percentage)
			if strings.HasPrefix(p.Value.Message, "chunking") {
				chunking[*p.Value.Percentage] = true
			}
		}
	}
	for i := 1; i < len(pcts); i++ {
		if pcts[i] < pcts[i-1] {
			t.Errorf("progress went back: %v", pcts)
			break
		}
	}
	if len(chunking) < 10 {
		t.Errorf("chunking reported %d distinct percentages for 40 files, want the bar to move (≥ 10): %v", len(chunking), pcts)
	}
}
