// Command funclen measures the length and cyclomatic complexity of every
// function in the repository and checks them against the code-health rule
// of docs/architecture.md ("Code health"): at most 80 lines and a
// cyclomatic complexity of at most 15, generated files excepted, with the
// functions still over a limit named in an allow-list (allow.txt) that may
// only shrink.
//
//	go run ./tools/funclen            # list the functions over a limit and the totals
//	go run ./tools/funclen -check     # exit 1 when one is over a limit and not allowed
//	go run ./tools/funclen -write     # rewrite allow.txt from the current code
//
// Cyclomatic complexity counts 1, plus one per if, for, range, non-default
// case, non-default select case, && and ||, function literals included in
// the function that holds them. Files starting with the standard
// "Code generated … DO NOT EDIT." line, _test.go files and testdata are not
// measured. The test of this package runs the check, so a new long or
// tangled function fails the quick suite.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	allow := flag.String("allow", "", "the allow-list (default: tools/funclen/allow.txt under -root)")
	check := flag.Bool("check", false, "exit 1 when a function over a limit is not allowed")
	write := flag.Bool("write", false, "rewrite the allow-list from the current code")
	lim := Limits{}
	flag.IntVar(&lim.Lines, "lines", 80, "the most lines a function may have")
	flag.IntVar(&lim.Cyclo, "cyclo", 15, "the highest cyclomatic complexity a function may have")
	flag.Parse()
	if *allow == "" {
		*allow = filepath.Join(*root, "tools", "funclen", "allow.txt")
	}
	if err := run(*root, *allow, lim, *check, *write); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root, allow string, lim Limits, check, write bool) error {
	funcs, err := Measure(root)
	if err != nil {
		return err
	}
	if write {
		return WriteAllowed(allow, funcs, lim)
	}
	if check {
		a, err := ReadAllowed(allow)
		if err != nil {
			return err
		}
		if v := Violations(funcs, lim, a); len(v) > 0 {
			for _, s := range v {
				fmt.Println(s)
			}
			return fmt.Errorf("funclen: %d functions over the limits and not allowed", len(v))
		}
	}
	report(funcs, lim)
	test, code, err := Lines(root)
	if err != nil {
		return err
	}
	fmt.Printf("lines of Go: %d in tests, %d in the rest; test/code %.2f\n", test, code, float64(test)/float64(code))
	return nil
}

// report prints the functions over each limit, longest and most complex
// first, and the totals.
func report(funcs []Func, lim Limits) {
	fs := append([]Func(nil), funcs...)
	nLen, nCyc := 0, 0
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Lines > fs[j].Lines })
	for _, f := range fs {
		if f.Lines > lim.Lines {
			nLen++
			fmt.Printf("LEN %4d cyc %3d %s\n", f.Lines, f.Cyclo, f.Key)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Cyclo > fs[j].Cyclo })
	for _, f := range fs {
		if f.Cyclo > lim.Cyclo {
			nCyc++
			fmt.Printf("CYC %3d len %4d %s\n", f.Cyclo, f.Lines, f.Key)
		}
	}
	fmt.Printf("over %d lines: %d; cyclomatic over %d: %d; functions: %d\n", lim.Lines, nLen, lim.Cyclo, nCyc, len(funcs))
}
