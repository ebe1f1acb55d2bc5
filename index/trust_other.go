//go:build !unix

package index

import "io/fs"

// ownerOf: file ownership is not known here (the checks on owners and
// modes do not apply; the checks on file kinds do).
func ownerOf(fs.FileInfo) (uid int, ok bool) { return 0, false }

func allocated(fs.FileInfo) (n int64, ok bool) { return 0, false }

const openFlags = 0
