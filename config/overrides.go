package config

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Overrides is the shape of editor settings (initializationOptions and
// workspace/didChangeConfiguration section "acode"). Every field is optional;
// a present field replaces the file's value. Other keys are ignored by
// [Config.WithOverrides]; [UnknownSettings] names those that are not the
// editor extension's own settings (serverPath, trace, pack), so the user can
// be told.
type Overrides struct {
	Model    *string          `json:"model"`
	Encoding *string          `json:"encoding"`
	Budget   *BudgetOverrides `json:"budget"`
	Exclude  []string         `json:"exclude"`
}

// BudgetOverrides replaces parts of context.budget: the budget of the
// editor settings ("acode.budget") and of one pack (acode/packContext's
// "budget", pack.Request.Budget). A nil field keeps the configured value.
// [BudgetOverrides.Apply] is the one place they are applied.
type BudgetOverrides struct {
	TotalTokens     *int           `json:"totalTokens,omitempty"`
	SystemReserve   *int           `json:"systemReserve,omitempty"`
	ResponseReserve *int           `json:"responseReserve,omitempty"`
	Categories      map[string]int `json:"categories,omitempty"`
	Redistribute    *bool          `json:"redistribute,omitempty"`
}

// Apply returns b with the overrides that are set (b's categories are
// replaced by a copy of o's when o has any). A nil o changes nothing.
func (o *BudgetOverrides) Apply(b Budget) Budget {
	if o == nil {
		return b
	}
	if o.TotalTokens != nil {
		b.TotalTokens = *o.TotalTokens
	}
	if o.SystemReserve != nil {
		b.SystemPromptReserve = *o.SystemReserve
	}
	if o.ResponseReserve != nil {
		b.ResponseReserve = *o.ResponseReserve
	}
	if o.Categories != nil {
		b.Categories = copyMap(o.Categories)
	}
	if o.Redistribute != nil {
		b.Redistribute = *o.Redistribute
	}
	return b
}

// WithOverrides returns c with the editor settings in raw applied and
// validated. Empty raw, "null" and "{}" change nothing. An invalid result
// is an *Error and c is left as it was.
func (c Config) WithOverrides(raw json.RawMessage) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	var o Overrides
	if err := json.Unmarshal(raw, &o); err != nil {
		return c, &Error{File: "editor settings (acode)", Problems: []Problem{{Key: "acode", Rule: "cannot be decoded: " + err.Error(), Fix: "check the types of the acode.* settings (numbers for budget values, strings for model and encoding)"}}}
	}
	out := c.clone()
	if o.Model != nil && *o.Model != "" {
		out.Context.Tokenizer.Model = *o.Model
		if o.Encoding == nil {
			out.Context.Tokenizer.Encoding = ""
		}
	}
	if o.Encoding != nil {
		out.Context.Tokenizer.Encoding = *o.Encoding
	}
	out.Context.Budget = o.Budget.Apply(out.Context.Budget)
	if o.Exclude != nil {
		out.Context.Exclude = append([]string{}, o.Exclude...)
	}
	if probs := out.check(); len(probs) > 0 {
		for i := range probs {
			probs[i].Key = SettingName(probs[i].Key) + " (editor setting)"
		}
		return c, &Error{File: "editor settings (acode)", Problems: probs}
	}
	return out, nil
}

// editorOwnSettings are the keys of the "acode" section that the VS Code
// extension reads itself (editors/vscode/package.json); a client that sends
// its whole section sends them too, and they are not mistakes.
var editorOwnSettings = map[string]bool{"serverPath": true, "trace": true, "pack": true}

// SettingKeys returns the keys of the "acode" section that acode-lsp reads
// (the JSON names of [Overrides]).
func SettingKeys() []string { return jsonNames(Overrides{}) }

// jsonNames returns the JSON names of the fields of the struct v.
func jsonNames(v any) []string {
	t := reflect.TypeOf(v)
	names := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		names = append(names, strings.Split(t.Field(i).Tag.Get("json"), ",")[0])
	}
	return names
}

// UnknownSettings returns, sorted, the keys of the "acode" section raw that
// acode-lsp does not read and that are not the editor extension's own, as
// the user writes them ("acode.modle", "acode.budget.total"): a misspelt
// setting changes nothing, so it is worth telling. It returns nil when raw
// is not an object (WithOverrides reports that).
func UnknownSettings(raw json.RawMessage) []string {
	var section map[string]json.RawMessage
	if json.Unmarshal(raw, &section) != nil {
		return nil
	}
	var out []string
	for k, v := range section {
		switch {
		case editorOwnSettings[k]:
		case !slices.Contains(SettingKeys(), k):
			out = append(out, "acode."+k)
		case k == "budget":
			var b map[string]json.RawMessage
			if json.Unmarshal(v, &b) != nil {
				continue
			}
			for bk := range b {
				if !slices.Contains(jsonNames(BudgetOverrides{}), bk) {
					out = append(out, "acode.budget."+bk)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// settingNames maps file keys to the names editors use for them.
var settingNames = map[string]string{
	"context.budget.total_tokens":          "acode.budget.totalTokens",
	"context.budget.system_prompt_reserve": "acode.budget.systemReserve",
	"context.budget.response_reserve":      "acode.budget.responseReserve",
	"context.budget.categories":            "acode.budget.categories",
	"context.budget.redistribute":          "acode.budget.redistribute",
	"context.tokenizer.encoding":           "acode.encoding",
	"context.tokenizer.model":              "acode.model",
	"context.exclude":                      "acode.exclude",
}

// SettingName returns the editor setting a file key stands for
// ("context.budget.total_tokens" → "acode.budget.totalTokens"), so that a
// problem names what the user typed; the key itself when no setting
// stands for it. A pack's request field is the setting without "acode.".
func SettingName(key string) string {
	if n, ok := settingNames[key]; ok {
		return n
	}
	for k, n := range settingNames {
		if strings.HasPrefix(key, k+".") {
			return n + key[len(k):]
		}
	}
	return key
}

// clone returns a deep copy of c.
func (c Config) clone() Config {
	out := c
	out.Context.Budget.Categories = copyMap(c.Context.Budget.Categories)
	out.Context.SourcePriority = copyMap(c.Context.SourcePriority)
	out.Context.Exclude = append([]string{}, c.Context.Exclude...)
	return out
}
