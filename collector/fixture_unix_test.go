//go:build unix

package collector

import (
	"syscall"
	"testing"
)

func mkfifo(_ testing.TB, p string) error { return syscall.Mkfifo(p, 0o644) }
