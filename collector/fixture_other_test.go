//go:build !unix

package collector

import "testing"

func mkfifo(t testing.TB, _ string) error {
	t.Skip("named pipes need a unix system")
	return nil
}
