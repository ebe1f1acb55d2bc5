package secreteval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
)

// Case is one file of the corpus with the secrets planted in it.
type Case struct {
	Family string // family ID, or "shape:<name>" for hostile shapes
	Form   string // the placement (file type and assignment form)
	Path   string // a file name of the form's type
	Text   string
	// Secrets must all be gone from the redacted text.
	Secrets []string
}

// names are the spellings of a variable name in each language's style.
type names struct{ upper, snake, camel, pascal, kebab string }

func spell(env string) names {
	parts := strings.Split(strings.ToLower(env), "_")
	camel := parts[0]
	pascal := ""
	for i, p := range parts {
		t := strings.ToUpper(p[:1]) + p[1:]
		if i > 0 {
			camel += t
		}
		pascal += t
	}
	return names{upper: env, snake: strings.ToLower(env), camel: camel, pascal: pascal, kebab: strings.Join(parts, "-")}
}

// form plants value under the name n in a file of some type.
type form struct {
	name, path string
	// keyedOK is false for forms where only a provider format can be
	// recognised (the name carries no secret word).
	keyedOK bool
	plant   func(n names, v string) string
}

// forms are the assignment forms per file type.
var forms = []form{
	{"go-const", "config.go", true, func(n names, v string) string {
		return "package config\n\n// Defaults for local runs.\nconst " + n.camel + " = \"" + v + "\"\n"
	}},
	{"go-typed-var", "settings.go", true, func(n names, v string) string {
		return "package settings\n\nvar " + n.camel + " string = \"" + v + "\"\n"
	}},
	{"go-short-decl", "main.go", true, func(n names, v string) string {
		return "package main\n\nfunc main() {\n\t" + n.camel + " := \"" + v + "\"\n\t_ = " + n.camel + "\n}\n"
	}},
	{"go-struct-field", "client.go", true, func(n names, v string) string {
		return "package client\n\nvar cfg = Config{\n\tURL:    \"https://api.example.com\",\n\t" + n.pascal + ": \"" + v + "\",\n}\n"
	}},
	{"go-bytes", "sign.go", true, func(n names, v string) string {
		return "package sign\n\nvar " + n.camel + " = []byte(\"" + v + "\")\n"
	}},
	{"ts-typed-const", "config.ts", true, func(n names, v string) string {
		return "export const " + n.camel + ": string = \"" + v + "\";\n"
	}},
	{"ts-object", "client.ts", true, func(n names, v string) string {
		return "const client = new Client({\n  baseURL: 'https://api.example.com',\n  " + n.camel + ": '" + v + "',\n});\n"
	}},
	{"js-env-assign", "setup.js", true, func(n names, v string) string {
		return "process.env." + n.upper + " = `" + v + "`;\n"
	}},
	{"python-assign", "settings.py", true, func(n names, v string) string {
		return "import os\n\n" + n.upper + " = '" + v + "'\n"
	}},
	{"python-annotated", "conf.py", true, func(n names, v string) string {
		return "class Settings:\n    " + n.snake + ": str = \"" + v + "\"\n"
	}},
	{"python-environ", "boot.py", true, func(n names, v string) string {
		return "import os\nos.environ[\"" + n.upper + "\"] = \"" + v + "\"\n"
	}},
	{"java-field", "Config.java", true, func(n names, v string) string {
		return "public class Config {\n    private static final String " + n.upper + " = \"" + v + "\";\n}\n"
	}},
	{"java-set-property", "Boot.java", true, func(n names, v string) string {
		return "class Boot {\n  static { System.setProperty(\"" + n.upper + "\", \"" + v + "\"); }\n}\n"
	}},
	{"kotlin-val", "Config.kt", true, func(n names, v string) string {
		return "object Config {\n    val " + n.camel + ": String = \"" + v + "\"\n}\n"
	}},
	{"kotlin-nullable", "Secrets.kt", true, func(n names, v string) string {
		return "var " + n.camel + ": String? = \"" + v + "\"\n"
	}},
	{"csharp-field", "Settings.cs", true, func(n names, v string) string {
		return "public static class Settings {\n    public const string " + n.pascal + " = \"" + v + "\";\n}\n"
	}},
	{"rust-let", "main.rs", true, func(n names, v string) string {
		return "fn main() {\n    let " + n.snake + ": &str = \"" + v + "\";\n}\n"
	}},
	{"ruby-env", "boot.rb", true, func(n names, v string) string {
		return "ENV['" + n.upper + "'] = '" + v + "'\n"
	}},
	{"php-assign", "config.php", true, func(n names, v string) string {
		return "<?php\n$" + n.camel + " = \"" + v + "\";\n"
	}},
	{"php-append", "init.php", true, func(n names, v string) string {
		return "<?php\n$" + n.camel + " = '';\n$" + n.camel + " .= \"" + v + "\";\n"
	}},
	{"php-array", "app.php", true, func(n names, v string) string {
		return "<?php\nreturn [\n    '" + n.snake + "' => '" + v + "',\n];\n"
	}},
	{"php-define", "wp-config.php", true, func(n names, v string) string {
		return "<?php\ndefine('" + n.upper + "', '" + v + "');\n"
	}},
	{"makefile-conditional", "Makefile", true, func(n names, v string) string {
		return n.upper + " ?= " + v + "\n\nall:\n\t./deploy --token $(" + n.upper + ")\n"
	}},
	{"makefile-posix", "GNUmakefile", true, func(n names, v string) string {
		return n.upper + " ::= " + v + "\n"
	}},
	{"yaml", "config.yaml", true, func(n names, v string) string {
		return "service:\n  name: billing\n  " + n.snake + ": " + v + "\n"
	}},
	{"yaml-quoted", "values.yml", true, func(n names, v string) string {
		return "env:\n  " + n.upper + ": \"" + v + "\"\n"
	}},
	{"json", "settings.json", true, func(n names, v string) string {
		return "{\n  \"name\": \"billing\",\n  \"" + n.camel + "\": \"" + v + "\"\n}\n"
	}},
	{"xml-element", "app.xml", true, func(n names, v string) string {
		return "<config>\n  <" + n.camel + ">" + v + "</" + n.camel + ">\n</config>\n"
	}},
	{"xml-add-key", "Web.config", true, func(n names, v string) string {
		return "<appSettings>\n  <add key=\"" + n.pascal + "\" value=\"" + v + "\" />\n</appSettings>\n"
	}},
	{"ini", "app.ini", true, func(n names, v string) string {
		return "[auth]\n" + n.snake + " = " + v + "\n"
	}},
	{"toml", "config.toml", true, func(n names, v string) string {
		return "[service]\n" + n.snake + " = \"" + v + "\"\n"
	}},
	{"properties", "application.properties", true, func(n names, v string) string {
		return "app." + strings.ReplaceAll(n.snake, "_", ".") + "=" + v + "\n"
	}},
	{"dotenv-other-name", "local.settings", true, func(n names, v string) string {
		return "# local overrides\n" + n.upper + "=" + v + "\n"
	}},
	{"shell-export", "deploy.sh", true, func(n names, v string) string {
		return "#!/bin/sh\nexport " + n.upper + "=\"" + v + "\"\n./deploy\n"
	}},
	{"shell-inline", "run.sh", true, func(n names, v string) string {
		return n.upper + "='" + v + "' ./bin/server --port 8080\n"
	}},
	{"dockerfile-env", "Dockerfile", true, func(n names, v string) string {
		return "FROM alpine:3.20\nENV " + n.upper + "=" + v + "\n"
	}},
	{"dockerfile-arg", "build.Dockerfile", true, func(n names, v string) string {
		return "FROM golang:1.23\nARG " + n.upper + "=\"" + v + "\"\n"
	}},
	{"k8s-env", "deployment.yaml", true, func(n names, v string) string {
		return "spec:\n  containers:\n    - name: app\n      env:\n        - name: " + n.upper + "\n          value: \"" + v + "\"\n"
	}},
	{"k8s-env-flow", "pod.yaml", true, func(n names, v string) string {
		return "env: [{name: " + n.upper + ", value: " + v + "}]\n"
	}},
	{"terraform", "main.tf", true, func(n names, v string) string {
		return "provider \"acme\" {\n  " + n.snake + " = \"" + v + "\"\n}\n"
	}},
	{"http-header", "request.http", true, func(n names, v string) string {
		return "GET https://api.example.com/v1/items\nX-" + strings.ReplaceAll(n.pascal, "_", "-") + ": " + v + "\n"
	}},
	{"github-actions", "ci.yml", true, func(n names, v string) string {
		return "jobs:\n  build:\n    env:\n      " + n.upper + ": " + v + "\n"
	}},
	// Forms where only a provider format tells: neutral names, prose, logs.
	{"go-neutral", "fixture.go", false, func(n names, v string) string {
		return "package fixture\n\nvar sample = map[string]string{\"value\": \"" + v + "\"}\n"
	}},
	{"markdown-prose", "NOTES.md", false, func(n names, v string) string {
		return "# Setup\n\nI used `" + v + "` for the staging account.\n"
	}},
	{"log-line", "server.log", false, func(n names, v string) string {
		return "2026-01-02T03:04:05Z INFO request accepted credential=" + v + " user=42\n"
	}},
	{"shell-comment", "notes.sh", false, func(n names, v string) string {
		return "# old: " + v + "\necho done\n"
	}},
}

// Form names the forms for reports.
func Forms() []string {
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = f.name
	}
	return out
}

// Corpus generates the corpus from seed: every family in every form that
// can carry it (keyed and password families only where a name is
// assigned), plus the hostile shapes.
func Corpus(seed uint64) []Case {
	g := gen{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	var out []Case
	for _, f := range Families {
		for _, fm := range forms {
			if !fm.keyedOK && f.Kind != Token {
				continue
			}
			secret := f.Gen(g)
			planted := secret
			if f.Wrap != nil {
				planted = f.Wrap(secret)
			}
			out = append(out, Case{Family: f.ID, Form: fm.name, Path: fm.path, Text: fm.plant(spell(f.Env), planted), Secrets: []string{secret}})
		}
	}
	out = append(out, shapes(g)...)
	return out
}

// Leaked returns the secrets (or 16-character pieces of them) that are
// still in out.
func Leaked(c Case, out string) []string {
	var leaked []string
	for _, s := range c.Secrets {
		if strings.Contains(out, s) {
			leaked = append(leaked, s)
			continue
		}
		if len(s) >= 24 {
			for i := 0; i+16 <= len(s); i += 4 {
				if strings.Contains(out, s[i:i+16]) {
					leaked = append(leaked, s)
					break
				}
			}
		}
	}
	return leaked
}

// isASCIIWord helps shapes build names.
func isASCIIWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) < 0
}

var _ = fmt.Sprint
var _ = isASCIIWord
