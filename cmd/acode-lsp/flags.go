package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// parseFlags parses a subcommand's flags. -h prints the usage on stdout and
// exits 0; a wrong flag prints one line naming it and how to see the flags,
// and exits 2 (not the whole usage). ok is false when the command must stop
// with code.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	usage := fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		if usage != nil {
			usage()
		} else {
			printFlags(fs)
		}
		return 0, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp %s: %s\nRun 'acode-lsp %s -h' for its flags.\n", fs.Name(), flagErrText(err), fs.Name())
		return 2, false
	}
	return 0, true
}

var invalidValue = regexp.MustCompile(`^invalid (boolean )?value "(.*)" for (?:flag )?-(\S+): (.*)$`)

// flagErrText words the flag package's errors with the flags as users type
// them (--name).
func flagErrText(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimPrefix(name, "-")
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + strings.TrimPrefix(name, "-") + " needs a value"
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		why := m[4]
		if m[1] != "" {
			why = "not true or false"
		} else if strings.Contains(why, "parse error") || strings.Contains(why, "invalid syntax") {
			why = "not a number"
		} else if strings.Contains(why, "out of range") {
			why = "out of range"
		}
		return fmt.Sprintf("--%s %q: %s", m[3], m[2], why)
	}
	return msg
}

// flagSet reports whether a flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// flagError prints a bad flag value, naming the flag, and returns exit code 2.
func flagError(stderr io.Writer, cmd, flagName, value, why string) int {
	v := value
	if strings.ContainsAny(v, " \t") || v == "" {
		v = fmt.Sprintf("%q", v)
	}
	fmt.Fprintf(stderr, "acode-lsp %s: --%s %s: %s\n", cmd, flagName, v, why)
	return 2
}

// printFlags lists a command's flags as users type them (--name ARG), with
// the default when it is not the zero value.
func printFlags(fs *flag.FlagSet) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if arg != "" {
			head += " " + arg
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
			def = " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%s\n      %s%s\n", head, usage, def)
	})
}
