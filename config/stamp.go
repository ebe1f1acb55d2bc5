package config

import (
	"os"
	"time"
)

// Stamp identifies a version of a configuration file without reading it:
// the language server and the MCP server compare stamps to notice an edit.
type Stamp struct {
	Exists  bool
	Size    int64
	ModTime time.Time
}

// StampOf returns the stamp of the file at path; a missing or unreadable
// file has the zero stamp.
func StampOf(path string) Stamp {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{Exists: true, Size: fi.Size(), ModTime: fi.ModTime()}
}
