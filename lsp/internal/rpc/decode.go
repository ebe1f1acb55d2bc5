package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
)

// DecodeParams decodes the params of a message into v, which must point to
// a struct. Missing params, params that are not an object and a value of
// the wrong type become a -32602 error whose message names the field by
// its JSON path ("sources[1].uri"); a [FieldError] returned by a field's
// UnmarshalJSON names its own field.
func DecodeParams(raw json.RawMessage, v any) *Error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return NewInvalidParams("params", "missing")
	}
	if raw[0] != '{' {
		return NewInvalidParams("params", "must be an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return decodeError(err, FieldPath(raw, reflect.TypeOf(v)))
	}
	return nil
}

// decodeError describes a JSON decoding error as a -32602 error. path is
// the JSON path of the value that does not decode ("" when unknown).
func decodeError(err error, path string) *Error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return NewInvalidParams(fe.Field, "%s", fe.Msg)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := path
		if field == "" {
			field = te.Field
		}
		if field == "" {
			field = "params"
		}
		return NewInvalidParams(field, "expected %s, got %s", jsonKind(te.Type.Kind().String()), te.Value)
	}
	if path == "" {
		path = "params"
	}
	var pe *time.ParseError
	if errors.As(err, &pe) {
		return NewInvalidParams(path, "%q is not an RFC 3339 time (e.g. 2026-11-22T10:00:00Z)", pe.Value)
	}
	return NewInvalidParams(path, "%v", err)
}

// FieldPath returns the JSON path ("sources[0].timestamp") of the part of
// raw that does not decode into a value of type t, or "" when no single
// part is to blame. encoding/json names a field without the indices of the
// arrays on its way ("sources.timestamp"), and not at all when the field's
// own UnmarshalJSON fails (a malformed time), so the path is found here by
// decoding the parts of raw one by one, following t; when no part of a
// value is to blame (a type that decodes itself), the value is. It only
// runs for params that failed to decode; its cost is bounded by the depth
// of t.
func FieldPath(raw json.RawMessage, t reflect.Type) string {
	return locate(raw, t, "")
}

// locate is FieldPath below path.
func locate(raw json.RawMessage, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if path != "" && json.Unmarshal(raw, reflect.New(t).Interface()) == nil {
		return ""
	}
	p := path
	switch t.Kind() {
	case reflect.Struct:
		p = locateStruct(raw, t, path)
	case reflect.Slice, reflect.Array:
		p = locateList(raw, t, path)
	case reflect.Map:
		p = locateMap(raw, t, path)
	}
	if p == "" {
		return path
	}
	return p
}

// locateStruct looks for the failing member of an object decoded into
// struct t, in name order; "" when none fails by itself.
func locateStruct(raw json.RawMessage, t reflect.Type, path string) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return path
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if ft, ok := jsonField(t, name); ok {
			if p := locate(fields[name], ft, joinPath(path, name)); p != "" {
				return p
			}
		}
	}
	return ""
}

// locateList looks for the failing element of an array.
func locateList(raw json.RawMessage, t reflect.Type, path string) string {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return path
	}
	for i, el := range elems {
		if p := locate(el, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
			return p
		}
	}
	return ""
}

// locateMap looks for the failing entry of an object decoded into a map
// with string keys, in key order.
func locateMap(raw json.RawMessage, t reflect.Type, path string) string {
	var entries map[string]json.RawMessage
	if t.Key().Kind() != reflect.String || json.Unmarshal(raw, &entries) != nil {
		return path
	}
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if p := locate(entries[name], t.Elem(), joinPath(path, name)); p != "" {
			return p
		}
	}
	return ""
}

// jsonField returns the type of the field of struct type t that
// encoding/json decodes the JSON key name into, looking into embedded
// structs as encoding/json does.
func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	var fold reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				if ft, ok := jsonField(inner, name); ok {
					return ft, true
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		key := tag
		if key == "" {
			key = f.Name
		}
		if key == name {
			return f.Type, true
		}
		if fold == nil && strings.EqualFold(key, name) {
			fold = f.Type
		}
	}
	return fold, fold != nil
}

// joinPath appends a key to a JSON path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonKind names a Go kind the way a JSON user would.
func jsonKind(kind string) string {
	switch kind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return kind
}

// FieldError is a params value that decodes but is not acceptable. Returned
// by a field's UnmarshalJSON, it becomes the -32602 error of
// [DecodeParams], naming Field; notification handlers return it to have
// the field logged.
type FieldError struct {
	Field string // JSON path of the value ("contentChanges[2].range")
	Msg   string // what is wrong with it
}

// Error implements error.
func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// Required returns a -32602 error naming field when ok is false, else nil.
func Required(ok bool, field string) *Error {
	if ok {
		return nil
	}
	return NewInvalidParams(field, "required")
}
