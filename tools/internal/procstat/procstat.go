// Package procstat reads what the benchmark tools measure of another
// process from Linux's /proc.
package procstat

import (
	"fmt"
	"os"
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
