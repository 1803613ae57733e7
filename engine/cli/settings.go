package cli

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
)

// The run's settings: the flags a recording keeps (and the modes'
// settings, Run.Keep), set again from a recording's, a save's or a
// session's.

// closeRecording finishes -record's file, and says where the recording is
// (nothing when there is no -record, or the run recorded no scene). A run
// that failed never replaces a file that was at the path: its recording
// stays at the path's .partial, beside it.
func (a *App) closeRecording(rec *engine.InputLog, failed bool) (saved string, err error) {
	if a.f.record == "" {
		return "", nil
	}
	if rec.Scenes() == 0 {
		return "", rec.Close() // nothing recorded: no file, and the path as it was
	}
	if _, serr := os.Lstat(a.f.record); failed && serr == nil {
		partial, err := rec.ClosePartial()
		return fmt.Sprintf("%s: the run failed, and %s, there before, was left as it was", partial, a.f.record), err
	}
	return a.f.record, rec.Close()
}

// settings returns the flags a recording keeps, by name.
func (a *App) settings() map[string]string {
	m := map[string]string{}
	a.flags.VisitAll(func(f *flag.Flag) {
		if a.unrecorded(f.Name) || slices.Contains(a.Unrecorded, f.Name) ||
			(slices.Contains(a.RecordedWhenSet, f.Name) || f.Name == "seats" && a.MaxSeats > 0) && f.Value.String() == f.DefValue {
			return
		}
		m[f.Name] = f.Value.String()
	})
	for name, value := range a.run.kept {
		m[name] = value
	}
	return m
}

// applySettings sets the flags from the settings of a recording, a save
// or a session (what, read by flag `from` from path), and keeps for the
// modes those named prefix:name (Run.Kept); a flag given on the command
// line with another value is an error.
func (a *App) applySettings(from, path, what string, settings map[string]string) error {
	given := map[string]bool{}
	a.flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	names := make([]string, 0, len(settings))
	for name := range settings {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		value := settings[name]
		if strings.Contains(name, ":") { // a mode's (Run.Keep)
			if a.run.kept == nil {
				a.run.kept = map[string]string{}
			}
			a.run.kept[name] = value
			continue
		}
		f := a.flags.Lookup(name)
		switch {
		case f == nil || a.unrecorded(name):
			return &FlagError{from, path, fmt.Sprintf("the %s was made with -%s %s, a flag this program does not have", what, name, value)}
		case given[name] && f.Value.String() != value:
			return &FlagError{name, f.Value.String(), fmt.Sprintf("the %s was made with -%s %s: a %s runs as the %s was made (drop -%s)", what, name, value, from, what, name)}
		}
		if err := a.flags.Set(name, value); err != nil {
			return &FlagError{from, path, fmt.Sprintf("the %s's -%s %s: %v", what, name, value, err)}
		}
	}
	return nil
}
