package main

import (
	"fmt"
	"strings"

	"github.com/acode-lsp/acode-lsp/config"
)

// tsTypes maps a setting's JSON type to its TypeScript type.
var tsTypes = map[string]string{"string": "string", "integer": "number", "boolean": "boolean", "object": "Record<string, number>", "array": "string[]"}

// luaTypes maps a setting's JSON type to its LuaLS annotation.
var luaTypes = map[string]string{"string": "string", "integer": "integer", "boolean": "boolean", "object": "table<string, number>", "array": "string[]"}

// serverGroups returns the server settings grouped by their first key part
// (budget.totalTokens under budget), in definition order.
func (s surface) serverGroups() (order []string, groups map[string][]config.Setting) {
	groups = map[string][]config.Setting{}
	for _, st := range s.settings {
		if !st.Server() {
			continue
		}
		head := strings.Split(st.Key, ".")[0]
		if _, ok := groups[head]; !ok {
			order = append(order, head)
		}
		groups[head] = append(groups[head], st)
	}
	return order, groups
}

func quotedList(items []string, quote func(string) string) string {
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = quote(it)
	}
	return strings.Join(q, ", ")
}

// typescript is editors/vscode/src/surface.ts.
func (s surface) typescript() string {
	var b strings.Builder
	q := jsonText
	fmt.Fprintf(&b, "// %s\n//\n", header)
	b.WriteString("// The client surface of acode-lsp, defined once in Go: the acode.* settings\n")
	b.WriteString("// (config/settings.go), the encodings, the budget levels and the ACODE-* error codes.\n\n")
	b.WriteString("/** SettingType is the JSON type of a setting. */\n")
	b.WriteString("export type SettingType = 'string' | 'integer' | 'boolean' | 'object' | 'array';\n\n")
	b.WriteString("/** SettingInfo is one acode.* setting; server settings are sent to acode-lsp. */\n")
	b.WriteString("export interface SettingInfo {\n  key: string;\n  type: SettingType;\n  server: boolean;\n  enum?: readonly string[];\n  min?: number;\n  properties?: readonly string[];\n}\n\n")
	b.WriteString("/** settings lists every acode.* setting. */\nexport const settings: readonly SettingInfo[] = [\n")
	for _, st := range s.settings {
		fmt.Fprintf(&b, "  { key: %s, type: %s, server: %t", q(st.Key), q(st.Type), st.Server())
		if st.Enum != nil {
			fmt.Fprintf(&b, ", enum: [%s]", quotedList(st.Enum, func(x string) string { return q(x) }))
		}
		if st.Min != nil {
			fmt.Fprintf(&b, ", min: %d", *st.Min)
		}
		if st.Properties != nil {
			fmt.Fprintf(&b, ", properties: [%s]", quotedList(st.Properties, func(x string) string { return q(x) }))
		}
		b.WriteString(" },\n")
	}
	b.WriteString("];\n\n")
	b.WriteString("/** ServerSettings is what acode-lsp reads from the editor. Unset keys are left out. */\nexport interface ServerSettings {\n")
	order, groups := s.serverGroups()
	for _, head := range order {
		g := groups[head]
		if len(g) == 1 && g[0].Key == head {
			fmt.Fprintf(&b, "  %s?: %s;\n", head, tsTypes[g[0].Type])
			continue
		}
		fmt.Fprintf(&b, "  %s?: {\n", head)
		for _, st := range g {
			fmt.Fprintf(&b, "    %s?: %s;\n", strings.TrimPrefix(st.Key, head+"."), tsTypes[st.Type])
		}
		b.WriteString("  };\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "/** encodings are the tokenizer encodings acode-lsp counts with exactly. */\nexport const encodings = [%s] as const;\n\n", quotedList(s.encodings, func(x string) string { return q(x) }))
	b.WriteString("/** Encoding is one of encodings. */\nexport type Encoding = (typeof encodings)[number];\n\n")
	fmt.Fprintf(&b, "/** categories are the budget's source categories. */\nexport const categories = [%s] as const;\n\n", quotedList(s.categories, func(x string) string { return q(x) }))
	names := make([]string, len(s.levels))
	for i, l := range s.levels {
		names[i] = l.name
	}
	fmt.Fprintf(&b, "/** levels are how full a budget is, in order. */\nexport const levels = [%s] as const;\n\n", quotedList(names, func(x string) string { return q(x) }))
	b.WriteString("/** BudgetLevel is one of levels. */\nexport type BudgetLevel = (typeof levels)[number];\n\n")
	b.WriteString("/** levelWhen says when a budget is at a level (the thresholds are context.budget.warnings). */\nexport const levelWhen: Record<BudgetLevel, string> = {\n")
	for _, l := range s.levels {
		fmt.Fprintf(&b, "  %s: %s,\n", l.name, q(l.when))
	}
	b.WriteString("};\n\n")
	b.WriteString("/** Thresholds are where the warning and critical levels start. */\nexport interface Thresholds {\n  warningPercent: number;\n  criticalPercent: number;\n  minRemainingTokens: number;\n}\n\n")
	t := s.thresholds
	fmt.Fprintf(&b, "/** defaultThresholds are the thresholds when context.budget.warnings sets none. */\nexport const defaultThresholds: Thresholds = { warningPercent: %g, criticalPercent: %g, minRemainingTokens: %d };\n\n", t.WarningPercent, t.CriticalPercent, t.MinRemainingTokens)
	fmt.Fprintf(&b, "/** installHint says how to get acode-lsp when it is not found. */\nexport const installHint = %s;\n\n", q(config.InstallHint))
	b.WriteString("/** errorCodes are the meanings of the ACODE-* codes of a failed request's data.code. */\nexport const errorCodes: Record<string, string> = {\n")
	for _, c := range s.codes {
		fmt.Fprintf(&b, "  %s: %s,\n", q(c.code), q(c.meaning))
	}
	b.WriteString("};\n")
	return b.String()
}

// luaQuote quotes a string for Lua (double quotes; \\, \", \n escaped).
func luaQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// lua is editors/neovim/lua/acode/surface.lua.
func (s surface) lua() string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- %s\n", header)
	b.WriteString("--- The client surface of acode-lsp, defined once in Go: the settings sent to\n")
	b.WriteString("--- acode-lsp (config/settings.go), the encodings, the budget levels and the\n--- ACODE-* error codes.\nlocal M = {}\n\n")
	b.WriteString("---@class acode.Settings Sent to acode-lsp as init_options and settings.acode.\n")
	order, groups := s.serverGroups()
	for _, head := range order {
		g := groups[head]
		if len(g) == 1 && g[0].Key == head {
			fmt.Fprintf(&b, "---@field %s? %s\n", head, luaTypes[g[0].Type])
			continue
		}
		parts := make([]string, len(g))
		for i, st := range g {
			parts[i] = fmt.Sprintf("%s?: %s", strings.TrimPrefix(st.Key, head+"."), luaTypes[st.Type])
		}
		fmt.Fprintf(&b, "---@field %s? {%s}\n", head, strings.Join(parts, ", "))
	}
	b.WriteString("\n--- settings lists the settings acode-lsp reads (key under settings.acode).\n")
	b.WriteString("---@type {key: string, type: string, enum?: string[], min?: integer, properties?: string[]}[]\nM.settings = {\n")
	for _, st := range s.settings {
		if !st.Server() {
			continue
		}
		fmt.Fprintf(&b, "  { key = %s, type = %s", luaQuote(st.Key), luaQuote(st.Type))
		if st.Enum != nil {
			fmt.Fprintf(&b, ", enum = { %s }", quotedList(st.Enum, luaQuote))
		}
		if st.Min != nil {
			fmt.Fprintf(&b, ", min = %d", *st.Min)
		}
		if st.Properties != nil {
			fmt.Fprintf(&b, ", properties = { %s }", quotedList(st.Properties, luaQuote))
		}
		b.WriteString(" },\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "--- encodings are the tokenizer encodings acode-lsp counts with exactly.\nM.encodings = { %s }\n\n", quotedList(s.encodings, luaQuote))
	fmt.Fprintf(&b, "--- categories are the budget's source categories.\nM.categories = { %s }\n\n", quotedList(s.categories, luaQuote))
	names := make([]string, len(s.levels))
	for i, l := range s.levels {
		names[i] = l.name
	}
	fmt.Fprintf(&b, "--- levels are how full a budget is, in order.\nM.levels = { %s }\n\n", quotedList(names, luaQuote))
	b.WriteString("--- level_when says when a budget is at a level (the thresholds are context.budget.warnings).\nM.level_when = {\n")
	for _, l := range s.levels {
		fmt.Fprintf(&b, "  %s = %s,\n", l.name, luaQuote(l.when))
	}
	b.WriteString("}\n\n")
	t := s.thresholds
	fmt.Fprintf(&b, "--- default_thresholds are the thresholds when context.budget.warnings sets none.\nM.default_thresholds = { warningPercent = %g, criticalPercent = %g, minRemainingTokens = %d }\n\n", t.WarningPercent, t.CriticalPercent, t.MinRemainingTokens)
	fmt.Fprintf(&b, "--- install_hint says how to get acode-lsp when it is not found.\nM.install_hint = %s\n\n", luaQuote(config.InstallHint))
	b.WriteString("--- error_codes are the meanings of the ACODE-* codes of a failed request's data.code.\nM.error_codes = {\n")
	for _, c := range s.codes {
		fmt.Fprintf(&b, "  [%s] = %s,\n", luaQuote(c.code), luaQuote(c.meaning))
	}
	b.WriteString("}\n\nreturn M\n")
	return b.String()
}

// generated marks a generated docs block.
func generated() string { return "<!-- " + header + " -->\n" }

// settingsDoc is docs/configuration.md's table of the settings the server reads.
func (s surface) settingsDoc() string {
	var b strings.Builder
	b.WriteString(generated())
	b.WriteString("| setting | overrides | type | meaning |\n|---|---|---|---|\n")
	for _, st := range s.settings {
		if !st.Server() {
			continue
		}
		typ := st.Type
		if st.Enum != nil {
			typ = "an [encoding](#encodings)"
		}
		if st.Min != nil {
			typ += fmt.Sprintf(" ≥ %d", *st.Min)
		}
		if st.Properties != nil {
			typ += " {" + strings.Join(st.Properties, ", ") + "}"
		}
		fmt.Fprintf(&b, "| `acode.%s` | `%s` (default %s) | %s | %s |\n", st.Key, st.File, valueText(config.FileDefault(st.File)), typ, st.Doc)
	}
	return b.String()
}

// encodingsDoc is docs/configuration.md's list of encodings.
func (s surface) encodingsDoc() string {
	return generated() + quotedList(s.encodings, func(x string) string { return "`" + x + "`" }) + "\n"
}

// errorsDoc is docs/configuration.md's table of error codes.
func (s surface) errorsDoc() string {
	var b strings.Builder
	b.WriteString(generated())
	b.WriteString("| code | meaning |\n|---|---|\n")
	for _, c := range s.codes {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.code, c.meaning)
	}
	return b.String()
}

// vscodeSettingsDoc is docs/editors.md's table of the VS Code settings.
func (s surface) vscodeSettingsDoc() string {
	var b strings.Builder
	b.WriteString(generated())
	b.WriteString("| setting | default | meaning |\n|---|---|---|\n")
	for _, st := range s.settings {
		doc := st.Doc
		if st.Enum != nil {
			doc += " One of " + quotedList(st.Enum, func(x string) string { return "`" + x + "`" }) + "."
		}
		fmt.Fprintf(&b, "| `acode.%s` | %s | %s |\n", st.Key, defaultText(st), doc)
	}
	return b.String()
}
