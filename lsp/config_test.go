package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// writeConfig writes the workspace's .agent/config.yml, atomically.
func writeConfig(t *testing.T, root, yaml string) {
	t.Helper()
	writeFiles(t, root, map[string]string{".agent/config.yml.tmp": yaml})
	dir := filepath.Join(root, ".agent")
	if err := os.Rename(filepath.Join(dir, "config.yml.tmp"), filepath.Join(dir, "config.yml")); err != nil {
		t.Fatal(err)
	}
}

// status asks for acode/budgetStatus.
func status(t *testing.T, c *fakeClient) budgetStatusResult {
	t.Helper()
	var st budgetStatusResult
	c.result(methodBudgetStatus, nil, &st)
	return st
}

// waitShowMessage waits for a window/showMessage whose text contains all
// of parts.
func waitShowMessage(t *testing.T, c *fakeClient, after int, parts ...string) (protocol.ShowMessageParams, int) {
	t.Helper()
	var msg protocol.ShowMessageParams
	_, next := c.waitNote("window/showMessage", after, func(p json.RawMessage) bool {
		var m protocol.ShowMessageParams
		if err := json.Unmarshal(p, &m); err != nil {
			t.Fatalf("showMessage params: %v", err)
		}
		for _, part := range parts {
			if !strings.Contains(m.Message, part) {
				return false
			}
		}
		msg = m
		return true
	})
	return msg, next
}

func TestConfigReloadByPolling(t *testing.T) {
	root := tempRoot(t)
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 50000\n")
	c := startServer(t, Options{ConfigPollInterval: 10 * time.Millisecond}, nil)
	c.initialize(nil, nil, root)
	if st := status(t, c); st.Total != 50000 || st.Available != 40000 {
		t.Fatalf("config file not applied: %+v", st)
	}

	// A good edit is applied and announced with acode/budget.
	next := c.noteCount()
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 60000 # more\n  tokenizer:\n    model: gpt-4\n")
	st, next := waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 60000 })
	if st.Encoding != "cl100k_base" || st.Model != "gpt-4" {
		t.Errorf("model change not applied: %+v", st)
	}

	// A bad edit keeps the last good config and says why.
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: -5\n")
	msg, _ := waitShowMessage(t, c, next, "total_tokens")
	if msg.Type != protocol.MessageTypeError {
		t.Errorf("message type %v, want error", msg.Type)
	}
	if st := status(t, c); st.Total != 60000 || st.Encoding != "cl100k_base" {
		t.Errorf("a bad edit changed the config: %+v", st)
	}

	// An unknown key is reported with its line.
	next = c.noteCount()
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 70000\n  bugdet: {}\n")
	waitShowMessage(t, c, next, "bugdet", "line 4")

	// Fixing the file applies it again.
	next = c.noteCount()
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 80000\n")
	waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 80000 })

	// Deleting it goes back to the defaults.
	next = c.noteCount()
	if err := os.Remove(filepath.Join(root, ".agent/config.yml")); err != nil {
		t.Fatal(err)
	}
	waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 100000 })
}

func TestConfigReloadByWatchedFiles(t *testing.T) {
	root := tempRoot(t)
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 50000\n")
	c := startServer(t, Options{ConfigPollInterval: time.Hour}, nil)
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c.initialize(caps, nil, root)

	reg, next := c.waitNote("client/registerCapability", 0, nil)
	var params protocol.RegistrationParams
	if err := json.Unmarshal(reg.Params, &params); err != nil || len(params.Registrations) != 1 || params.Registrations[0].Method != "workspace/didChangeWatchedFiles" {
		t.Fatalf("registration: %s", reg.Params)
	}
	if !strings.Contains(string(reg.Params), configGlob) {
		t.Errorf("watcher does not cover the config file: %s", reg.Params)
	}

	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 65000\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": string(pathToURI(filepath.Join(root, "other.go"))), "type": 2},
		{"uri": string(pathToURI(filepath.Join(root, ".agent/config.yml"))), "type": 2},
	}})
	waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 65000 })

	// Saving the config file in the editor reloads it too.
	next = c.noteCount()
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 66000\n")
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(filepath.Join(root, ".agent/config.yml")))}})
	waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 66000 })
}

func TestEditorSettingsOverrideTheFile(t *testing.T) {
	root := tempRoot(t)
	writeConfig(t, root, "context:\n  budget:\n    total_tokens: 50000\n    system_prompt_reserve: 1000\n")
	c := startServer(t, Options{ConfigPollInterval: time.Hour}, nil)
	c.initialize(nil, map[string]any{"budget": map[string]any{"totalTokens": 40000}}, root)
	if st := status(t, c); st.Total != 40000 || st.Available != 40000-1000-8000 {
		t.Fatalf("initializationOptions not applied over the file: %+v", st)
	}

	next := c.noteCount()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{"budget": map[string]any{"totalTokens": 30000}, "model": "gpt-3.5-turbo"}}})
	st, next := waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 30000 })
	if st.Encoding != "cl100k_base" {
		t.Errorf("model from settings not applied: %+v", st)
	}

	// An invalid edit of the settings keeps the last good ones.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{"budget": map[string]any{"totalTokens": 100, "responseReserve": 500}}}})
	waitShowMessage(t, c, next, "editor settings")
	if st := status(t, c); st.Total != 30000 {
		t.Errorf("invalid settings applied: %+v", st)
	}

	// Settings of other servers are ignored.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"gopls": map[string]any{"x": 1}}})
	if st := status(t, c); st.Total != 30000 {
		t.Errorf("foreign settings changed the config: %+v", st)
	}
}

func TestSettingsArePulledWithWorkspaceConfiguration(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{ConfigPollInterval: time.Hour}, nil)
	c.answer = func(m rpcMsg) any {
		if m.Method == "workspace/configuration" {
			return []any{map[string]any{"encoding": "p50k_base"}}
		}
		return nil
	}
	c.initialize(map[string]any{"workspace": map[string]any{"configuration": true}}, nil, root)
	waitBudget(t, c, 0, func(s budgetStatusResult) bool { return s.Encoding == "p50k_base" })
}

func TestSeveralWorkspaceRoots(t *testing.T) {
	r1, r2 := tempRoot(t), tempRoot(t)
	writeFiles(t, r1, map[string]string{"one.go": "package one\n"})
	writeFiles(t, r2, map[string]string{"two.go": "package two // second root\n"})
	outside := tempRoot(t)
	writeFiles(t, outside, map[string]string{"three.go": "package three\n"})
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, r1, r2)
	for _, tt := range []struct {
		path string
		ok   bool
	}{{filepath.Join(r1, "one.go"), true}, {filepath.Join(r2, "two.go"), true}, {filepath.Join(outside, "three.go"), false}} {
		m := c.call(methodCountTokens, map[string]any{"uri": string(pathToURI(tt.path))})
		if (m.Error == nil) != tt.ok {
			t.Errorf("%s: got %+v, want ok=%v", tt.path, m, tt.ok)
		}
	}
	// Folders follow the editor.
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []map[string]any{{"uri": string(pathToURI(outside)), "name": "three"}},
		"removed": []map[string]any{{"uri": string(pathToURI(r2)), "name": "two"}},
	}})
	if m := c.call(methodCountTokens, map[string]any{"uri": string(pathToURI(filepath.Join(outside, "three.go")))}); m.Error != nil {
		t.Errorf("added folder: %+v", m.Error)
	}
	if m := c.call(methodCountTokens, map[string]any{"uri": string(pathToURI(filepath.Join(r2, "two.go")))}); m.Error == nil {
		t.Error("removed folder still readable")
	}
}

func TestUnknownEditorSettingsAreReported(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{ConfigPollInterval: time.Hour}, nil)
	c.initialize(nil, map[string]any{"acode": map[string]any{"modle": "gpt-4o", "serverPath": "/bin/acode-lsp"}}, root)
	msg, next := waitShowMessage(t, c, 0, "initializationOptions", "acode.modle ignored", "acode.model")
	if msg.Type != protocol.MessageTypeWarning || strings.Contains(msg.Message, "serverPath") {
		t.Errorf("initializationOptions: %+v, want a warning naming acode.modle only", msg)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{"budget": map[string]any{"totalTokens": 30000, "total": 5}}}})
	waitShowMessage(t, c, next, "editor settings", "acode.budget.total ignored")
	// The known keys still apply.
	waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Total == 30000 })
}
