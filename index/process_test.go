package index

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const helperEnv = "ACODE_INDEX_TEST_WRITER"

// TestWriterProcess is not a test: run by the tests below as a separate
// process (helperEnv = root|dir|first|last|rounds, rounds 0 = until killed),
// it edits the files first..last-1 of a tree made by makeTree and puts them,
// and puts every file of the tree, flushing and merging often.
func TestWriterProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		return
	}
	f := strings.Split(spec, "|")
	root, dir := f[0], f[1]
	first, _ := strconv.Atoi(f[2])
	last, _ := strconv.Atoi(f[3])
	rounds, _ := strconv.Atoi(f[4])
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, spill: 500})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	for r := 0; rounds == 0 || r < rounds; r++ {
		for i := first; i < last; i++ {
			p := filepath.Join(root, fmt.Sprintf("d%d", i%5), fmt.Sprintf("f%03d.txt", i))
			write(t, p, content(i, r+1+rand.IntN(5)))
			put(t, x, p)
		}
		for _, p := range paths {
			put(t, x, p)
		}
		if err := x.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

func writer(root, dir string, first, last, rounds int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d|%d|%d", helperEnv, root, dir, first, last, rounds))
	return cmd
}

// TestKillMidWrite kills a writing process at random moments; whatever it
// left, no entry that disagrees with a file is trusted, and the index is
// rebuilt by the next writer.
func TestKillMidWrite(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 120, 0)
	for round := 0; round < 6; round++ {
		cmd := writer(root, dir, 0, 40, 0)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it writes (its first segment is there), at a random
		// moment of the writes that follow.
		for deadline := time.Now().Add(time.Minute); len(segmentFiles(dir)) == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		x := openTest(t, root, dir)
		checkHonest(t, x, root)
		x.Close()
	}
	x := openTest(t, root, dir)
	th, _ := checkHonest(t, x, root)
	if th == 0 {
		t.Fatal("the killed writers left no usable entry: the test did not exercise the index")
	}
	for _, p := range paths {
		put(t, x, p)
	}
	x.Flush()
	if th, ch := checkHonest(t, x, root); th != 120 || ch != 120 {
		t.Fatalf("rebuilt: %d/%d hits, want 120", th, ch)
	}
}

// TestConcurrentProcesses runs two processes writing one index at once.
func TestConcurrentProcesses(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	makeTree(t, root, 90, 0)
	a, b := writer(root, dir, 0, 30, 6), writer(root, dir, 30, 60, 6)
	for _, c := range []*exec.Cmd{a, b} {
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	// This process reads (and writes) while they run.
	x := openTest(t, root, dir)
	for i := 0; i < 20; i++ {
		x.mu.Lock()
		x.refreshLocked()
		x.mu.Unlock()
		checkHonest(t, x, root)
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range []*exec.Cmd{a, b} {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	y := openTest(t, root, dir)
	if th, ch := checkHonest(t, y, root); th != 90 || ch != 90 {
		t.Fatalf("after both writers: %d/%d hits, want 90 (every file was put after its last edit)", th, ch)
	}
}
