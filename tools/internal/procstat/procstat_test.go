package procstat

import (
	"os"
	"testing"
	"time"
)

func TestParseCPU(t *testing.T) {
	// A command with a space and a parenthesis; utime 150, stime 25 ticks.
	line := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 1 0 99 0 0"
	if got, want := parseCPU(line), 1750*time.Millisecond; got != want {
		t.Errorf("parseCPU = %v, want %v", got, want)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "no parenthesis at all"} {
		if got := parseCPU(bad); got != 0 {
			t.Errorf("parseCPU(%q) = %v, want 0", bad, got)
		}
	}
}

func TestCPUOfThisProcess(t *testing.T) {
	end := time.Now().Add(50 * time.Millisecond)
	for x := 0; time.Now().Before(end); x++ {
		_ = x * x
	}
	if CPU(os.Getpid()) <= 0 {
		t.Error("CPU of this process after 50 ms of spinning is 0")
	}
	if CPU(-1) != 0 {
		t.Error("CPU of no process is not 0")
	}
}

func TestParseMemory(t *testing.T) {
	status := "Name:\tacode-lsp\nVmPeak:\t 900 kB\nVmHWM:\t  334000 kB\nVmRSS:\t  328000 kB\nThreads:\t9\n"
	if got, want := parseMemory(status), "RSS 328000 kB, peak 334000 kB"; got != want {
		t.Errorf("parseMemory = %q, want %q", got, want)
	}
}

func TestMinMedian(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3}
	least, median := MinMedian(ds)
	if least != 1 || median != 3 {
		t.Errorf("MinMedian = %v, %v; want 1, 3", least, median)
	}
	if ds[0] != 5 {
		t.Error("MinMedian sorted its argument")
	}
}
