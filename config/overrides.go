package config

import (
	"encoding/json"
	"fmt"
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
			probs[i].Key = fmt.Sprintf("%s (from editor settings)", probs[i].Key)
		}
		return c, &Error{File: "editor settings (acode)", Problems: probs}
	}
	return out, nil
}

// clone returns a deep copy of c.
func (c Config) clone() Config {
	out := c
	out.Context.Budget.Categories = copyMap(c.Context.Budget.Categories)
	out.Context.SourcePriority = copyMap(c.Context.SourcePriority)
	out.Context.Exclude = append([]string{}, c.Context.Exclude...)
	return out
}
