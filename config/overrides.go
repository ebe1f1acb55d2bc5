package config

import (
	"encoding/json"
	"strings"
)

// Overrides is the shape of editor settings (initializationOptions and
// workspace/didChangeConfiguration section "acode"). Every field is optional;
// a present field replaces the file's value. Other keys the editor sends with
// its settings (serverPath, trace, ...) are ignored.
type Overrides struct {
	Model    *string `json:"model"`
	Encoding *string `json:"encoding"`
	Budget   *struct {
		TotalTokens     *int           `json:"totalTokens"`
		SystemReserve   *int           `json:"systemReserve"`
		ResponseReserve *int           `json:"responseReserve"`
		Categories      map[string]int `json:"categories"`
		Redistribute    *bool          `json:"redistribute"`
	} `json:"budget"`
	Exclude []string `json:"exclude"`
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
	if b := o.Budget; b != nil {
		if b.TotalTokens != nil {
			out.Context.Budget.TotalTokens = *b.TotalTokens
		}
		if b.SystemReserve != nil {
			out.Context.Budget.SystemPromptReserve = *b.SystemReserve
		}
		if b.ResponseReserve != nil {
			out.Context.Budget.ResponseReserve = *b.ResponseReserve
		}
		if b.Categories != nil {
			out.Context.Budget.Categories = copyMap(b.Categories)
		}
		if b.Redistribute != nil {
			out.Context.Budget.Redistribute = *b.Redistribute
		}
	}
	if o.Exclude != nil {
		out.Context.Exclude = append([]string{}, o.Exclude...)
	}
	if probs := out.check(); len(probs) > 0 {
		for i := range probs {
			probs[i].Key = settingName(probs[i].Key) + " (editor setting)"
		}
		return c, &Error{File: "editor settings (acode)", Problems: probs}
	}
	return out, nil
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

// settingName returns the editor setting a file key stands for, so that a
// problem names what the user typed.
func settingName(key string) string {
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
