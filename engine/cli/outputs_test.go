package cli_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDiskEnv names, in the environment of a test binary started by
// TestAppProfileOnAFullDisk, the folder where TestFullDiskChild runs.
const fullDiskEnv = "CLI_TEST_FULL_DISK_DIR"

// A CPU profile that cannot be written whole (a full disk: here the
// kernel's file size limit, RLIMIT_FSIZE, makes every write to a file
// past its first bytes fail with EFBIG, as a full disk fails them with
// ENOSPC) is the run's error, naming the file, and leaves nothing: no
// half profile at the path, no file beside it, an older profile as it
// was. The limit is set in a child process (this test binary again,
// running TestFullDiskChild), so that it bounds that run's files only.
func TestAppProfileOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.prof"), []byte("the user's profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"new.prof", "old.prof"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskChild$", "-test.v")
		cmd.Env = append(os.Environ(), fullDiskEnv+"="+dir, "CLI_TEST_PROFILE="+name)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the child: %v\n%s", err, out)
		}
		want := "run error: -cpuprofile " + name + ": writing the CPU profile: "
		if !strings.Contains(string(out), want) || !strings.Contains(string(out), "file too large") {
			t.Errorf("-cpuprofile %s past the file size limit, the child said:\n%s\nwant %q", name, out, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != "old.prof" {
		t.Errorf("the folder holds %q, want only old.prof", names)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "old.prof")); err != nil || string(b) != "the user's profile" {
		t.Errorf("old.prof is now %q (%v)", b, err)
	}
}

// TestFullDiskChild is TestAppProfileOnAFullDisk's child: a run with
// -cpuprofile under a file size limit of 16 bytes (less than a profile's
// gzip header and trailer), which says how it ended.
func TestFullDiskChild(t *testing.T) {
	dir := os.Getenv(fullDiskEnv)
	if dir == "" {
		t.Skip("run by TestAppProfileOnAFullDisk")
	}
	t.Chdir(dir)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 16, Max: 16}); err != nil {
		t.Fatal(err)
	}
	_, err := newAppGame().run("-headless", "-seconds", "5", "-cpuprofile", os.Getenv("CLI_TEST_PROFILE"))
	t.Logf("run error: %v", err)
}

// A summary that cannot be written whole (its output a full disk:
// /dev/full) is the run's error: a script that reads it learns that it
// has not all of it.
func TestAppSummaryOnAFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	g := newAppGame()
	var stderr strings.Builder
	g.app.Out, g.app.Err = full, &stderr
	err = g.app.Run([]string{"-headless", "-seconds", "1"}, g.first)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "the run's summary was not all written") {
		t.Fatalf("a run whose summary went to /dev/full: %v", err)
	}
}

// A replay that diverges says so whether or not the replayed world could
// be written where it diverged: when it could not (a folder at the path),
// a line says why, and the error names no file.
func TestAppDivergedDumpNotWritten(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "3", "-record", "run.input"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := os.Mkdir("diverged-1-100.txt", 0o755); err != nil {
		t.Fatal(err)
	}
	g := newAppGame()
	var out, stderr strings.Builder
	g.app.Out, g.app.Err = &out, &stderr
	err := g.app.Run([]string{"-headless", "-replay", "run.input", "-drift", "1e-9"}, g.first)
	if err == nil || strings.Contains(err.Error(), "diverged-1-100.txt") {
		t.Fatalf("a drifting replay: %v", err)
	}
	if !strings.Contains(stderr.String(), "the replayed world where the replay diverged was not written") ||
		!strings.Contains(stderr.String(), "is a directory") {
		t.Fatalf("a drifting replay that could not write its dump said:\n%s", stderr.String())
	}
}
