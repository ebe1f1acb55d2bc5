//go:build !linux

package safeio

import "io/fs"

// sysFileID is not known on this platform: a FileID is the same file as
// nothing but itself.
func sysFileID(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }
