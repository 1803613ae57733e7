package cli_test

import (
	"bytes"
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
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

// fileGame is appGame with a file it reads (-level, App.Reads) and one it
// writes (-export, App.Writes).
func fileGame() *appGame {
	g := newAppGame(&netplaymode.Mode{})
	g.app.Flags().String("level", "", "the level to play")
	g.app.Flags().String("export", "", "where to export the score")
	g.app.Reads, g.app.Writes = []string{"level"}, []string{"export"}
	return g
}

// A flag that names a file the run reads or writes, for the table of
// TestAppFilesTable.
type fileFlag struct {
	flag    string // the flag
	write   bool
	fixed   string // the file, when the flag's value does not name it: a name derived from it
	pattern bool   // fixed is one of the names the run makes as it runs (desync-T-playerN.txt)
	args    func(path string) []string
}

var fileFlags = []fileFlag{
	{flag: "replay", args: func(p string) []string { return []string{"-replay", p} }},
	{flag: "load", args: func(p string) []string { return []string{"-load", p} }},
	{flag: "level", args: func(p string) []string { return []string{"-level", p} }},
	{flag: "record", write: true, args: func(p string) []string { return []string{"-record", p} }},
	{flag: "save", write: true, args: func(p string) []string { return []string{"-save", p, "-save-at", "1:5"} }},
	{flag: "screenshot", write: true, args: func(p string) []string { return []string{"-screenshot", p} }},
	{flag: "cpuprofile", write: true, args: func(p string) []string { return []string{"-cpuprofile", p} }},
	{flag: "export", write: true, args: func(p string) []string { return []string{"-export", p} }},
	{flag: "dump-at", write: true, fixed: "dump-1-5.txt", args: func(string) []string { return []string{"-dump-at", "1:5"} }},
	{flag: "record", write: true, fixed: "r.rec" + engine.PartialSuffix, args: func(string) []string { return []string{"-record", "r.rec"} }},
	{flag: "replay", write: true, fixed: "diverged-1-5.txt", pattern: true, args: func(string) []string { return []string{"-replay", "other.rec"} }},
	{flag: "host", write: true, fixed: "desync-3-player1.txt", pattern: true, args: func(string) []string { return []string{"-host", "127.0.0.1:0"} }},
	{flag: "join", write: true, fixed: "desync-3-player1.txt", pattern: true, args: func(string) []string { return []string{"-join", "127.0.0.1:9"} }},
	{flag: "spectate", write: true, fixed: "desync-3-player1.txt", pattern: true, args: func(string) []string { return []string{"-spectate", "127.0.0.1:9"} }},
}

// Every pair of flags that name files the run reads or writes, the one
// naming a file the other names, spelt every way (the same name, ./name,
// an absolute path, a symbolic link to it, a hard link to it, the name
// in a link to the folder, and when nothing is there yet): a pair of which
// one writes is a *FlagError naming both flags before anything runs, and
// the file stays as it was; two readers, or two names the run makes as it
// runs, are no clash.
func TestAppFilesTable(t *testing.T) {
	type spelling struct {
		name   string
		exists bool // the file is there
		spell  func(dir, file string) string
	}
	spellings := []spelling{
		{"same", true, func(_, f string) string { return f }},
		{"./", true, func(_, f string) string { return "./" + f }},
		{"absolute", true, func(dir, f string) string { return filepath.Join(dir, f) }},
		{"symlink", true, func(_, f string) string { return mustLink(t, os.Symlink, f, "link-"+f) }},
		{"hard link", true, func(_, f string) string { return mustLink(t, os.Link, f, "hard-"+f) }},
		{"folder link", true, func(_, f string) string { return filepath.Join(mustLink(t, os.Symlink, ".", "here"), f) }},
		{"new, same", false, func(_, f string) string { return f }},
		{"new, ./", false, func(_, f string) string { return "./" + f }},
		{"new, absolute", false, func(dir, f string) string { return filepath.Join(dir, f) }},
		{"new, symlink", false, func(_, f string) string { return mustLink(t, os.Symlink, f, "link-"+f) }},
		{"new, folder link", false, func(_, f string) string { return filepath.Join(mustLink(t, os.Symlink, ".", "here"), f) }},
	}
	pairs, cases, clashes := 0, 0, 0
	for i := range fileFlags {
		for j := i + 1; j < len(fileFlags); j++ {
			a, b := fileFlags[i], fileFlags[j]
			if a.flag == b.flag {
				continue // one flag: its own uses (a replay reads its file and may write diverged-S-T.txt)
			}
			pairs++
			if a.fixed != "" && b.fixed == "" || a.fixed == "" && b.fixed == "" && !a.write && b.write {
				a, b = b, a // a names the file as the flag makes it; b spells it
			}
			file := cmp.Or(a.fixed, "f.dat")
			want := (a.write || b.write) && !(a.pattern && b.pattern) && (b.fixed == "" || b.fixed == a.fixed)
			for _, sp := range spellings {
				if b.fixed != "" && sp.name != "same" {
					continue // b names a file of its own: spelt one way
				}
				if sp.name == "hard link" && a.pattern {
					continue // another name of the file: a name the run makes replaces that name only
				}
				cases++
				dir := t.TempDir()
				t.Chdir(dir)
				if sp.exists {
					if err := os.WriteFile(file, []byte("the user's"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				args := slices.Concat(a.args(file), b.args(sp.spell(dir, file)))
				g := fileGame()
				err := g.app.CheckFlags(args)
				var fe *cli.FlagError
				clash := errors.As(err, &fe) && strings.Contains(err.Error(), "one file for two uses")
				switch {
				case want && !clash:
					t.Errorf("%s (%s): %v, want a clash", strings.Join(args, " "), sp.name, err)
				case want && (!strings.Contains(err.Error(), "-"+a.flag) || !strings.Contains(err.Error(), "-"+b.flag)):
					t.Errorf("%s (%s): %v, want both flags named", strings.Join(args, " "), sp.name, err)
				case !want && clash:
					t.Errorf("%s (%s): %v, want no clash", strings.Join(args, " "), sp.name, err)
				}
				if clash {
					clashes++
				}
				if b, err := os.ReadFile(file); sp.exists && (err != nil || string(b) != "the user's") {
					t.Errorf("%s (%s): the file is now %q, %v", strings.Join(args, " "), sp.name, b, err)
				}
			}
		}
	}
	t.Logf("%d pairs of file flags, %d cases, %d clashes refused", pairs, cases, clashes)
}

// mustLink makes a link (os.Symlink or os.Link) from name to to, and
// returns name.
func mustLink(t *testing.T, link func(to, name string) error, to, name string) string {
	t.Helper()
	if err := link(to, name); err != nil {
		t.Fatal(err)
	}
	return name
}

// A run never writes a file it reads, whatever the flag: a recording, a
// CPU profile or a dump over the save it loads or the recording it
// replays is refused before the first scene is made, and the file stays.
func TestAppNeverWritesWhatItReads(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "1", "-record", "a.rec", "-save", "a.sav", "-save-at", "1:30"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rec, _ := os.ReadFile("a.rec")
	if err := os.WriteFile("dump-1-5.txt", rec, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args        []string
		file        string
		flag, other string
	}{
		{[]string{"-load", "a.sav", "-record", "a.sav"}, "a.sav", "record", "load"},
		{[]string{"-load", "a.sav", "-record", "./a.sav"}, "a.sav", "record", "load"},
		{[]string{"-replay", "a.rec", "-cpuprofile", "a.rec"}, "a.rec", "cpuprofile", "replay"},
		{[]string{"-load", "a.sav", "-cpuprofile", "./a.sav"}, "a.sav", "cpuprofile", "load"},
		{[]string{"-replay", "dump-1-5.txt", "-dump-at", "1:5"}, "dump-1-5.txt", "dump-at", "replay"},
		{[]string{"-load", "a.sav", "-save", "a.sav", "-save-at", "1:40"}, "a.sav", "save", "load"},
	} {
		before, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		g := newAppGame()
		g.seen = -1
		_, err = g.run(append([]string{"-headless"}, c.args...)...)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != c.flag || !strings.Contains(err.Error(), "-"+c.other) || g.seen != -1 {
			t.Errorf("%v: %v (first scene made: %v), want a -%s error naming -%s", c.args, err, g.seen != -1, c.flag, c.other)
		}
		if after, err := os.ReadFile(c.file); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%v: %s changed (%d bytes, %v)", c.args, c.file, len(after), err)
		}
	}
}
