package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fileAndLink makes a folder with a regular file, "file", and a symbolic
// link to it, "link".
func fileAndLink(t *testing.T) (dir, file, link string) {
	t.Helper()
	dir = t.TempDir()
	file, link = filepath.Join(dir, "file"), filepath.Join(dir, "link")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("file", link); err != nil {
		t.Fatal(err)
	}
	return dir, file, link
}

// Target lets a write replace only a regular file: nothing there or a
// regular file is the path itself, a link is followed to the file it
// names, and a directory, a device, a pipe or a link to nothing is refused
// with what is there.
func TestTarget(t *testing.T) {
	dir, file, link := fileAndLink(t)
	chain := filepath.Join(dir, "chain")
	if err := os.Symlink("link", chain); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere/x", dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	toFifo := filepath.Join(dir, "to-fifo")
	if err := os.Symlink("fifo", toFifo); err != nil {
		t.Fatal(err)
	}
	realFile, _ := filepath.EvalSymlinks(file) // the temporary folder may itself be under a link
	for _, c := range []struct{ path, want, err string }{
		{file, file, ""},
		{filepath.Join(dir, "new"), filepath.Join(dir, "new"), ""},
		{link, realFile, ""},
		{chain, realFile, ""},
		{dir, "", "is a directory"},
		{dangling, "", "is a symbolic link to nothing"},
		{fifo, "", "is not a regular file (a named pipe)"},
		{toFifo, "", "is not a regular file (a named pipe)"},
		{"/dev/null", "", "is not a regular file (a device)"},
	} {
		got, err := Target(c.path)
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Target(%s) = %q, %v; want %q, %q", c.path, got, err, c.want, c.err)
		}
	}
}

// Write replaces a regular file, writes through a link to the file it
// names (the link stays a link), and leaves a pipe as it was.
func TestWriteKeepsWhatIsNotARegularFile(t *testing.T) {
	dir, file, link := fileAndLink(t)
	if err := Write(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "new" {
		t.Fatalf("the link's file holds %q, %v", b, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer one: %v, %v", fi.Mode(), err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(fifo, []byte("x")); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("Write to a pipe: %v", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe became %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Fatalf("left in the folder: %v", entries)
	}
}
