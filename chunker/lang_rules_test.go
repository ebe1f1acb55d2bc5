package chunker

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestDeclRulesNameGrammarTypes: every node type and name field in the
// classifiers' tables exists in a grammar that uses the table, so a typo
// cannot silently leave a declaration unclassified.
func TestDeclRulesNameGrammarTypes(t *testing.T) {
	tables := []struct {
		name  string
		rules map[string]declRule
		langs []string
	}{
		{"jsDecls", jsDecls, []string{"javascript", "typescript", "tsx"}},
		{"cDecls", cDecls, []string{"c", "cpp"}},
		{"csDecls", csDecls, []string{"csharp"}},
		{"rustDecls", rustDecls, []string{"rust"}},
	}
	for _, tb := range tables {
		t.Run(tb.name, func(t *testing.T) {
			types, fields := map[string]bool{"ERROR": true}, map[string]bool{}
			for _, l := range tb.langs {
				g := grammars[l]
				if g == nil {
					t.Fatalf("no grammar %q", l)
				}
				for s := uint32(0); s < g.lang.SymbolCount(); s++ {
					if g.lang.SymbolType(sitter.Symbol(s)) == sitter.SymbolTypeRegular {
						types[g.lang.SymbolName(sitter.Symbol(s))] = true
					}
				}
				for i := 1; ; i++ {
					f := g.lang.FieldName(i)
					if f == "" {
						break
					}
					fields[f] = true
				}
			}
			if len(types) < 50 || !fields["name"] {
				t.Fatalf("read %d node types and %d fields: the grammar listing is broken", len(types), len(fields))
			}
			for typ, r := range tb.rules {
				if !types[typ] {
					t.Errorf("%s: node type %q is not in %v", tb.name, typ, tb.langs)
				}
				if r.name != "" && !fields[r.name] {
					t.Errorf("%s: %q: field %q is not in %v", tb.name, typ, r.name, tb.langs)
				}
			}
		})
	}
}
