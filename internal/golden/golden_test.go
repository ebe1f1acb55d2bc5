package golden

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestWriteKeepsInputsAndOrder(t *testing.T) {
	tests := []struct {
		name string
		in   string
		got  map[string]string
		want string
	}{
		{"replace in place", "comment\n-- in --\nx\n-- want --\nold\n-- extra --\ne\n", map[string]string{"want": "new\n"}, "comment\n-- in --\nx\n-- want --\nnew\n-- extra --\ne\n"},
		{"append missing in name order", "-- in --\nx\n", map[string]string{"stdout": "o\n", "exit": "0\n"}, "-- in --\nx\n-- exit --\n0\n-- stdout --\no\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.txtar")
			c := &Case{Path: path, Archive: txtar.Parse([]byte(tt.in))}
			c.Write(t, tt.got)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("wrote %q, want %q", b, tt.want)
			}
		})
	}
}

func TestCheckReportsDifferencesAndMissingSections(t *testing.T) {
	c := &Case{Path: "a.txtar", Archive: txtar.Parse([]byte("-- want --\nyes\n"))}
	tests := []struct {
		name string
		got  map[string]string
		fail bool
	}{
		{"equal", map[string]string{"want": "yes\n"}, false},
		{"different", map[string]string{"want": "no\n"}, true},
		{"missing", map[string]string{"want": "yes\n", "stderr": ""}, true},
	}
	for _, tt := range tests {
		ft := &recorder{TB: t}
		c.Check(ft, "label", tt.got)
		if ft.failed != tt.fail {
			t.Errorf("%s: failed = %v, want %v", tt.name, ft.failed, tt.fail)
		}
	}
}

// recorder is a testing.TB that records failures instead of reporting them.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
