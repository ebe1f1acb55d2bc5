package collector

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestLogsCarryPathsAndSizesOnly checks that exclusions are logged with the
// escaped path, the reason and the size, and nothing of the content.
func TestLogsCarryPathsAndSizesOnly(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	const secretValue = "hunter2-topsecret-content"
	w, _ := newWorkspace(t, Options{Logger: zap.New(core), MaxFileSize: 64},
		file(".env", "PASSWORD="+secretValue+"\n"),
		file("evil\nINFO forged.txt", "\x00"+secretValue),
		file("big.txt", strings.Repeat(secretValue, 10)),
		file("ok.go", "package ok // "+secretValue+"\n"))
	if _, _, err := w.Walk(context.Background(), OpenFile); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Msg    string
		Fields map[string]any
	}
	var got []entry
	for _, e := range logs.All() {
		got = append(got, entry{e.Message, e.ContextMap()})
		if strings.Contains(e.Message, secretValue) {
			t.Errorf("log message holds content: %q", e.Message)
		}
	}
	want := []entry{
		{"collector: excluded", map[string]any{"path": ".env", "reason": "secret", "size": int64(35)}},
		{"collector: excluded", map[string]any{"path": "big.txt", "reason": "too_large", "size": int64(250)}},
		{"collector: excluded", map[string]any{"path": `evil\nINFO forged.txt`, "reason": "binary", "size": int64(26)}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
}
