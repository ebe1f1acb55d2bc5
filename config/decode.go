package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// decode parses YAML over the defaults. It reads every value it can: an
// unknown key or a value of the wrong type is reported (with its dotted key
// and line) and left out, and the rest is decoded, so the other values can
// still be checked. lines maps each dotted key to its line. A category map
// that is present replaces the default one (a missing category then gets 0,
// docs/design.md#rule-2). ok is false when the file is not YAML at all.
func decode(data []byte) (cfg Config, lines map[string]int, probs []Problem, ok bool) {
	cfg = Default()
	lines = map[string]int{}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		line, rule := syntaxError(data, err)
		return cfg, lines, []Problem{{Kind: KindSyntax, Key: "(yaml)", Line: line, Rule: rule,
			Fix: "correct the YAML syntax: indent nested keys with spaces, by the same amount at each level, as `key: value`"}}, false
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return cfg, lines, nil, true // empty file: all defaults
	}
	doc := root.Content[0]
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return cfg, lines, nil, true
	}
	walk(doc, reflect.ValueOf(Default()), "", lines, &probs)
	for _, path := range []string{"context.budget.categories", "context.source_priority"} {
		if n := find(doc, path); n != nil && n.Kind == yaml.MappingNode {
			if path == "context.budget.categories" {
				cfg.Context.Budget.Categories = map[string]int{}
			} else {
				cfg.Context.SourcePriority = copyMap(Default().Context.SourcePriority)
			}
		}
	}
	if err := doc.Decode(&cfg); err != nil {
		// walk removed every value of the wrong type; this is a defect if reached.
		probs = append(probs, Problem{Kind: KindType, Key: "(value)", Line: lineOf(err.Error()), Rule: err.Error(), Fix: "use a value of the type shown in docs/configuration.md"})
	}
	if cfg.Context.Exclude == nil {
		cfg.Context.Exclude = []string{}
	}
	return cfg, lines, probs, true
}

// walk checks a node against the default value's type: it reports unknown
// keys (with the valid ones and the closest) and values of the wrong type,
// removing both from the node so that decoding reads everything else, and
// records the line of every key.
func walk(n *yaml.Node, def reflect.Value, prefix string, lines map[string]int, probs *[]Problem) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // an empty value keeps the default
	}
	switch def.Kind() {
	case reflect.Struct:
		walkStruct(n, def, prefix, lines, probs)
	case reflect.Map:
		walkMap(n, prefix, lines, probs)
	case reflect.Slice:
		walkList(n, strings.TrimPrefix(prefix, "."), probs)
	default:
		key := strings.TrimPrefix(prefix, ".")
		x := reflect.New(def.Type())
		if n.Kind != yaml.ScalarNode || n.Decode(x.Interface()) != nil {
			k := def.Kind()
			*probs = append(*probs, typeProblem(key, n, "must be "+kindPhrase(k),
				fmt.Sprintf("write %s, e.g. `%s: %v` (the default)", kindPhrase(k), lastPart(key), def.Interface())))
		}
	}
}

// walkStruct checks a mapping against the struct def: unknown keys are
// reported and removed, known ones walked; a value of the wrong type is
// removed so that the key keeps its default.
func walkStruct(n *yaml.Node, def reflect.Value, prefix string, lines map[string]int, probs *[]Problem) {
	if n.Kind != yaml.MappingNode {
		*probs = append(*probs, typeProblem(strings.TrimPrefix(prefix, "."), n, "must be a mapping of keys", "indent its keys below it, see docs/configuration.md"))
		n.Kind, n.Tag, n.Value, n.Content = yaml.MappingNode, "!!map", "", nil
		return
	}
	t := def.Type()
	fields := map[string]int{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		fields[name] = i
		names = append(names, name)
	}
	kept := n.Content[:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub := strings.TrimPrefix(prefix+"."+k.Value, ".")
		lines[sub] = k.Line
		fi, ok := fields[k.Value]
		if !ok {
			*probs = append(*probs, unknownKey(n, k, v, sub, prefix, names))
			continue
		}
		before := len(*probs)
		walk(v, def.Field(fi), prefix+"."+k.Value, lines, probs)
		if len(*probs) > before && (*probs)[len(*probs)-1].Kind == KindType && (*probs)[len(*probs)-1].Key == sub {
			continue // the value itself has the wrong type: leave the default
		}
		kept = append(kept, k, v)
	}
	n.Content = kept
}

// walkMap checks a `name: number` mapping (category weights and limits):
// names must be categories under categories and source_priority, values
// whole numbers; a bad entry is reported and removed.
func walkMap(n *yaml.Node, prefix string, lines map[string]int, probs *[]Problem) {
	key := strings.TrimPrefix(prefix, ".")
	if n.Kind != yaml.MappingNode {
		*probs = append(*probs, typeProblem(key, n, "must be a mapping of `name: number` lines", "write it as `name: value` lines below it, or {name: value}"))
		return
	}
	isCat := strings.HasSuffix(prefix, ".categories") || strings.HasSuffix(prefix, ".source_priority")
	kept := n.Content[:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub := key + "." + k.Value
		lines[sub] = k.Line
		if isCat && !contains(budget.Categories, k.Value) {
			*probs = append(*probs, unknownCategory(key, sub, k))
			continue
		}
		var x int
		if v.Kind != yaml.ScalarNode || v.Decode(&x) != nil {
			*probs = append(*probs, typeProblem(sub, v, "must be a whole number", "write a whole number, e.g. `"+k.Value+": 20`"))
			continue
		}
		kept = append(kept, k, v)
	}
	n.Content = kept
}

// unknownCategory reports a key of a category mapping that names no
// category, with the closest one.
func unknownCategory(key, sub string, k *yaml.Node) Problem {
	fix := "use one of " + strings.Join(budget.Categories, ", ")
	p := Problem{Kind: KindKey, Key: sub, Line: k.Line, Rule: "unknown category", Fix: fix}
	if s := closest(k.Value, budget.Categories); s != "" {
		p.Fix = fmt.Sprintf("did you mean %q? Use one of %s", s, strings.Join(budget.Categories, ", "))
		p.Meant = key + "." + s
	}
	return p
}

// walkList checks a list of strings; a bad one empties the list (the
// default is kept).
func walkList(n *yaml.Node, key string, probs *[]Problem) {
	if n.Kind != yaml.SequenceNode {
		*probs = append(*probs, typeProblem(key, n, "must be a list", "write a list, e.g. [\"vendor/**\", \"*.gen.go\"]"))
		return
	}
	for _, item := range n.Content {
		var s string
		if item.Kind != yaml.ScalarNode || item.Decode(&s) != nil {
			*probs = append(*probs, typeProblem(key, item, "must be a list of strings", "quote each item, e.g. [\"vendor/**\"]"))
			n.Content = nil
			return
		}
	}
}

// unknownKey describes a key the configuration does not have. The seed
// documents' `tokenizer.type: tiktoken` gets the exact replacement.
func unknownKey(parent, k, v *yaml.Node, key, prefix string, names []string) Problem {
	p := Problem{Kind: KindKey, Key: key, Line: k.Line, Rule: "unknown key"}
	if key == "context.tokenizer.type" {
		p.Value = v.Value
		p.Rule = "is not a key: acode-lsp always counts with tiktoken's encodings, chosen by `model` (or `encoding`)"
		if m := find(parent, "model"); m != nil && m.Value != "" {
			p.Fix = fmt.Sprintf("delete line %d (`type: %s`); `model: %s` on line %d already chooses the tokenizer", k.Line, v.Value, m.Value, m.Line)
		} else if e := find(parent, "encoding"); e != nil && e.Value != "" {
			p.Fix = fmt.Sprintf("delete line %d (`type: %s`); `encoding: %s` on line %d already chooses the tokenizer", k.Line, v.Value, e.Value, e.Line)
		} else {
			p.Fix = fmt.Sprintf("replace line %d (`type: %s`) with `model: gpt-4o` (your model's name), or `encoding: o200k_base`", k.Line, v.Value)
		}
		return p
	}
	if prefix == "" && contextKey(k.Value) {
		// budget:, tokenizer:, … at the top level: every key lives under context.
		p.Rule = "is not under `context:`, so none of its values were read"
		p.Fix = fmt.Sprintf("move it under `context:`: put a line `context:` above line %d and indent `%s:` and the lines below it by two more spaces", k.Line, k.Value)
		p.Meant = "context." + k.Value
		return p
	}
	p.Fix = "remove it; valid keys here are " + strings.Join(names, ", ")
	if s := closest(k.Value, names); s != "" {
		p.Fix = fmt.Sprintf("did you mean %q? Valid keys here are %s", s, strings.Join(names, ", "))
		p.Meant = strings.TrimPrefix(prefix+"."+s, ".")
	}
	return p
}

// contextKey reports whether name is a key of context (budget, ranking, …).
func contextKey(name string) bool {
	t := reflect.TypeOf(Context{})
	for i := 0; i < t.NumField(); i++ {
		if strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0] == name {
			return true
		}
	}
	return false
}

func typeProblem(key string, n *yaml.Node, rule, fix string) Problem {
	val := n.Value
	switch n.Kind {
	case yaml.MappingNode:
		val = "a mapping"
	case yaml.SequenceNode:
		val = "a list"
	}
	return Problem{Kind: KindType, Key: key, Line: n.Line, Value: val, Rule: rule, Fix: fix}
}

func kindPhrase(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return "a " + k.String()
}

func lastPart(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// check validates the values of a decoded configuration.
func (c Config) check() []Problem {
	ctx := c.Context
	probs := budgetProblems(ctx.Budget)
	probs = append(probs, sourcePriorityProblems(ctx.SourcePriority)...)
	probs = append(probs, rankingProblems(ctx.Ranking)...)
	probs = append(probs, chunkingProblems(ctx.Chunking)...)
	if d := ctx.Dedup.OverlapThreshold; d <= 0 || d > 1 || math.IsNaN(d) {
		probs = append(probs, Problem{Key: "context.dedup.overlap_threshold", Value: FormatNumber(d), Rule: "must be greater than 0 and at most 1", Fix: "use e.g. 0.8 (80 % of the smaller chunk's lines shared)"})
	}
	probs = append(probs, tokenizerProblems(ctx.Tokenizer)...)
	for i := range probs {
		probs[i].Kind = KindValue
	}
	return probs
}

// budgetProblems checks context.budget as [budget.Allocate] does, and its
// warning thresholds.
func budgetProblems(b Budget) []Problem {
	var probs []Problem
	if _, err := budget.Allocate(int64(b.TotalTokens), int64(b.SystemPromptReserve), int64(b.ResponseReserve), b.Categories); err != nil {
		var be *budget.Error
		if errors.As(err, &be) {
			for _, p := range be.Problems {
				q := Problem{Key: p.Key, Value: p.Value, Rule: p.Rule, Fix: p.Fix}
				if strings.HasSuffix(p.Key, "categories") && strings.HasPrefix(p.Rule, "percentages sum") {
					q.Rule += missingCategories(b.Categories)
				}
				probs = append(probs, q)
			}
		}
	}
	if err := b.Warnings.Thresholds().Validate(); err != nil {
		probs = append(probs, warningsProblem(err))
	}
	return probs
}

// sourcePriorityProblems checks that each priority is from 0 to 100, in
// key order.
func sourcePriorityProblems(sp map[string]int) []Problem {
	var probs []Problem
	for _, k := range slices.Sorted(maps.Keys(sp)) {
		if v := sp[k]; v < 0 || v > 100 {
			probs = append(probs, Problem{Key: "context.source_priority." + k, Value: fmt.Sprint(v), Rule: "must be from 0 to 100", Fix: "use a whole number from 0 to 100 (100 = most important)"})
		}
	}
	return probs
}

// rankingProblems checks that each weight is from 0 to 1 and that they sum
// to at most 1 (and more than 0).
func rankingProblems(r Ranking) []Problem {
	var probs []Problem
	weights := []struct {
		key string
		v   float64
	}{{"relevance_weight", r.RelevanceWeight}, {"recency_weight", r.RecencyWeight}, {"source_weight", r.SourceWeight}}
	sum := 0.0
	for _, w := range weights {
		if w.v < 0 || w.v > 1 || math.IsNaN(w.v) {
			probs = append(probs, Problem{Key: "context.ranking." + w.key, Value: FormatNumber(w.v), Rule: "must be from 0 to 1", Fix: "use a weight such as 0.3"})
		}
		sum += w.v
	}
	if len(probs) == 0 && (sum <= 0 || sum > 1+1e-9) {
		probs = append(probs, Problem{Key: "context.ranking", Value: FormatNumber(sum), Rule: "the weights must add up to more than 0 and at most 1 so that a score stays within [0,1]", Fix: "scale the three weights so they sum to 1, e.g. 0.5/0.3/0.2"})
	}
	return probs
}

// chunkingProblems checks that max_chunk_tokens is positive and
// min_chunk_tokens from 0 to it.
func chunkingProblems(ch Chunking) []Problem {
	var probs []Problem
	if ch.MaxChunkTokens <= 0 {
		probs = append(probs, Problem{Key: "context.chunking.max_chunk_tokens", Value: fmt.Sprint(ch.MaxChunkTokens), Rule: "must be positive", Fix: "use e.g. 2000"})
	}
	if ch.MinChunkTokens < 0 {
		probs = append(probs, Problem{Key: "context.chunking.min_chunk_tokens", Value: fmt.Sprint(ch.MinChunkTokens), Rule: "must not be negative", Fix: "use 0 to turn merging off, or e.g. 100"})
	} else if ch.MaxChunkTokens > 0 && ch.MinChunkTokens > ch.MaxChunkTokens {
		probs = append(probs, Problem{Key: "context.chunking.min_chunk_tokens", Value: fmt.Sprint(ch.MinChunkTokens), Rule: fmt.Sprintf("is larger than max_chunk_tokens (%d)", ch.MaxChunkTokens), Fix: "make min_chunk_tokens at most max_chunk_tokens"})
	}
	return probs
}

// tokenizerProblems checks that a named encoding exists and the cache
// size is not negative.
func tokenizerProblems(tk Tokenizer) []Problem {
	var probs []Problem
	if tk.Encoding != "" && !tokenizer.KnownEncoding(tk.Encoding) {
		// A name is checked without building its tables (a pack's first
		// load would otherwise happen here, where no cancel reaches it);
		// a file: encoding is read and checked whole.
		if _, err := tokenizer.ForEncoding(tk.Encoding); err != nil {
			probs = append(probs, Problem{Key: "context.tokenizer.encoding", Value: tk.Encoding, Rule: "is not a known encoding", Fix: "use " + strings.Join(tokenizer.Encodings(), ", ") + ", or name a model instead"})
		}
	}
	if tk.CacheSize < 0 {
		probs = append(probs, Problem{Key: "context.tokenizer.cache_size", Value: fmt.Sprint(tk.CacheSize), Rule: "must not be negative", Fix: "use e.g. 10000 (0 = default)"})
	}
	return probs
}

// missingCategories says which categories a map leaves out (they get 0):
// "; references is missing (a category left out gets 0%)"; "" when none is.
func missingCategories(cats map[string]int) string {
	var missing []string
	for _, c := range budget.Categories {
		if _, ok := cats[c]; !ok {
			missing = append(missing, c)
		}
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return "; " + missing[0] + " is missing (a category left out gets 0%)"
	}
	return "; " + strings.Join(missing, " and ") + " are missing (a category left out gets 0%)"
}

// FormatNumber writes a configured number without binary float noise:
// 0.6+0.6+0.4 is 1.6, not 1.5999999999999999.
func FormatNumber(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	return strconv.FormatFloat(math.Round(x*1e9)/1e9, 'f', -1, 64)
}

// warnings reports valid settings that deserve a word: a model whose
// tokenizer acode-lsp does not know is counted by an estimate.
func (c Config) warnings(lines map[string]int) []Problem {
	tk := c.Context.Tokenizer
	if tk.Encoding != "" {
		return nil
	}
	if _, exact := tokenizer.EncodingForModel(tk.Model); exact || tk.Model == "" {
		return nil // counted exactly; known without building the tables
	}
	t, err := tokenizer.Resolve(tk.Model, "")
	if err != nil || t.Exact() {
		return nil
	}
	factor := tokenizer.DefaultFactor(tk.Model)
	if e := tokenizer.EstimateOf(t); e != nil {
		factor = e.Factor
	}
	return []Problem{{Kind: KindValue, Key: "context.tokenizer.model", Line: lines["context.tokenizer.model"], Value: tk.Model,
		Rule: fmt.Sprintf("has no tokenizer acode-lsp counts exactly: every count will be an upper-bound estimate, the exact %s count × %s (exact: false)", tokenizer.EstimateBasis, FormatNumber(factor)),
		Fix: "if it is a model acode-lsp counts exactly under its usual name, use that (gpt-4o, llama-3.1-8b, qwen3-coder, deepseek-v3, gemini-2.5-pro, …) or set `encoding:` (" +
			strings.Join(tokenizer.Encodings(), ", ") + "); for a model with a Hugging Face tokenizer.json set `file:` to it; otherwise report real counts (`acode-lsp calibrate`, acode/reportUsage) to tighten the factor"}}
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

// syntaxError returns the line and the text of a YAML syntax error. The
// parser reports some errors at the line where the enclosing mapping starts
// (a key indented to no level of its parents says "line 1: did not find
// expected key"); the first line whose indentation matches no enclosing
// level, or that indents with a tab, is the one to fix.
func syntaxError(data []byte, err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := lineOf(msg)
	if bad, why := badIndent(data); bad > 0 && bad >= line {
		if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
			msg = msg[i+2:] // its line is the enclosing mapping's, not the one to fix
		}
		return bad, why + " (the YAML parser says: " + msg + ")"
	}
	return line, "is not valid YAML: " + msg
}

// badIndent finds the first line indented with a tab, or indented less than
// the line before it to a column no enclosing key uses.
func badIndent(data []byte) (int, string) {
	levels := []int{0}
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.TrimRight(raw, " \r")
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		lead := text[:len(text)-len(trimmed)]
		if strings.Contains(lead, "\t") {
			return i + 1, "is indented with a tab; YAML indents with spaces only"
		}
		col := len(lead)
		top := levels[len(levels)-1]
		switch {
		case col > top:
			levels = append(levels, col)
		case col < top:
			for len(levels) > 1 && levels[len(levels)-1] > col {
				levels = levels[:len(levels)-1]
			}
			if levels[len(levels)-1] != col {
				return i + 1, fmt.Sprintf("is indented by %d spaces, which matches no enclosing key (they are at %s)", col, joinInts(levels))
			}
		}
	}
	return 0, ""
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

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

// warningsProblem turns a budget.ThresholdError into a problem on its
// context.budget.warnings key.
func warningsProblem(err error) Problem {
	var te *budget.ThresholdError
	if !errors.As(err, &te) {
		return Problem{Key: "context.budget.warnings", Rule: err.Error()}
	}
	key := map[string]string{"warningPercent": "warning_percent", "criticalPercent": "critical_percent", "minRemainingTokens": "min_remaining_tokens"}[te.Field]
	return Problem{Key: "context.budget.warnings." + key, Value: te.Value, Rule: te.Message,
		Fix: "e.g. {warning_percent: 80, critical_percent: 90, min_remaining_tokens: 20000}"}
}
