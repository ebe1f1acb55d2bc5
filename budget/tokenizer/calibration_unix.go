//go:build unix

package tokenizer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lockWait bounds how long a report waits for another process's lock on
// the calibration file: a process that holds it forever costs one unsaved
// report, never a hang.
const lockWait = 3 * time.Second

// lockCalibration makes the state directory (0700, owned by the user, not
// writable by others) and takes an exclusive lock on path + ".lock" (a
// regular file acode creates, opened without following a link and without
// blocking). unlock releases it.
func lockCalibration(path string) (unlock func(), err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("tokenizer: calibration: %w", err)
	}
	if err := checkPrivateDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: calibration: lock: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("tokenizer: calibration: %s.lock is not a regular file; not saved", path)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) || time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("tokenizer: calibration: %s is locked by another process; not saved", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkPrivateDir refuses a state directory that is a link, is owned by
// another user or that others may write to (rule 10: acode keeps state only
// in directories owned by the user).
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("tokenizer: calibration: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("tokenizer: calibration: %s is not a private directory of this user (a real directory, owned by uid %d, not writable by others); not saved", dir, os.Getuid())
	}
	return nil
}

// checkOwned refuses a state file another user owns.
func checkOwned(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return errors.New("owned by another user")
	}
	return nil
}
