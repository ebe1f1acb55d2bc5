//go:build unix

package collector

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestHostileWorkspace walks and reads workspaces whose special files would
// hang or exhaust a naive reader: FIFOs and symlinks to /dev/zero as
// sources and as .gitignore files. Every case must end (bounded: a hang
// fails the test) with the special files refused.
func TestHostileWorkspace(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		entries []fx
		want    listing
	}{
		{
			name:    ".gitignore is a FIFO",
			entries: []fx{fifo(".gitignore"), file("ok.go", "package ok\n")},
			want:    listing{Sources: []string{"ok.go"}, Exclusions: []string{".gitignore unreadable"}},
		},
		{
			name:    ".gitignore links to /dev/zero",
			opts:    Options{FollowSymlinks: true},
			entries: []fx{link(".gitignore", "/dev/zero"), file("ok.go", "package ok\n")},
			want:    listing{Sources: []string{"ok.go"}, Exclusions: []string{".gitignore outside_workspace"}},
		},
		{
			name:    "sources link to devices, followed",
			opts:    Options{FollowSymlinks: true},
			entries: []fx{link("zero.go", "/dev/zero"), link("rand.go", "/dev/urandom"), fifo("pipe.go"), link("pipe2.go", "pipe.go"), file("ok.go", "package ok\n")},
			want: listing{Sources: []string{"ok.go"}, Exclusions: []string{
				// pipe2.go resolves to pipe.go, reported once.
				"pipe.go unreadable", "rand.go outside_workspace", "zero.go outside_workspace",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := newWorkspace(t, tt.opts, tt.entries...)
			withDeadline(t, 10*time.Second, func() {
				srcs, excl, err := w.Walk(context.Background(), OpenFile)
				if err != nil {
					t.Errorf("Walk: %v", err)
					return
				}
				if diff := cmp.Diff(tt.want, summarize(srcs, excl)); diff != "" {
					t.Errorf("Walk mismatch (-want +got):\n%s", diff)
				}
				for _, e := range tt.entries {
					if e.kind == "" {
						continue
					}
					if s, x := w.Read(context.Background(), Reference, e.path); x == nil {
						t.Errorf("Read(%s) let in %d bytes", e.path, len(s.Content))
					}
				}
			})
		})
	}
}

// withDeadline runs f and fails the test when it does not return within d.
func withDeadline(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v (hang)", d)
	}
}
