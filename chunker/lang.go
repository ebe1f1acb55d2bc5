package chunker

import (
	"path/filepath"
	"strings"
)

// languages maps a lower-case file extension (or base name) to a language
// id that has a grammar.
var languages = map[string]string{
	".go":       "go",
	".py":       "python",
	".pyi":      "python",
	".pyw":      "python",
	".js":       "javascript",
	".mjs":      "javascript",
	".cjs":      "javascript",
	".jsx":      "javascript",
	".ts":       "typescript",
	".mts":      "typescript",
	".cts":      "typescript",
	".tsx":      "tsx",
	".java":     "java",
	".rs":       "rust",
	".c":        "c",
	".h":        "c",
	".cc":       "cpp",
	".cpp":      "cpp",
	".cxx":      "cpp",
	".c++":      "cpp",
	".hh":       "cpp",
	".hpp":      "cpp",
	".hxx":      "cpp",
	".h++":      "cpp",
	".ipp":      "cpp",
	".inl":      "cpp",
	".cs":       "csharp",
	".md":       "markdown",
	".mdx":      "markdown",
	".markdown": "markdown",
}

// fences maps a lower-case extension or base name to a markdown fence info
// string for languages without a grammar.
var fences = map[string]string{
	".yaml": "yaml", ".yml": "yaml", ".json": "json", ".jsonc": "jsonc", ".json5": "json5",
	".toml": "toml", ".ini": "ini", ".cfg": "ini", ".conf": "conf", ".properties": "properties",
	".xml": "xml", ".html": "html", ".htm": "html", ".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
	".sh": "sh", ".bash": "bash", ".zsh": "zsh", ".fish": "fish", ".ps1": "powershell", ".bat": "bat", ".cmd": "bat",
	".sql": "sql", ".graphql": "graphql", ".gql": "graphql", ".proto": "protobuf",
	".rb": "ruby", ".php": "php", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift", ".scala": "scala",
	".lua": "lua", ".pl": "perl", ".r": "r", ".dart": "dart", ".ex": "elixir", ".exs": "elixir",
	".erl": "erlang", ".hs": "haskell", ".ml": "ocaml", ".clj": "clojure", ".el": "elisp", ".vim": "vim",
	".groovy": "groovy", ".gradle": "groovy", ".tf": "hcl", ".hcl": "hcl", ".vue": "vue", ".svelte": "svelte",
	".zig": "zig", ".nim": "nim", ".fs": "fsharp", ".vb": "vb", ".m": "objectivec", ".mm": "objectivec",
	".diff": "diff", ".patch": "diff", ".csv": "csv", ".txt": "text", ".rst": "rst", ".tex": "latex",
	".dockerfile": "dockerfile", "dockerfile": "dockerfile", "makefile": "makefile", ".mk": "makefile",
	"gnumakefile": "makefile", "cmakelists.txt": "cmake", ".cmake": "cmake", "go.mod": "go-mod", "go.sum": "text",
	".gitignore": "gitignore",
}

// Language returns the language id for a path ("go", "python",
// "javascript", "typescript", "tsx", "java", "rust", "c", "cpp", "csharp",
// "markdown") or "" when no grammar handles it. The id is also the fence
// info string of the language.
func Language(path string) string {
	return languages[strings.ToLower(filepath.Ext(path))]
}

// FenceLanguage returns the markdown fence info string for a path, also for
// languages without a grammar ("yaml", "json", "sh", "toml", "sql", "html",
// "css", ...), or "" when unknown.
func FenceLanguage(path string) string {
	if l := Language(path); l != "" {
		return l
	}
	base := strings.ToLower(filepath.Base(path))
	if f, ok := fences[base]; ok {
		return f
	}
	return fences[strings.ToLower(filepath.Ext(path))]
}
