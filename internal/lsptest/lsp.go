package lsptest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Typed helpers for the messages of the Language Server Protocol that the
// tests send. The acode/* requests take their params as the tests build
// them (the wire types belong to the server); see [Request].

// Position is an LSP position: 0-based line, UTF-16 character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Lines is the range from the start of line a to the start of line b.
func Lines(a, b int) Range { return Range{Start: Position{Line: a}, End: Position{Line: b}} }

// Init is what an editor says in initialize.
type Init struct {
	// Roots are the workspace folders (absolute paths); the first is also
	// rootUri.
	Roots []string
	// Capabilities are the client capabilities (nil: {}).
	Capabilities any
	// InitializationOptions is sent when not nil.
	InitializationOptions any
	// ClientName is clientInfo.name when not "".
	ClientName string
}

// Initialize sends initialize, then initialized, and returns the result.
func (e *Editor) Initialize(in Init) map[string]any {
	e.t.Helper()
	caps := in.Capabilities
	if caps == nil {
		caps = map[string]any{}
	}
	params := map[string]any{"processId": os.Getpid(), "capabilities": caps}
	if len(in.Roots) > 0 {
		params["rootUri"] = URI(in.Roots[0])
		var folders []map[string]string
		for _, r := range in.Roots {
			folders = append(folders, map[string]string{"uri": URI(r), "name": filepath.Base(r)})
		}
		params["workspaceFolders"] = folders
	}
	if in.InitializationOptions != nil {
		params["initializationOptions"] = in.InitializationOptions
	}
	if in.ClientName != "" {
		params["clientInfo"] = map[string]any{"name": in.ClientName}
	}
	var res map[string]any
	e.Result("initialize", params, &res)
	e.Notify("initialized", map[string]any{})
	return res
}

// Shutdown sends shutdown and fails the test unless it succeeds.
func (e *Editor) Shutdown() {
	e.t.Helper()
	e.Result("shutdown", nil, nil)
}

// Exit sends the exit notification.
func (e *Editor) Exit() { e.Notify("exit", nil) }

// ShutdownExit ends the session properly and returns the exit code.
func (e *Editor) ShutdownExit() int {
	e.t.Helper()
	e.Shutdown()
	e.Exit()
	return e.ExitCode()
}

// textDocument is a TextDocumentItem or a (Versioned)TextDocumentIdentifier.
type textDocument struct {
	URI        string  `json:"uri"`
	LanguageID string  `json:"languageId,omitempty"`
	Version    *int    `json:"version,omitempty"`
	Text       *string `json:"text,omitempty"`
}

// OpenURI sends didOpen of version 1 for a document.
func (e *Editor) OpenURI(u, language, text string) {
	one := 1
	e.Notify("textDocument/didOpen", map[string]any{"textDocument": textDocument{URI: u, LanguageID: language, Version: &one, Text: &text}})
}

// Open sends didOpen of version 1 for the file at path and returns its URI.
func (e *Editor) Open(path, language, text string) string {
	u := URI(path)
	e.OpenURI(u, language, text)
	return u
}

// Change is one content change of didChange: Range nil replaces the whole
// text.
type Change struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// Edit is a change of the text in r.
func Edit(r Range, text string) Change { return Change{Range: &r, Text: text} }

// ChangeURI sends didChange with the document's new version.
func (e *Editor) ChangeURI(u string, version int, changes ...Change) {
	e.Notify("textDocument/didChange", map[string]any{
		"textDocument":   textDocument{URI: u, Version: &version},
		"contentChanges": changes,
	})
}

// Change sends didChange for the file at path.
func (e *Editor) Change(path string, version int, changes ...Change) {
	e.ChangeURI(URI(path), version, changes...)
}

// Close sends didClose for the file at path.
func (e *Editor) Close(path string) {
	e.Notify("textDocument/didClose", map[string]any{"textDocument": textDocument{URI: URI(path)}})
}

// Save sends didSave for the file at path.
func (e *Editor) Save(path string) {
	e.Notify("textDocument/didSave", map[string]any{"textDocument": textDocument{URI: URI(path)}})
}

// Settings sends workspace/didChangeConfiguration with the settings.
func (e *Editor) Settings(settings any) {
	e.Notify("workspace/didChangeConfiguration", map[string]any{"settings": settings})
}

// Cancel sends $/cancelRequest for the request id.
func (e *Editor) Cancel(id any) { e.Notify("$/cancelRequest", map[string]any{"id": id}) }

// Lens is a code lens as the editor shows it.
type Lens struct {
	Range   Range `json:"range"`
	Command *struct {
		Title   string `json:"title"`
		Command string `json:"command"`
	} `json:"command"`
}

// CodeLenses asks for the code lenses of the document at path; a lens
// without a command (title) fails the test.
func (e *Editor) CodeLenses(path string) []Lens {
	e.t.Helper()
	var lenses []Lens
	e.Result("textDocument/codeLens", map[string]any{"textDocument": textDocument{URI: URI(path)}}, &lenses)
	for i, l := range lenses {
		if l.Command == nil {
			e.t.Fatalf("lens %d of %s has no command (title)", i, path)
		}
	}
	return lenses
}

// Progress waits for the end of the work-done progress with token, among
// the messages after the mark from, and returns the kinds of its $/progress
// notifications in order ("begin", "report"…, "end").
func (e *Editor) Progress(from int, token any) []string {
	e.t.Helper()
	type progress struct {
		Token any `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	same := func(p progress) bool { return fmt.Sprint(p.Token) == fmt.Sprint(token) }
	e.WaitNote(from, "$/progress", func(raw json.RawMessage) bool {
		var p progress
		return json.Unmarshal(raw, &p) == nil && same(p) && p.Value.Kind == "end"
	})
	var kinds []string
	for _, n := range e.Notes()[from:] {
		var p progress
		if n.Method == "$/progress" && json.Unmarshal(n.Params, &p) == nil && same(p) {
			kinds = append(kinds, p.Value.Kind)
		}
	}
	return kinds
}
