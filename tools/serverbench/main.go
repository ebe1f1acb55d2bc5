// Command serverbench times a warm pack in a running MCP server against a
// CLI pack of the same tree (docs/benchmarks.md, "Scale, round two",
// "Servers"):
//
//	go run ./tools/serverbench -bin bin/acode-lsp -dir $(go env GOROOT)/src -runs 5
//
// It runs `BIN pack DIR --root DIR --query Q --budget B` (the CLI, a new
// process each run, the index warm from a first run), then starts `BIN mcp
// --root DIR`, calls pack_context with the same query and budget once to
// warm it, and times -runs more calls. Both use the same index cache
// (XDG_CACHE_HOME as set). It prints the fastest and median wall time of
// each and their ratio, and checks that the server's context of every call
// is the CLI's. With -alt, the timed calls alternate between the two
// queries (the second first), each checked against the CLI's pack of it.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/tools/internal/procstat"
)

func main() {
	bin := flag.String("bin", "bin/acode-lsp", "the acode-lsp binary")
	dir := flag.String("dir", "", "the tree to pack")
	query := flag.String("query", "how does the server close idle connections after a request timeout", "the query")
	budget := flag.Int("budget", 16000, "the budget")
	runs := flag.Int("runs", 5, "timed runs of each")
	stderr := flag.Bool("stderr", false, "pass the server's stderr on")
	alt := flag.String("alt", "", "a second query: the timed calls alternate between the two (the server's memos of one query do not serve the other)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "serverbench: -dir is required")
		os.Exit(2)
	}
	want, cliTimes, cliCPU := clis(*bin, *dir, *query, *alt, fmt.Sprint(*budget), *runs)

	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "serverbench", Version: "1"}, nil)
	srvCmd := exec.Command(*bin, "mcp", "--root", *dir)
	if *stderr {
		srvCmd.Stderr = os.Stderr // its log (and GODEBUG=gctrace=1's)
	}
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: srvCmd}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serverbench: mcp:", err)
		os.Exit(1)
	}
	defer cs.Close()
	var srvCPU []time.Duration
	call := func(q string) (time.Duration, string) {
		cpu0 := procstat.CPU(srvCmd.Process.Pid)
		defer func() { srvCPU = append(srvCPU, procstat.CPU(srvCmd.Process.Pid)-cpu0) }()
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "pack_context", Arguments: map[string]any{"query": q, "budget": *budget}})
		d := time.Since(start)
		if err != nil || res.IsError {
			fmt.Fprintln(os.Stderr, "serverbench: pack_context failed:", err)
			os.Exit(1)
		}
		var text bytes.Buffer
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		return d, text.String()
	}
	first, srvOut := call(*query)
	afterFirst := procstat.Memory(srvCmd.Process.Pid) + " (" + residentKinds(srvCmd.Process.Pid) + ")"
	srvCPU = nil
	var srvTimes []time.Duration
	outs, asked := []string{srvOut}, []string{*query}
	for i := 0; i < *runs; i++ {
		q := *query
		if *alt != "" && i%2 == 0 {
			q = *alt
		}
		d, out := call(q)
		srvTimes = append(srvTimes, d)
		outs, asked = append(outs, out), append(asked, q)
	}
	for n, out := range outs { // the first call's and every warm call's
		if i := strings.LastIndex(out, "\n\n[acode-lsp: "); i < 0 || out[:i+1] != want[asked[n]] {
			fmt.Printf("serverbench: WARNING: the server's context of call %d differs from the CLI's\n", n)
		}
	}
	report(*dir, *runs, first, cliTimes, srvTimes, cliCPU, srvCPU)
	fmt.Printf("server memory after the first call: %s\n", afterFirst)
	fmt.Printf("server memory after the calls: %s (%s)\n", procstat.Memory(srvCmd.Process.Pid), residentKinds(srvCmd.Process.Pid))
}

// clis runs the CLI's pack of dir with query (and alt, when given) once
// each, the first warming the index, then times runs more of query. want
// is each query's output; times and cpu are the timed runs'.
func clis(bin, dir, query, alt, budget string, runs int) (want map[string]string, times, cpu []time.Duration) {
	cli := func(q string) (time.Duration, string) {
		start := time.Now()
		cmd := exec.Command(bin, "pack", dir, "--root", dir, "--query", q, "--budget", budget)
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "serverbench: cli:", err)
			os.Exit(1)
		}
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		return time.Since(start), string(out)
	}
	want = map[string]string{}
	_, want[query] = cli(query) // warms the index
	if alt != "" {
		_, want[alt] = cli(alt)
	}
	cpu = nil
	for i := 0; i < runs; i++ {
		d, _ := cli(query)
		times = append(times, d)
	}
	return want, times, cpu
}

// report prints the timings of both doors and their ratios.
func report(dir string, runs int, first time.Duration, cliTimes, srvTimes, cliCPU, srvCPU []time.Duration) {
	cmin, cmed := procstat.MinMedian(cliTimes)
	smin, smed := procstat.MinMedian(srvTimes)
	fmt.Printf("tree %s, %d runs\n", dir, runs)
	fmt.Printf("cli pack (warm index):     min %v  median %v\n", cmin.Round(time.Millisecond), cmed.Round(time.Millisecond))
	fmt.Printf("mcp pack_context, first:   %v\n", first.Round(time.Millisecond))
	fmt.Printf("mcp pack_context, warm:    min %v  median %v\n", smin.Round(time.Millisecond), smed.Round(time.Millisecond))
	fmt.Printf("ratio warm server / cli:   min %.2f  median %.2f\n", float64(smin)/float64(cmin), float64(smed)/float64(cmed))
	_, ccpu := procstat.MinMedian(cliCPU)
	_, scpu := procstat.MinMedian(srvCPU)
	fmt.Printf("CPU (user+sys), median:    cli %v  server %v  ratio %.2f\n", ccpu.Round(time.Millisecond), scpu.Round(time.Millisecond), float64(scpu)/float64(ccpu))
	var each []string
	for _, d := range srvCPU {
		each = append(each, fmt.Sprint(d.Round(time.Millisecond)))
	}
	fmt.Printf("server CPU of each warm call: %s\n", strings.Join(each, " "))
}

// residentKinds is what the resident set of process pid holds: anonymous
// memory (the heaps) and mapped files (the binary, the index's segments),
// from /proc/PID/status.
func residentKinds(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "kinds unknown"
	}
	var kinds []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, k := range []string{"RssAnon:", "RssFile:"} {
			if v, ok := strings.CutPrefix(line, k); ok {
				kinds = append(kinds, strings.TrimSuffix(k, ":")+" "+strings.TrimSpace(v))
			}
		}
	}
	return strings.Join(kinds, ", ")
}
