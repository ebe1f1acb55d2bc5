// Package config loads, validates and overrides the acode-lsp configuration
// (.agent/config.yml, docs/design.md#configuration).
//
// Start with [Load] (a file, or the defaults when there is none) and
// [Config.Validate]; editors override values with [Config.WithOverrides].
// Every key is optional; unknown keys are errors that carry their line.
package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector/safeio"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// FileName is the config file's path relative to the workspace root.
const FileName = ".agent/config.yml"

// FilePath returns the config file of a workspace root.
func FilePath(root string) string { return filepath.Join(root, filepath.FromSlash(FileName)) }

// Config is the whole configuration file.
type Config struct {
	Context Context `yaml:"context"`
}

// Context holds every setting; its YAML shape is the one of docs/design.md.
type Context struct {
	Budget         Budget         `yaml:"budget"`
	SourcePriority map[string]int `yaml:"source_priority"`
	Ranking        Ranking        `yaml:"ranking"`
	Chunking       Chunking       `yaml:"chunking"`
	Dedup          Dedup          `yaml:"dedup"`
	Tokenizer      Tokenizer      `yaml:"tokenizer"`
	Exclude        []string       `yaml:"exclude"`
	// IgnoreDefaults leaves out dependency and build trees (node_modules,
	// vendor outside Go modules, dist, build, …) where no .gitignore is in
	// force (docs/design.md#rule-9); false lets them in.
	IgnoreDefaults bool `yaml:"ignore_defaults"`
}

// Budget is context.budget.
type Budget struct {
	TotalTokens         int            `yaml:"total_tokens"`
	SystemPromptReserve int            `yaml:"system_prompt_reserve"`
	ResponseReserve     int            `yaml:"response_reserve"`
	Categories          map[string]int `yaml:"categories"`
	Redistribute        bool           `yaml:"redistribute"`
	Warnings            Warnings       `yaml:"warnings"`
}

// Warnings is context.budget.warnings (an acode-lsp extension): where the
// budget levels start, for the editors' gauge (acode/budget) and the
// conversation requests (see budget.Level).
type Warnings struct {
	WarningPercent     float64 `yaml:"warning_percent"`
	CriticalPercent    float64 `yaml:"critical_percent"`
	MinRemainingTokens int     `yaml:"min_remaining_tokens"`
}

// Thresholds returns w as budget thresholds.
func (w Warnings) Thresholds() budget.Thresholds {
	return budget.Thresholds{WarningPercent: w.WarningPercent, CriticalPercent: w.CriticalPercent, MinRemainingTokens: w.MinRemainingTokens}
}

// Ranking is context.ranking: the weights of docs/design.md#rule-5.
type Ranking struct {
	RelevanceWeight float64 `yaml:"relevance_weight"`
	RecencyWeight   float64 `yaml:"recency_weight"`
	SourceWeight    float64 `yaml:"source_weight"`
}

// Chunking is context.chunking (docs/design.md#rule-4).
type Chunking struct {
	MaxChunkTokens   int  `yaml:"max_chunk_tokens"`
	MinChunkTokens   int  `yaml:"min_chunk_tokens"`
	PreferStructural bool `yaml:"prefer_structural"`
}

// Dedup is context.dedup (docs/design.md#rule-6).
type Dedup struct {
	Enabled          bool    `yaml:"enabled"`
	OverlapThreshold float64 `yaml:"overlap_threshold"`
	MergeOverlapping bool    `yaml:"merge_overlapping"`
}

// Tokenizer is context.tokenizer: a model name, or an encoding named directly
// (the encoding wins when both are given). CacheSize is an acode-lsp
// extension: the number of cached counts (default 10,000).
type Tokenizer struct {
	Model    string `yaml:"model"`
	Encoding string `yaml:"encoding"`
	// File is a Hugging Face tokenizer.json counted exactly (docs/design.md rule
	// 1); relative to the config file's directory. An encoding wins over it.
	File      string `yaml:"file"`
	CacheSize int    `yaml:"cache_size"`
}

// Default returns the configuration used when no file sets a value.
func Default() Config {
	return Config{Context: Context{
		Budget: Budget{
			TotalTokens: 100000, SystemPromptReserve: 2000, ResponseReserve: 8000,
			Categories:   copyMap(budget.DefaultPercentages),
			Redistribute: true,
			Warnings: Warnings{WarningPercent: budget.DefaultWarningPercent, CriticalPercent: budget.DefaultCriticalPercent,
				MinRemainingTokens: budget.DefaultMinRemainingTokens},
		},
		SourcePriority: map[string]int{budget.ToolResults: 100, budget.OpenFiles: 80, budget.SearchResults: 60, budget.References: 40},
		Ranking:        Ranking{RelevanceWeight: 0.5, RecencyWeight: 0.3, SourceWeight: 0.2},
		Chunking:       Chunking{MaxChunkTokens: 2000, MinChunkTokens: 100, PreferStructural: true},
		Dedup:          Dedup{Enabled: true, OverlapThreshold: 0.8, MergeOverlapping: true},
		Tokenizer:      Tokenizer{Model: "gpt-4o", CacheSize: 10000},
		Exclude:        []string{},
		IgnoreDefaults: true,
	}}
}

// Load reads and validates a config file. A file that does not exist yields
// the defaults and no error. Errors are *Error values whose text says which
// key is wrong, why, and what to change.
//
// The file comes from the workspace, which may be hostile: it is read as a
// regular file only (a FIFO, a device or a symlink to /dev/zero is refused
// without blocking) and at most [MaxFileSize] bytes of it.
func Load(path string) (Config, error) {
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), err
	}
	return Parse(data, path)
}

// ReadFile reads a config file the safe way (a regular file, at most
// MaxFileSize bytes). A missing file is an error wrapping fs.ErrNotExist;
// one that cannot be read is an *Error saying why and what to do.
func ReadFile(path string) ([]byte, error) {
	data, err := safeio.ReadFile(context.Background(), path, MaxFileSize, safeio.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		fix := "check the file's permissions"
		switch {
		case errors.Is(err, safeio.ErrNotRegular):
			fix = "replace it with a regular YAML file"
		case errors.Is(err, safeio.ErrTooLarge):
			fix = "a config file is a few hundred bytes; check that this is the right file"
		}
		return nil, &Error{File: path, Problems: []Problem{{Kind: KindSyntax, Key: "(file)", Rule: "cannot be read: " + readErr(err), Fix: fix}}}
	}
	return data, nil
}

// MaxFileSize is the largest config file read (1 MiB).
const MaxFileSize = 1 << 20

// readErr is the text of a read error without the path (the Error names
// the file already).
func readErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Parse decodes and validates YAML config text; name is used in messages.
func Parse(data []byte, name string) (Config, error) {
	v := Inspect(data)
	if len(v.Problems) > 0 {
		e := &Error{File: name, Problems: v.Problems}
		if v.Read {
			cfg := v.Config
			e.Decoded = &cfg
		}
		return Default(), e
	}
	cfg := v.Config
	if f := cfg.Context.Tokenizer.File; f != "" && name != "" && !filepath.IsAbs(f) {
		// context.tokenizer.file is relative to the config file.
		cfg.Context.Tokenizer.File = filepath.Join(filepath.Dir(name), f)
	}
	if f := cfg.Context.Tokenizer.File; f != "" && name != "" {
		// A repository's config may be hostile: its tokenizer file must
		// resolve inside its workspace or the user's own configuration
		// (issue 21; budget/tokenizer's CheckFileAllowed).
		ws, user := workspaceOf(name), tokenizer.UserConfigDir()
		if _, err := tokenizer.CheckFileAllowed(f, []string{ws}, user); err != nil {
			rule := "names a file outside the workspace " + ws
			if user != "" {
				rule += " and " + user
			}
			if !errors.Is(err, tokenizer.ErrFileNotAllowed) {
				rule = strings.TrimPrefix(err.Error(), "tokenizer: ")
			}
			return Default(), &Error{File: name, Problems: []Problem{{Kind: KindValue, Key: "context.tokenizer.file",
				Line: v.Lines["context.tokenizer.file"], Rule: rule + " (a repository's config may only name a tokenizer.json inside them)",
				Fix: "move the tokenizer.json into the workspace, or pass it with --tokenizer-file"}}}
		}
	}
	return cfg, nil
}

// workspaceOf returns the workspace of a config file: the directory that
// holds its .agent directory, else the file's own directory.
func workspaceOf(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == filepath.Dir(FileName) {
		return filepath.Dir(dir)
	}
	return dir
}

// Validation is everything `config validate` says about a file.
type Validation struct {
	// Config holds the values as read: the defaults for absent keys and for
	// keys that could not be read. Never use it as a configuration when
	// Problems is not empty.
	Config Config
	// Read is false when the file is not YAML: nothing in it was read.
	Read bool
	// Problems are the errors: syntax, unknown keys, wrong types, values
	// out of range. A value check whose keys could not be read is left out
	// (see NotChecked) rather than run on the defaults.
	Problems []Problem
	// Warnings are valid settings worth knowing about (an unknown model:
	// token counts are estimated).
	Warnings []Problem
	// NotChecked maps a check group (see [Group]) whose values could not be
	// read to the reason; those checks were not run.
	NotChecked map[string]string
	// Lines maps each dotted key present in the file to its line.
	Lines map[string]int
}

// Groups lists the check groups in report order: each is judged by one rule
// over the keys under its prefixes.
var Groups = []struct {
	Name     string
	Prefixes []string
}{
	{"budget", []string{"context.budget.total_tokens", "context.budget.system_prompt_reserve", "context.budget.response_reserve"}},
	{"categories", []string{"context.budget.categories"}},
	{"source_priority", []string{"context.source_priority"}},
	{"ranking", []string{"context.ranking"}},
	{"chunking", []string{"context.chunking"}},
	{"dedup", []string{"context.dedup"}},
	{"tokenizer", []string{"context.tokenizer"}},
}

// Group returns the check group of a dotted key, or "" when no rule reads it.
func Group(key string) string {
	for _, g := range Groups {
		for _, p := range g.Prefixes {
			if related(key, p) {
				return g.Name
			}
		}
	}
	return ""
}

// related reports whether one dotted key is the other or lies under it.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

// Inspect reads config text as far as it can and checks every value it read.
func Inspect(data []byte) Validation {
	cfg, lines, probs, read := decode(data)
	v := Validation{Config: cfg, Read: read, Problems: probs, NotChecked: map[string]string{}, Lines: lines}
	if !read {
		for _, g := range Groups {
			v.NotChecked[g.Name] = "the file is not valid YAML, so nothing in it was read"
		}
		return v
	}
	// A value that could not be read, or a key that looks like a misspelling
	// of one, leaves its group unchecked: checking the default in its place
	// would report a pass the file does not earn.
	for _, p := range probs {
		if blocker, why := blocks(p); blocker != "" {
			v.leaveUnchecked(blocker, why)
		}
	}
	for _, p := range cfg.check() {
		if _, skip := v.NotChecked[Group(p.Key)]; skip {
			continue
		}
		if p.Line == 0 {
			p.Line = lines[p.Key]
		}
		v.Problems = append(v.Problems, p)
	}
	if _, skip := v.NotChecked["tokenizer"]; !skip {
		v.Warnings = cfg.warnings(lines)
	}
	return v
}

// blocks returns the key whose groups a problem leaves unchecked, and
// why ("" for a problem that blocks nothing).
func blocks(p Problem) (blocker, why string) {
	switch {
	case p.Kind == KindType:
		return p.Key, fmt.Sprintf("%s%s could not be read", p.Key, lineSuffix(p.Line))
	case p.Kind == KindKey && p.Meant != "" && lastKey(p.Meant) == lastKey(p.Key):
		// A key in the wrong place (budget: at the top level).
		return p.Meant, fmt.Sprintf("%s%s is not under context:, so its values were not read", p.Key, lineSuffix(p.Line))
	case p.Kind == KindKey && p.Meant != "":
		return p.Meant, fmt.Sprintf("%s%s looks like a misspelling of %s", p.Key, lineSuffix(p.Line), lastKey(p.Meant))
	}
	return "", ""
}

// leaveUnchecked marks each group related to blocker as not checked, for
// the first reason given.
func (v *Validation) leaveUnchecked(blocker, why string) {
	for _, g := range Groups {
		for _, pre := range g.Prefixes {
			if _, done := v.NotChecked[g.Name]; !done && related(blocker, pre) {
				v.NotChecked[g.Name] = why
			}
		}
	}
}

func lineSuffix(line int) string {
	if line > 0 {
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}

func lastKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// Validate checks every value and returns nil or an *Error.
func (c Config) Validate() error {
	if probs := c.check(); len(probs) > 0 {
		return &Error{Problems: probs}
	}
	return nil
}

// Allocation resolves the budget of c (it is valid after Validate).
func (c Config) Allocation() (budget.Allocation, error) {
	b := c.Context.Budget
	return budget.Allocate(int64(b.TotalTokens), int64(b.SystemPromptReserve), int64(b.ResponseReserve), b.Categories)
}

// Available is the number of tokens left for content.
func (c Config) Available() int {
	b := c.Context.Budget
	return b.TotalTokens - b.SystemPromptReserve - b.ResponseReserve
}

// Kinds of [Problem].
const (
	KindSyntax = "syntax" // the file is not valid YAML: nothing was read
	KindKey    = "key"    // a key the configuration does not have
	KindType   = "type"   // a value of the wrong type: the key keeps its default
	KindValue  = "value"  // a value out of its range
)

// Problem is one thing wrong with a configuration.
type Problem struct {
	Kind  string // KindSyntax, KindKey, KindType or KindValue
	Key   string // dotted key, e.g. "context.budget.total_tokens"
	Meant string // for an unknown key: the key it probably meant, if any
	Line  int    // 1-based line in the file, 0 when unknown
	Value string
	Rule  string
	Fix   string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Key)
	if p.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", p.Line)
	}
	if p.Value != "" {
		fmt.Fprintf(&b, " = %s", p.Value)
	}
	fmt.Fprintf(&b, ": %s", p.Rule)
	if p.Fix != "" {
		fmt.Fprintf(&b, ". Fix: %s", p.Fix)
	}
	return b.String()
}

// Error is an invalid configuration (ACODE-CFG-001 at the RPC boundary).
type Error struct {
	File     string
	Problems []Problem
	// Decoded holds the values as read, when the file decoded but some
	// values are invalid (for reports; never use it as a configuration).
	Decoded *Config
}

// Failure implements [errcode.Failure]: ACODE-CFG-001 with the whole
// message and no data.
func (e *Error) Failure() (errcode.Code, string, map[string]any) {
	return errcode.InvalidConfig, e.Error(), nil
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config: invalid configuration")
	if e.File != "" {
		b.WriteString(" in " + e.File)
	}
	for i, p := range e.Problems {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

func copyMap(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
