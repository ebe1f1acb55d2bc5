// Package procstat reads what the benchmark tools measure of another
// process from Linux's /proc.
package procstat

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// CPU is the user and system CPU time process pid has used so far (from
// /proc/PID/stat, in clock ticks of 10 ms); 0 when it cannot be read.
func CPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return parseCPU(string(data))
}

// parseCPU reads utime and stime from the text of /proc/PID/stat: the
// fields after the command's closing parenthesis (a command may hold
// spaces and parentheses), utime the 12th and stime the 13th of them.
func parseCPU(s string) time.Duration {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// Memory is the resident set and its peak of process pid (VmRSS and VmHWM
// of /proc/PID/status), "unknown" when it cannot be read.
func Memory(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	return parseMemory(string(data))
}

// parseMemory reads VmRSS and VmHWM from the text of /proc/PID/status.
func parseMemory(s string) string {
	var rss, hwm string
	for _, line := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			hwm = strings.TrimSpace(v)
		}
	}
	return "RSS " + rss + ", peak " + hwm
}

// MinMedian is the least and the median of ds (ds not empty).
func MinMedian(ds []time.Duration) (least, median time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[0], s[len(s)/2]
}
