package config

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// decode parses YAML over the defaults, reporting unknown keys with their
// line. A category map that is present replaces the default one (a missing
// category then gets 0, DESIGN rule 2).
func decode(data []byte) (Config, []Problem) {
	cfg := Default()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return cfg, []Problem{{Key: "(yaml)", Line: yamlErrLine(err), Rule: "is not valid YAML: " + err.Error(), Fix: "correct the YAML syntax (indent with spaces, `key: value`)"}}
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return cfg, nil // empty file: all defaults
	}
	doc := root.Content[0]
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return cfg, nil
	}
	var probs []Problem
	checkKeys(doc, reflect.TypeOf(cfg), "", &probs)
	if len(probs) > 0 {
		return cfg, probs
	}
	for _, path := range []string{"context.budget.categories", "context.source_priority"} {
		if n := find(doc, path); n != nil {
			if path == "context.budget.categories" {
				cfg.Context.Budget.Categories = map[string]int{}
			} else {
				cfg.Context.SourcePriority = copyMap(Default().Context.SourcePriority)
			}
		}
	}
	if err := doc.Decode(&cfg); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			for _, msg := range te.Errors {
				probs = append(probs, Problem{Key: "(value)", Line: lineOf(msg), Rule: msg, Fix: "use a value of the type shown in docs/configuration.md"})
			}
			return Default(), probs
		}
		return Default(), []Problem{{Key: "(yaml)", Rule: err.Error(), Fix: "see docs/configuration.md"}}
	}
	if cfg.Context.Exclude == nil {
		cfg.Context.Exclude = []string{}
	}
	return cfg, nil
}

// checkKeys walks a mapping node against the struct's yaml tags and reports
// every key the struct does not have, with its line and the valid keys.
func checkKeys(n *yaml.Node, t reflect.Type, prefix string, probs *[]Problem) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return
			}
			*probs = append(*probs, Problem{Key: strings.TrimPrefix(prefix, "."), Line: n.Line, Value: n.Value, Rule: "must be a mapping of keys", Fix: "indent its keys below it, see docs/configuration.md"})
			return
		}
		fields := map[string]reflect.Type{}
		var names []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("yaml"), ",")[0]
			fields[name] = f.Type
			names = append(names, name)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			key := strings.TrimPrefix(prefix+"."+k.Value, ".")
			if !ok {
				fix := "remove it; valid keys here are " + strings.Join(names, ", ")
				if s := closest(k.Value, names); s != "" {
					fix = fmt.Sprintf("did you mean %q? Valid keys here are %s", s, strings.Join(names, ", "))
				}
				*probs = append(*probs, Problem{Key: key, Line: k.Line, Rule: "unknown key", Fix: fix})
				continue
			}
			checkKeys(v, ft, prefix+"."+k.Value, probs)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			if n.Tag == "!!null" {
				return
			}
			*probs = append(*probs, Problem{Key: strings.TrimPrefix(prefix, "."), Line: n.Line, Rule: "must be a mapping", Fix: "write it as `name: value` lines or {name: value}"})
			return
		}
		if strings.HasSuffix(prefix, ".categories") || strings.HasSuffix(prefix, ".source_priority") {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if !contains(budget.Categories, k.Value) {
					fix := "use one of " + strings.Join(budget.Categories, ", ")
					if s := closest(k.Value, budget.Categories); s != "" {
						fix = fmt.Sprintf("did you mean %q? Use one of %s", s, strings.Join(budget.Categories, ", "))
					}
					*probs = append(*probs, Problem{Key: strings.TrimPrefix(prefix+"."+k.Value, "."), Line: k.Line, Rule: "unknown category", Fix: fix})
				}
			}
		}
	}
}

// check validates the values of a decoded configuration.
func (c Config) check() []Problem {
	var probs []Problem
	ctx := c.Context
	b := ctx.Budget
	if _, err := budget.Allocate(int64(b.TotalTokens), int64(b.SystemPromptReserve), int64(b.ResponseReserve), b.Categories); err != nil {
		var be *budget.Error
		if errors.As(err, &be) {
			for _, p := range be.Problems {
				probs = append(probs, Problem{Key: p.Key, Value: p.Value, Rule: p.Rule, Fix: p.Fix})
			}
		}
	}
	names := make([]string, 0, len(ctx.SourcePriority))
	for k := range ctx.SourcePriority {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if v := ctx.SourcePriority[k]; v < 0 || v > 100 {
			probs = append(probs, Problem{Key: "context.source_priority." + k, Value: fmt.Sprint(v), Rule: "must be from 0 to 100", Fix: "use a whole number from 0 to 100 (100 = most important)"})
		}
	}
	r := ctx.Ranking
	weights := []struct {
		key string
		v   float64
	}{{"relevance_weight", r.RelevanceWeight}, {"recency_weight", r.RecencyWeight}, {"source_weight", r.SourceWeight}}
	sum := 0.0
	bad := false
	for _, w := range weights {
		if w.v < 0 || w.v > 1 || math.IsNaN(w.v) {
			probs = append(probs, Problem{Key: "context.ranking." + w.key, Value: fmt.Sprint(w.v), Rule: "must be from 0 to 1", Fix: "use a weight such as 0.3"})
			bad = true
		}
		sum += w.v
	}
	if !bad && (sum <= 0 || sum > 1+1e-9) {
		probs = append(probs, Problem{Key: "context.ranking", Value: fmt.Sprintf("%g", sum), Rule: "the weights must add up to more than 0 and at most 1 so that a score stays within [0,1]", Fix: "scale the three weights so they sum to 1, e.g. 0.5/0.3/0.2"})
	}
	ch := ctx.Chunking
	if ch.MaxChunkTokens <= 0 {
		probs = append(probs, Problem{Key: "context.chunking.max_chunk_tokens", Value: fmt.Sprint(ch.MaxChunkTokens), Rule: "must be positive", Fix: "use e.g. 2000"})
	}
	if ch.MinChunkTokens < 0 {
		probs = append(probs, Problem{Key: "context.chunking.min_chunk_tokens", Value: fmt.Sprint(ch.MinChunkTokens), Rule: "must not be negative", Fix: "use 0 to turn merging off, or e.g. 100"})
	} else if ch.MaxChunkTokens > 0 && ch.MinChunkTokens > ch.MaxChunkTokens {
		probs = append(probs, Problem{Key: "context.chunking.min_chunk_tokens", Value: fmt.Sprint(ch.MinChunkTokens), Rule: fmt.Sprintf("is larger than max_chunk_tokens (%d)", ch.MaxChunkTokens), Fix: "make min_chunk_tokens at most max_chunk_tokens"})
	}
	if d := ctx.Dedup.OverlapThreshold; d <= 0 || d > 1 || math.IsNaN(d) {
		probs = append(probs, Problem{Key: "context.dedup.overlap_threshold", Value: fmt.Sprint(d), Rule: "must be greater than 0 and at most 1", Fix: "use e.g. 0.8 (80 % of the smaller chunk's lines shared)"})
	}
	tk := ctx.Tokenizer
	if tk.Encoding != "" {
		if _, err := tokenizer.ForEncoding(tk.Encoding); err != nil {
			probs = append(probs, Problem{Key: "context.tokenizer.encoding", Value: tk.Encoding, Rule: "is not a known encoding", Fix: "use " + strings.Join(tokenizer.Encodings(), ", ") + ", or name a model instead"})
		}
	}
	if tk.File != "" {
		if _, err := tokenizer.ForFile(tk.File); err != nil {
			probs = append(probs, Problem{Key: "context.tokenizer.file", Value: tk.File, Rule: strings.TrimPrefix(err.Error(), "tokenizer: "), Fix: "name a Hugging Face tokenizer.json of a supported BPE model (see docs/tokenizer.md), or remove the key and name a model"})
		}
	}
	if tk.CacheSize < 0 {
		probs = append(probs, Problem{Key: "context.tokenizer.cache_size", Value: fmt.Sprint(tk.CacheSize), Rule: "must not be negative", Fix: "use e.g. 10000 (0 = default)"})
	}
	return probs
}

func find(n *yaml.Node, path string) *yaml.Node {
	for _, part := range strings.Split(path, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// closest returns the candidate within edit distance 2 of s, if any.
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func yamlErrLine(err error) int { return lineOf(err.Error()) }

// lineOf extracts "line N" from a yaml error message.
func lineOf(msg string) int {
	i := strings.Index(msg, "line ")
	if i < 0 {
		return 0
	}
	n := 0
	for _, r := range msg[i+5:] {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}
