package cli_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
)

// -record, -dump-at and -screenshot replace only a regular file: a pipe, a
// device or a folder at the path is refused before the run and left as it
// was; a link is followed, and the file it names gets the recording.
func TestAppReplacesOnlyRegularFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := syscall.Mkfifo("p.rec", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo("dump-1-5.txt", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("folder", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-record", "p.rec"}, "-record p.rec: is not a regular file (a named pipe)"},
		{[]string{"-record", "/dev/null"}, "is not a regular file (a device)"},
		{[]string{"-record", "folder"}, "is a directory"},
		{[]string{"-dump-at", "1:5"}, "-dump-at 1:5: writes dump-1-5.txt, which is not a regular file (a named pipe)"},
	} {
		g := newAppGame()
		g.seen = -1
		_, err := g.run(append([]string{"-headless", "-seconds", "1"}, c.args...)...)
		if !errors.As(err, new(*cli.FlagError)) || !strings.Contains(err.Error(), c.want) || g.seen != -1 {
			t.Errorf("%v: %v (first scene made: %v), want a flag error with %q", c.args, err, g.seen != -1, c.want)
		}
	}
	for _, name := range []string{"p.rec", "dump-1-5.txt"} {
		if fi, err := os.Lstat(name); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s is now %v, %v", name, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is now %v, %v", fi.Mode(), err)
	}
	if _, err := os.Stat("p.rec" + engine.PartialSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused recording left %s: %v", "p.rec"+engine.PartialSuffix, err)
	}

	// A link to a recording: the recording is replaced, the link stays.
	if out, err := newAppGame().run("-headless", "-seconds", "1", "-record", "old.rec"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := os.Symlink("old.rec", "latest.rec"); err != nil {
		t.Fatal(err)
	}
	out, err := newAppGame().run("-headless", "-seconds", "2", "-record", "latest.rec")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Lstat("latest.rec"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is now %v, %v", fi.Mode(), err)
	}
	if lg, err := engine.LoadInputLog("old.rec"); err != nil || lg.Ticks() != 120 {
		t.Fatalf("the link's file after a 2 s recording through it: %v ticks, %v", lg.Ticks(), err)
	}
}

// A replay cannot record over the recording it replays, however the path
// is spelt; a run that fails does not replace an older recording at its
// -record path: what it recorded stays at the .partial beside it, and the
// summary says where.
func TestAppFailedRunKeepsTheRecordingBefore(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "3", "-record", "a.rec"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	original, err := os.ReadFile("a.rec")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("a.rec")
	if err := os.Symlink("a.rec", "link.rec"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("a.rec", "hard.rec"); err != nil {
		t.Fatal(err)
	}
	for _, same := range []string{"a.rec", "./a.rec", abs, "link.rec", "hard.rec"} {
		_, err := newAppGame().run("-headless", "-replay", "a.rec", "-drift", "1e-9", "-record", same)
		if !errors.As(err, new(*cli.FlagError)) || !strings.Contains(err.Error(), "is the file -replay reads") {
			t.Errorf("-replay a.rec -record %s: %v", same, err)
		}
	}

	if err := os.WriteFile("b.rec", original, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := newAppGame().run("-headless", "-replay", "a.rec", "-drift", "1e-9", "-record", "b.rec")
	if !errors.As(err, new(*engine.DivergenceError)) {
		t.Fatalf("a drifting replay: %v\n%s", err, out)
	}
	if !strings.Contains(out, "to b.rec.partial: the run failed, and b.rec, there before, was left as it was") {
		t.Fatalf("the summary does not say where the recording is:\n%s", out)
	}
	if b, err := os.ReadFile("b.rec"); err != nil || !bytes.Equal(b, original) {
		t.Fatalf("b.rec was replaced (%d bytes, %v)", len(b), err)
	}
	if b, err := os.ReadFile("a.rec"); err != nil || !bytes.Equal(b, original) {
		t.Fatalf("a.rec was changed (%d bytes, %v)", len(b), err)
	}
	kept, err := engine.LoadInputLog("b.rec" + engine.PartialSuffix)
	if err != nil || !kept.Complete() || kept.Ticks() != 100 {
		t.Fatalf("the failed run's recording: %v ticks, complete %v, %v", kept.Ticks(), kept.Complete(), err)
	}

	// With nothing at the path, a failed run's recording is saved there.
	out, err = newAppGame().run("-headless", "-replay", "a.rec", "-drift", "1e-9", "-record", "c.rec")
	if !errors.As(err, new(*engine.DivergenceError)) || !strings.Contains(out, "ticks to c.rec\n") {
		t.Fatalf("a drifting replay to a new file: %v\n%s", err, out)
	}
}
