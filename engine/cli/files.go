package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
)

// The files a run reads and writes, in one table: every file a flag names
// (or a name derived from it, such as -dump-at's dump-S-T.txt and
// -record's FILE.partial), the standard flags' and those a game declares
// (App.Reads, App.Writes). Before anything runs, no file the run writes
// may be a file it reads or another file it writes, however the paths are
// spelt: the same name, ./a and a, an absolute path, a symbolic link, a
// hard link, a folder reached through a link.

// A fileUse is a file the run reads or writes, as a flag names it.
type fileUse struct {
	flag, value string // the flag that names it, and its value

	// path is the file; "" when names holds the file's name instead.
	path string
	// names, when set, matches the names of the files the run makes in the
	// current folder as it runs, which only the run decides (the tick of a
	// desync: desync-T-playerN.txt); pattern says them to a user.
	names   *regexp.Regexp
	pattern string

	write bool
}

// what says what a use of a file at path is, for an error that names it.
func (u *fileUse) what() string {
	verb := "reads"
	if u.write {
		verb = "writes"
	}
	if u.path != u.value {
		return fmt.Sprintf("%s, which -%s %s %s", u.path, u.flag, u.value, verb)
	}
	return fmt.Sprintf("the file -%s %s", u.flag, verb)
}

// clash says that writer w and use v are one file.
func clash(w, v *fileUse) error {
	var reason string
	switch {
	case w.names != nil:
		reason = fmt.Sprintf("writes files named %s in the current folder as it runs, and %s is %s", w.pattern, v.path, v.what())
	case v.names != nil:
		reason = fmt.Sprintf("is a file in the current folder named as -%s %s names the files it writes as it runs (%s)", v.flag, v.value, v.pattern)
	case w.path != w.value:
		reason = fmt.Sprintf("writes %s, %s", w.path, v.what())
	default:
		reason = "is " + v.what()
	}
	return &FlagError{w.flag, w.value, reason + ": one file for two uses (name another file)"}
}

var divergedNames = regexp.MustCompile(`^diverged-[0-9]+-[0-9]+\.txt$`)

// fileUses returns every file the run reads and writes, by the flags as
// they are now. A name in Reads or Writes that is no flag is an error.
func (a *App) fileUses() ([]fileUse, error) {
	var uses []fileUse
	add := func(flag, value, path string, write bool) {
		if value != "" {
			uses = append(uses, fileUse{flag: flag, value: value, path: path, write: write})
		}
	}
	add("replay", a.f.replay, a.f.replay, false)
	add("load", a.f.load, a.f.load, false)
	for _, name := range a.Reads {
		f := a.Flags().Lookup(name)
		if f == nil {
			return nil, &FlagError{Reason: fmt.Sprintf("cli: App.Reads names -%s, a flag this program does not have", name)}
		}
		add(name, f.Value.String(), f.Value.String(), false)
	}

	if a.f.record != "" {
		add("record", a.f.record, a.f.record, true)
		// The recording is written beside the file a link names, to
		// FILE.partial (and FILE.partial.new when a step back cuts it).
		if target, err := atomicfile.Target(a.f.record); err == nil {
			add("record", a.f.record, target+engine.PartialSuffix, true)
			add("record", a.f.record, target+engine.PartialSuffix+".new", true)
		}
	}
	add("save", a.f.save, a.f.save, true)
	add("screenshot", a.f.shot, a.f.shot, true)
	add("cpuprofile", a.f.cpuOut, a.f.cpuOut, true)
	if a.f.dumpAt != "" {
		if scene, tick, err := parseSceneTick(a.f.dumpAt); err == nil {
			add("dump-at", a.f.dumpAt, dumpPath(scene, tick), true)
		}
	}
	for _, name := range a.Writes {
		f := a.Flags().Lookup(name)
		if f == nil {
			return nil, &FlagError{Reason: fmt.Sprintf("cli: App.Writes names -%s, a flag this program does not have", name)}
		}
		add(name, f.Value.String(), f.Value.String(), true)
	}
	if a.f.replay != "" { // where a replay that diverges writes the replayed world
		uses = append(uses, fileUse{flag: "replay", value: a.f.replay, names: divergedNames, pattern: "diverged-S-T.txt", write: true})
	}
	return uses, nil
}

// checkFiles refuses a run that would write a file it reads, or write one
// file for two flags: the error names both flags.
func (a *App) checkFiles() error {
	uses, err := a.fileUses()
	if err != nil {
		return err
	}
	for i := range uses {
		for j := range i {
			u, v := &uses[i], &uses[j]
			if u.flag == v.flag || !u.write && !v.write || !u.clashes(v) {
				continue
			}
			if !u.write { // name the writer first
				u, v = v, u
			}
			return clash(u, v)
		}
	}
	return nil
}

// clashes reports whether two uses may be one file.
func (u *fileUse) clashes(v *fileUse) bool {
	switch {
	case u.names != nil && v.names != nil:
		return false // the patterns never name one file
	case u.names != nil:
		return inCurrentFolder(v.path, u.names)
	case v.names != nil:
		return inCurrentFolder(u.path, v.names)
	}
	return sameFile(u.path, v.path)
}

// sameFile reports whether paths a and b name one file, whether or not it
// exists yet: the same path once cleaned and made absolute, or (through
// symbolic links to the file or to a folder on its path, and hard links)
// the same file on disk, or the same name in the same folder.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	a, b = followLinks(a), followLinks(b)
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(fa, fb)
	case errA == nil || errB == nil:
		return false // one is there and the other is not
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(da, db)
}

// followLinks returns the path a symbolic link at path names, followed
// through every link, whether or not the last exists; path itself when
// it is no link.
func followLinks(path string) string {
	for range 40 { // as the kernel's limit on a path's links
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}

// inCurrentFolder reports whether path names a file in the current folder
// whose name names matches.
func inCurrentFolder(path string, names *regexp.Regexp) bool {
	for _, p := range []string{path, followLinks(path)} {
		if !names.MatchString(filepath.Base(p)) {
			continue
		}
		dir, err := os.Stat(filepath.Dir(p))
		here, herr := os.Stat(".")
		if err == nil && herr == nil && os.SameFile(dir, here) {
			return true
		}
	}
	return false
}
