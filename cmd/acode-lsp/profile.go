package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiles for measuring a command (docs/benchmarks.md): with
// ACODE_CPUPROFILE=FILE the whole run's CPU profile is written to FILE,
// with ACODE_MEMPROFILE=FILE a heap profile (every allocation, at the
// end of the run). Read them with `go tool pprof BINARY FILE`.
const (
	envCPUProfile = "ACODE_CPUPROFILE"
	envMemProfile = "ACODE_MEMPROFILE"
)

// startProfiles starts what the environment asks for and returns the
// function that ends it; a profile that cannot be written is said on
// stderr and the command goes on.
func startProfiles(stderr io.Writer) func() {
	var cpu *os.File
	if p := os.Getenv(envCPUProfile); p != "" {
		f, err := os.Create(p)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp: %s: %v\n", envCPUProfile, err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if p := os.Getenv(envMemProfile); p != "" {
			runtime.GC()
			f, err := os.Create(p)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "acode-lsp: %s: %v\n", envMemProfile, err)
			}
		}
	}
}
