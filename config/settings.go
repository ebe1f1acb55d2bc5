package config

import (
	"reflect"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// This file is the one definition of the editor settings (section "acode").
// Everything an editor shows of them is generated from [Settings] by
// `go generate ./config` (tools/gensurface): editors/vscode/package.json's
// contributes.configuration, editors/vscode/src/surface.ts,
// editors/neovim/lua/acode/surface.lua and the settings tables of
// docs/configuration.md and docs/editors.md. Adding a setting is one entry
// here (plus its field in [Overrides] when the server reads it) and
// `go generate ./config`; tools/gensurface's test fails while a generated
// file is stale.

//go:generate go run ../tools/gensurface -root ..

// InstallHint says how to get acode-lsp when an editor does not find it.
// The module is not published, so `go install …@latest` cannot fetch it:
// it is built from a clone.
const InstallHint = "build it from a clone of acode-lsp with `make install` (it installs to ~/.local/bin; set PREFIX for elsewhere)"

// Setting is one editor setting.
type Setting struct {
	// Key is the name under "acode." ("budget.totalTokens").
	Key string
	// File is the config file key the setting overrides
	// ("context.budget.total_tokens"); "" for an editor's own setting.
	File string
	// Type is the JSON type: "string", "integer", "boolean", "object"
	// (Properties name its number-valued keys) or "array" (of strings).
	Type string
	// Enum lists the allowed values; nil allows any.
	Enum []string
	// Min is the smallest allowed number, for an integer.
	Min *int
	// Properties are the keys of an object setting.
	Properties []string
	// Default is an editor's own setting's default. A server setting has
	// none: unset, the config file decides (its default is [FileDefault]).
	Default any
	// Doc says what it does, in markdown, without the default.
	Doc string
	// Editor is "" for a setting the server reads, else the editor whose
	// extension reads it itself ("vscode").
	Editor string
	// Scope is the VS Code scope, when not the default ("window").
	Scope string
}

// Server reports whether acode-lsp reads the setting (it is sent in
// initializationOptions and workspace/didChangeConfiguration).
func (s Setting) Server() bool { return s.Editor == "" }

func intp(n int) *int { return &n }

// Settings returns every editor setting, in the order editors list them.
func Settings() []Setting {
	return []Setting{
		{Key: "serverPath", Type: "string", Default: "", Editor: "vscode", Scope: "machine-overridable",
			Doc: "Path to the `acode-lsp` binary. Empty: `acode-lsp` on `PATH`, then `$GOBIN`, `$GOPATH/bin`, `~/go/bin`, `~/.local/bin` and `/usr/local/bin`."},
		{Key: "model", File: "context.tokenizer.model", Type: "string",
			Doc: "Model whose tokenizer counts tokens (`gpt-4o`, `llama-3.1-8b`, `qwen3-coder`, `claude-sonnet-4-5`, …)."},
		{Key: "encoding", File: "context.tokenizer.encoding", Type: "string", Enum: tokenizer.Encodings(),
			Doc: "Tokenizer encoding, instead of deriving it from the model."},
		{Key: "budget.totalTokens", File: "context.budget.total_tokens", Type: "integer", Min: intp(1),
			Doc: "The model's context window in tokens; the reserves are taken from it."},
		{Key: "budget.systemReserve", File: "context.budget.system_prompt_reserve", Type: "integer", Min: intp(0),
			Doc: "Tokens of the window kept for the system prompt."},
		{Key: "budget.responseReserve", File: "context.budget.response_reserve", Type: "integer", Min: intp(0),
			Doc: "Tokens of the window kept for the model's answer."},
		{Key: "budget.categories", File: "context.budget.categories", Type: "object", Properties: budget.Categories,
			Doc: "Share of the available budget per source category, in percent, summing to 100; a category left out gets 0."},
		{Key: "budget.redistribute", File: "context.budget.redistribute", Type: "boolean",
			Doc: "Offer the budget a category leaves unused to the others."},
		{Key: "exclude", File: "context.exclude", Type: "array",
			Doc: "Globs kept out of the context, on top of `.gitignore`."},
		{Key: "pack.askForToolOutput", Type: "boolean", Default: true, Editor: "vscode",
			Doc: "Ask for a tool result (last terminal command output, clipboard, or a command to run) when packing context."},
		{Key: "pack.askForBudget", Type: "boolean", Default: true, Editor: "vscode",
			Doc: "Ask for this pack's budget — the room the packed context may take (the available window, smaller sizes, or a number such as `12k`) — when packing context."},
		{Key: "pack.sourceTimeoutMs", Type: "integer", Min: intp(0), Default: 5000, Editor: "vscode",
			Doc: "Milliseconds each request to the other language servers (definitions, references, symbols) may take when packing; one that takes longer is skipped and named in the *Acode* output. 0: no limit."},
		{Key: "trace.server", Type: "string", Enum: []string{"off", "messages", "verbose"}, Default: "off", Editor: "vscode",
			Doc: "Traces the communication between VS Code and acode-lsp in the *Acode Trace* output; the *Acode* output then keeps the server's raw JSON log lines."},
	}
}

// FileDefault returns the default of a config file key
// ("context.budget.total_tokens" → 100000), or nil when there is no such key.
func FileDefault(key string) any {
	v := reflect.ValueOf(Default())
	for _, part := range strings.Split(key, ".") {
		if v.Kind() != reflect.Struct {
			return nil
		}
		t := v.Type()
		found := false
		for i := 0; i < t.NumField(); i++ {
			if strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0] == part {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return v.Interface()
}

// editorOwnSettings are the first parts of the keys of the "acode" section
// that an editor extension reads itself (serverPath, trace, pack): a client
// that sends its whole section sends them too, and they are not mistakes.
func editorOwnSettings() map[string]bool {
	out := map[string]bool{}
	for _, s := range Settings() {
		if !s.Server() {
			out[strings.Split(s.Key, ".")[0]] = true
		}
	}
	return out
}

// settingNames maps file keys to the names editors use for them.
func settingNames() map[string]string {
	out := map[string]string{}
	for _, s := range Settings() {
		if s.File != "" {
			out[s.File] = "acode." + s.Key
		}
	}
	return out
}
