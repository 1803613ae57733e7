// Package atomicfile writes a file so that a failed write never leaves a
// half file where a whole one was: through a temporary file in the same
// folder, synced, then renamed over the path.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path through a temporary file in the same folder
// and a rename, so that a failed write (a full disk) leaves an older file
// at path as it was. The file is made readable by all (0644): a saved
// file is the user's to share. A directory at path is an error.
func Write(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("engine: save %s: is a directory", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Chmod(0o644); err == nil { // CreateTemp makes it 0600
		err = cerr
	}
	if serr := tmp.Sync(); err == nil {
		err = serr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	SyncDir(dir)
	return nil
}

// SyncDir syncs a folder, so that a rename in it survives a power cut
// (best effort: not every system syncs folders).
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
