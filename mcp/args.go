package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/session"
)

// decodeArgs decodes a tool call's arguments into dst, checked against the
// tool's input schema first so that every mistake is told in plain words
// naming the argument ("budget must be a number of tokens such as 8000 or
// "8k", not a boolean"), never in a validator's or a decoder's terms. A
// null argument counts as not given. Values are never quoted beyond a
// short prefix.
func decodeArgs(raw json.RawMessage, dst any, schema *jsonschema.Schema) error {
	args, err := argsObject(raw)
	if err != nil {
		return err
	}
	if err := checkArgs(args, schema); err != nil {
		return err
	}
	clean, err := json.Marshal(args)
	if err != nil {
		return invalidParams("", "the arguments cannot be read")
	}
	if err := json.Unmarshal(clean, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				field = "arguments"
			}
			return invalidParams(field, fmt.Sprintf("must be %s, not %s", article(goKind(te.Type.Kind().String())), article(te.Value)))
		}
		return invalidParams("", err.Error())
	}
	return nil
}

// argsObject reads the arguments as a JSON object of named values; none
// (or null) is an empty object, and arguments given as null are left out
// (not given).
func argsObject(raw json.RawMessage) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return nil, invalidParams("", "the arguments must be a JSON object of named arguments")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, invalidParams("", "the arguments are not valid JSON")
	}
	for name, v := range args {
		if t := bytes.TrimSpace(v); len(t) == 0 || string(t) == "null" {
			delete(args, name) // null: not given
		}
	}
	return args, nil
}

// checkArgs checks args against the schema: every required argument
// given, no argument the tool does not have, each value of its
// property's type and range (checkValue). Arguments are checked in name
// order, so the first error named does not depend on map order.
func checkArgs(args map[string]json.RawMessage, schema *jsonschema.Schema) error {
	for _, name := range schema.Required {
		if _, ok := args[name]; !ok {
			why := "is required"
			if d := schema.Properties[name].Description; d != "" {
				why += ": " + strings.TrimSuffix(d, ".")
			}
			return invalidParams(name, why)
		}
	}
	keys := make([]string, 0, len(args))
	for name := range args {
		keys = append(keys, name)
	}
	sort.Strings(keys)
	for _, name := range keys {
		prop, ok := schema.Properties[name]
		if !ok {
			names := make([]string, 0, len(schema.Properties))
			for n := range schema.Properties {
				names = append(names, n)
			}
			sort.Strings(names)
			return invalidParams(session.Short(name), "is not an argument of this tool; its arguments are "+strings.Join(names, ", "))
		}
		if err := checkValue(args[name], prop); err != nil {
			return invalidParams(name, err.Error())
		}
	}
	return nil
}

// checkValue checks one argument's JSON against its property: its type,
// an enum, a minimum; token numbers (integer or string) with
// config.DecodeTokens.
func checkValue(v json.RawMessage, prop *jsonschema.Schema) error {
	kind := jsonKind(v)
	types := prop.Types
	if prop.Type != "" {
		types = []string{prop.Type}
	}
	if len(types) == 0 {
		return nil
	}
	if slices.Contains(types, "integer") && slices.Contains(types, "string") {
		return checkTokens(v, prop)
	}
	if !kindAllowed(kind, types) {
		return fmt.Errorf("must be %s, not %s", article(strings.Join(types, " or ")), article(kind))
	}
	if kind == "integer" || kind == "number" {
		return checkRange(v, prop)
	}
	if len(prop.Enum) > 0 && kind == "string" {
		return checkEnum(v, prop)
	}
	return nil
}

// checkTokens checks a value of a property that takes a token count as
// an integer or a string (config.DecodeTokens) against its minimum.
func checkTokens(v json.RawMessage, prop *jsonschema.Schema) error {
	n, err := config.DecodeTokens(v)
	if err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "is "))
	}
	if prop.Minimum != nil && float64(n) < *prop.Minimum {
		return fmt.Errorf("must be at least %g, not %d", *prop.Minimum, n)
	}
	return nil
}

// kindAllowed reports whether a JSON value of kind is one of types (an
// integer is also a number).
func kindAllowed(kind string, types []string) bool {
	for _, t := range types {
		if t == kind || t == "number" && kind == "integer" {
			return true
		}
	}
	return false
}

// checkRange checks a numeric value against the property's minimum and
// maximum.
func checkRange(v json.RawMessage, prop *jsonschema.Schema) error {
	var f float64
	_ = json.Unmarshal(v, &f)
	if prop.Minimum != nil && f < *prop.Minimum {
		return fmt.Errorf("must be at least %g, not %g", *prop.Minimum, f)
	}
	if prop.Maximum != nil && f > *prop.Maximum {
		return fmt.Errorf("must be at most %g, not %g", *prop.Maximum, f)
	}
	return nil
}

// checkEnum checks a string value against the property's enumeration.
func checkEnum(v json.RawMessage, prop *jsonschema.Schema) error {
	var sv string
	_ = json.Unmarshal(v, &sv)
	var allowed []string
	for _, e := range prop.Enum {
		if e == sv {
			return nil
		}
		allowed = append(allowed, fmt.Sprint(e))
	}
	return fmt.Errorf("must be one of %s, not %s", strings.Join(allowed, ", "), session.Short(sv))
}

// jsonKind names the JSON type of a value as a schema does.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0:
		return "nothing"
	case v[0] == '"':
		return "string"
	case v[0] == '{':
		return "object"
	case v[0] == '[':
		return "array"
	case v[0] == 't' || v[0] == 'f':
		return "boolean"
	case v[0] == 'n':
		return "null"
	}
	var f float64
	if json.Unmarshal(v, &f) == nil && f == math.Trunc(f) && !bytes.ContainsAny(v, ".eE") {
		return "integer"
	}
	return "number"
}

// goKind names a Go kind as a JSON type.
func goKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int") || strings.HasPrefix(k, "uint"):
		return "integer"
	case strings.HasPrefix(k, "float"):
		return "number"
	case k == "bool":
		return "boolean"
	case k == "slice":
		return "array"
	case k == "struct" || k == "map":
		return "object"
	}
	return k
}

// article puts "a" or "an" before a type's name.
func article(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + s
	}
	return "a " + s
}
