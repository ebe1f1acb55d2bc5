//go:build unix

package tokenizer

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCalibrationHostileFile: the state file is read through the safe read
// and checked: a FIFO, a link to /dev/zero, an oversized file or entries
// that would lower a factor are ignored, without hanging.
func TestCalibrationHostileFile(t *testing.T) {
	const model = "claude-sonnet-4"
	write := func(t *testing.T, path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		plant   func(t *testing.T, path string)
		wantErr bool
		factor  float64
	}{
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}, true, FactorClaude},
		{"link to /dev/zero", func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}, true, FactorClaude},
		{"link to a valid file", func(t *testing.T, path string) {
			other := filepath.Join(t.TempDir(), "c.json")
			write(t, other, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":2,"samples":1}}}`)
			if err := os.Symlink(other, path); err != nil {
				t.Fatal(err)
			}
		}, true, FactorClaude},
		{"over the cap", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{}}`+strings.Repeat(" ", maxCalibrationFile))
		}, true, FactorClaude},
		{"maxRatio 0.001", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":0.001,"samples":5}}}`)
		}, false, FactorClaude},
		{"maxRatio 0.6 (in range, below the default)", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":0.6,"samples":5}}}`)
		}, false, FactorClaude},
		{"maxRatio 1e9", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":1e9,"samples":5}}}`)
		}, false, FactorClaude},
		{"negative samples", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":2,"samples":-3}}}`)
		}, false, FactorClaude},
		{"valid", func(t *testing.T, path string) {
			write(t, path, `{"version":1,"models":{"claude-sonnet-4":{"maxRatio":2,"samples":3}}}`)
		}, false, 2.02},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "calibration.json")
			tt.plant(t, path)
			withDeadline(t, 10*time.Second, func() {
				c, err := OpenCalibration(path)
				if (err != nil) != tt.wantErr {
					t.Errorf("OpenCalibration error = %v, want error %v", err, tt.wantErr)
				}
				if f, _, _ := c.Factor(model); f != tt.factor {
					t.Errorf("factor = %v, want %v", f, tt.factor)
				}
				// A report still works (the untrusted file is replaced or,
				// for a FIFO, left alone with an error) and never hangs.
				f, _, _ := c.Report(model, 1000, 1100)
				if f < FactorClaude {
					t.Errorf("after a report: factor %v below the default", f)
				}
			})
		})
	}
}
