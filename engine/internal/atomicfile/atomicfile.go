// Package atomicfile writes a file so that a failed write never leaves a
// half file where a whole one was: through a temporary file in the same
// folder, synced, then renamed over the path. It only ever replaces a
// regular file: a symbolic link is followed to the file it names, and a
// directory, a device, a pipe or a socket at the path is refused.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Target returns the path a file written to path replaces: path itself
// when nothing is there or a regular file is, and the file a symbolic link
// names (followed through every link) when path is one. Anything else is
// an error that says what is there: a directory, a device, a pipe or a
// socket (renaming over /dev/null would replace the machine's null device
// with a regular file), or a link to nothing.
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("is a symbolic link to nothing that can be written (%w)", err)
		}
		if fi, err = os.Stat(target); err != nil {
			return "", err
		}
	}
	switch m := fi.Mode(); {
	case m.IsRegular():
		return target, nil
	case m.IsDir():
		return "", errors.New("is a directory")
	default:
		return "", fmt.Errorf("is not a regular file (%s): only a regular file is replaced", kind(m))
	}
}

// kind names what a file that is neither regular nor a directory is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// Write writes data to path through a temporary file in the same folder
// and a rename, so that a failed write (a full disk) leaves an older file
// at path as it was. The file is made readable by all (0644): a saved
// file is the user's to share. Path is first resolved by [Target]: a link
// is followed, anything but a regular file is refused.
func Write(path string, data []byte) error {
	target, err := Target(path)
	if err != nil {
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	dir, base := filepath.Split(target)
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
		err = os.Rename(tmp.Name(), target)
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
