// Package config loads, validates and overrides the acode-lsp configuration
// (.agent/config.yml, DESIGN "Configuration").
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
	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// FileName is the config file's path relative to the workspace root.
const FileName = ".agent/config.yml"

// FilePath returns the config file of a workspace root.
func FilePath(root string) string { return filepath.Join(root, filepath.FromSlash(FileName)) }

// Config is the whole configuration file.
type Config struct {
	Context Context `yaml:"context"`
}

// Context holds every setting; its YAML shape is the one of DESIGN.md.
type Context struct {
	Budget         Budget         `yaml:"budget"`
	SourcePriority map[string]int `yaml:"source_priority"`
	Ranking        Ranking        `yaml:"ranking"`
	Chunking       Chunking       `yaml:"chunking"`
	Dedup          Dedup          `yaml:"dedup"`
	Tokenizer      Tokenizer      `yaml:"tokenizer"`
	Exclude        []string       `yaml:"exclude"`
}

// Budget is context.budget.
type Budget struct {
	TotalTokens         int            `yaml:"total_tokens"`
	SystemPromptReserve int            `yaml:"system_prompt_reserve"`
	ResponseReserve     int            `yaml:"response_reserve"`
	Categories          map[string]int `yaml:"categories"`
	Redistribute        bool           `yaml:"redistribute"`
}

// Ranking is context.ranking: the weights of DESIGN rule 5.
type Ranking struct {
	RelevanceWeight float64 `yaml:"relevance_weight"`
	RecencyWeight   float64 `yaml:"recency_weight"`
	SourceWeight    float64 `yaml:"source_weight"`
}

// Chunking is context.chunking (DESIGN rule 4).
type Chunking struct {
	MaxChunkTokens   int  `yaml:"max_chunk_tokens"`
	MinChunkTokens   int  `yaml:"min_chunk_tokens"`
	PreferStructural bool `yaml:"prefer_structural"`
}

// Dedup is context.dedup (DESIGN rule 6).
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
	// File is a Hugging Face tokenizer.json counted exactly (DESIGN rule
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
		},
		SourcePriority: map[string]int{budget.ToolResults: 100, budget.OpenFiles: 80, budget.SearchResults: 60, budget.References: 40},
		Ranking:        Ranking{RelevanceWeight: 0.5, RecencyWeight: 0.3, SourceWeight: 0.2},
		Chunking:       Chunking{MaxChunkTokens: 2000, MinChunkTokens: 100, PreferStructural: true},
		Dedup:          Dedup{Enabled: true, OverlapThreshold: 0.8, MergeOverlapping: true},
		Tokenizer:      Tokenizer{Model: "gpt-4o", CacheSize: 10000},
		Exclude:        []string{},
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
	data, err := safeio.ReadFile(context.Background(), path, MaxFileSize, safeio.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		fix := "check the file's permissions"
		switch {
		case errors.Is(err, safeio.ErrNotRegular):
			fix = "replace it with a regular YAML file"
		case errors.Is(err, safeio.ErrTooLarge):
			fix = "a config file is a few hundred bytes; check that this is the right file"
		}
		return Default(), &Error{File: path, Problems: []Problem{{Key: "(file)", Rule: "cannot be read: " + readErr(err), Fix: fix}}}
	}
	return Parse(data, path)
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
	cfg, probs := decode(data)
	if f := cfg.Context.Tokenizer.File; f != "" && name != "" && !filepath.IsAbs(f) {
		cfg.Context.Tokenizer.File = filepath.Join(filepath.Dir(name), f)
	}
	decoded := len(probs) == 0
	if decoded {
		probs = cfg.check()
	}
	if len(probs) > 0 {
		e := &Error{File: name, Problems: probs}
		if decoded {
			e.Decoded = &cfg
		}
		return Default(), e
	}
	return cfg, nil
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

// Problem is one thing wrong with a configuration.
type Problem struct {
	Key   string // dotted key, e.g. "context.budget.total_tokens"
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
