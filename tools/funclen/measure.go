package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Func is one function or method with a body: where it is and its two
// measures.
type Func struct {
	// Key names it as "path/to/file.go:Name" or "path/to/file.go:Type.Name",
	// the path relative to the root with forward slashes.
	Key string
	// Lines counts the lines from `func` to the closing brace.
	Lines int
	// Cyclo is its cyclomatic complexity: 1, plus one per if, for, range,
	// non-default case, non-default select case, && and ||, counting the
	// function literals inside it.
	Cyclo int
}

// Limits are the most lines and the highest complexity a function may have.
type Limits struct{ Lines, Cyclo int }

// Over reports whether f exceeds either limit.
func (l Limits) Over(f Func) bool { return f.Lines > l.Lines || f.Cyclo > l.Cyclo }

// Measure parses every non-test, non-generated Go file under root (skipping
// testdata, node_modules and hidden directories) and measures its
// functions, sorted by key.
func Measure(root string) ([]Func, error) {
	var out []Func
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("funclen: %w", err)
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, measureFile(fset, f, filepath.ToSlash(rel))...)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, err
}

// Lines counts the lines of the Go files under root (as Measure walks
// them, generated files left out): the tests' and the rest's.
func Lines(root string) (test, code int, err error) {
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if f, err := parser.ParseFile(token.NewFileSet(), p, data, parser.ParseComments|parser.PackageClauseOnly); err == nil && ast.IsGenerated(f) {
			return nil
		}
		n := bytes.Count(data, []byte("\n"))
		if strings.HasSuffix(p, "_test.go") {
			test += n
		} else {
			code += n
		}
		return nil
	})
	return test, code, err
}

func skipDir(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")
}

func measureFile(fset *token.FileSet, f *ast.File, rel string) []Func {
	var out []Func
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		out = append(out, Func{Key: rel + ":" + funcName(fn), Lines: lines, Cyclo: cyclo(fn)})
	}
	return out
}

// funcName is Name for a function and Type.Name for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		default:
			return fn.Name.Name
		}
	}
}

func cyclo(n ast.Node) int {
	c := 1
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// Allowed is the allow-list: the functions that were over a limit when it
// was written, each with the measures it may not exceed.
type Allowed map[string]Func

// ReadAllowed reads an allow-list: one "lines cyclo key" line per
// function; blank lines and lines starting with # are skipped.
func ReadAllowed(path string) (Allowed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("funclen: %w", err)
	}
	defer f.Close()
	a := Allowed{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 3 {
			return nil, fmt.Errorf("funclen: %s:%d: want \"lines cyclo key\", got %q", path, n, line)
		}
		lines, err1 := strconv.Atoi(fields[0])
		cyc, err2 := strconv.Atoi(fields[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("funclen: %s:%d: lines and cyclo must be numbers, got %q", path, n, line)
		}
		a[fields[2]] = Func{Key: fields[2], Lines: lines, Cyclo: cyc}
	}
	return a, sc.Err()
}

// Violations lists the functions over a limit that the allow-list does not
// cover: not listed, or grown past the measures it records.
func Violations(funcs []Func, lim Limits, a Allowed) []string {
	var out []string
	for _, f := range funcs {
		if !lim.Over(f) {
			continue
		}
		w, ok := a[f.Key]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: %d lines, cyclomatic %d (limits %d, %d): split it", f.Key, f.Lines, f.Cyclo, lim.Lines, lim.Cyclo))
		case f.Lines > max(w.Lines, lim.Lines) || f.Cyclo > max(w.Cyclo, lim.Cyclo):
			out = append(out, fmt.Sprintf("%s: %d lines, cyclomatic %d, grown past its allowed %d, %d: split it", f.Key, f.Lines, f.Cyclo, w.Lines, w.Cyclo))
		}
	}
	return out
}

// Stale lists the allow-list entries that are no longer over a limit (or
// gone): they can be removed.
func Stale(funcs []Func, lim Limits, a Allowed) []string {
	over := map[string]bool{}
	for _, f := range funcs {
		if lim.Over(f) {
			over[f.Key] = true
		}
	}
	var out []string
	for k := range a {
		if !over[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// WriteAllowed writes the functions over a limit as an allow-list.
func WriteAllowed(path string, funcs []Func, lim Limits) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Functions allowed over %d lines or cyclomatic %d, each at most as it was\n", lim.Lines, lim.Cyclo)
	b.WriteString("# measured (lines cyclo file:func). Written by `go run ./tools/funclen -write`;\n")
	b.WriteString("# shrink it, never grow it: split a function rather than list it.\n")
	for _, f := range funcs {
		if lim.Over(f) {
			fmt.Fprintf(&b, "%d %d %s\n", f.Lines, f.Cyclo, f.Key)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
