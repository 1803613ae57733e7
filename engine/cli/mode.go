package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
)

// A Mode is a way to play that a game opts into by listing it in
// App.Modes: networked play (package engine/cli/netplaymode: -host,
// -join, -spectate) or a match on a game server (engine/cli/onlinemode:
// -server). A mode brings its flags, the session the loop runs
// (engine.Options.Session) and its lines of the summary. A mode a game
// does not list defines no flag (-host is then "flag provided but not
// defined") and is not linked: a game that lists no online mode links no
// Nakama client, websocket or protobuf package.
//
// At most one mode runs in a run: the one whose starting flag was given.
// The App calls a mode on the run's goroutine: Flags once, when it makes
// its flag set; then, in each run, Check once the settings are known
// (before anything connects), Start before the game makes its first scene
// (BeforeFirst) and after (AfterFirst); and once Start has returned a
// session, End when the run is over (or failed before it began), and
// Summary after a run that played.
type Mode interface {
	// Flags defines the mode's flags on fs and returns the names of those
	// that start it (-host, -join, -spectate), which no other mode's may
	// go with. A flag that a mode listed before defined already
	// (-players) is shared: the mode reads it with fs.Lookup.
	Flags(fs *flag.FlagSet) (starts []string)

	// Check refuses what the mode's flags ask with the rest of the run
	// (Run.Started says which mode runs; Run.Value reads a flag), as a
	// *FlagError naming the flag. It runs for every listed mode once the
	// command line, a replay's and a save's settings are merged, again
	// when a session's arrive (Run.Adopt), and after a game's Default.
	Check(r *Run) error

	// Start starts the session the mode's flags ask for at stage `at` and
	// returns it (the loop runs it), or nil when they ask for none there.
	// It is called only for the mode that runs. ctx ends with the run
	// (SIGINT, SIGTERM): a wait for other players ends with its error.
	Start(ctx context.Context, r *Run, at Stage) (engine.Session, error)

	// End is called once after the run Start's session played ended with
	// err, or once a run failed after Start (err says why): it tells the
	// session's other players why this one leaves (Run.Quit), closes the
	// session and returns the run's error: err, a better one, or nil (a
	// match its server ended).
	End(r *Run, err error) error

	// Summary writes the mode's lines of the summary of a run that played
	// (its session's figures: Run.SessionStats, Run.Elapsed) to w.
	Summary(r *Run, w io.Writer)
}

// A Stage is when Mode.Start is called.
type Stage int

const (
	// BeforeFirst is before the game makes its first scene, once the
	// settings are checked: a session whose seed and settings become the
	// run's (Run.Adopt), a joiner's or a match's, starts here.
	BeforeFirst Stage = iota
	// AfterFirst is once the game has made its first scene, its flags
	// what the run uses: a session that takes them, a host's, starts here.
	AfterFirst
)

// A Run is what a Mode sees of the run the App is starting: the App, its
// flags, the settings a session shares, and once the run has played, the
// session's figures. Its methods are called on the run's goroutine.
type Run struct {
	app       *App
	out       *errWriter        // App.Out during the run, which keeps its first error
	replay    *engine.InputLog  // -replay's
	loaded    *engine.Save      // -load's
	kept      map[string]string // modes' settings that recordings keep (Run.Keep), named prefix:name
	player    int               // the local player (App.Player)
	mode      Mode              // the mode the flags start; nil: none
	session   engine.Session    // the mode's, once started
	fromState []byte            // the state the session's run begins from (Joined.State)
	ended     bool              // the mode's End was called
	endsRun   bool              // the session ends the run: -seconds does not stop it
	signalled func() os.Signal  // the signal that ended the run, if one did
	began     time.Time         // when the loop started
	stats     runStats          // the loop's counters once it finished
}

// runStats are a finished loop's counters, for the summary.
type runStats struct {
	sounds, frames, pipelined, simulatedAgain int64
	session                                   engine.SessionStats
}

// App returns the App that runs the run.
func (r *Run) App() *App { return r.app }

// Log is where the App writes errors and progress (App.Err).
func (r *Run) Log() io.Writer { return r.app.errOut() }

// Given reports whether the command line, a recording's, a save's or a
// session's settings set the flag named.
func (r *Run) Given(name string) bool {
	found := false
	r.app.flags.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// Value returns the flag named's value as text, "" when there is no such
// flag.
func (r *Run) Value(name string) string {
	if f := r.app.flags.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// Started returns the mode the run's flags start, nil when none does.
func (r *Run) Started() Mode { return r.mode }

// Game names the game (App.Name, App.Version), as its saves do.
func (r *Run) Game() engine.GameInfo { return r.app.game() }

// Shared returns the settings every player of a session shares: the
// flags a recording keeps (and Keep's), but those in App.PerPlayer. A new
// map each call.
func (r *Run) Shared() map[string]string {
	s := r.app.settings()
	for _, name := range r.app.PerPlayer {
		delete(s, name)
	}
	return s
}

// Joined is what a session joined before the game's first scene gives the
// run (Run.Adopt).
type Joined struct {
	Flag, Addr string            // the flag that joined and its value, for errors: "join", "host:7777"
	Seed       uint64            // the session's seed (App.Seed)
	Player     int               // the local player (App.Player): 0 up, -1 for a spectator
	Settings   map[string]string // flags the run takes, as from a recording; those in App.PerPlayer stay the run's own
	EndsRun    bool              // the session ends the run (a server's match): -seconds does not stop it

	// State, when set, is the state the run begins from (a match joined
	// under way: engine.Options.FromState): the run has no recording from
	// the match's start, so -record and -save are refused with it.
	State []byte
}

// Adopt makes a joined session's seed, player and settings the run's, as
// a replay takes a recording's: a flag given on the command line with
// another value is a *FlagError, and the merged flags are checked again.
func (r *Run) Adopt(j Joined) error {
	settings := maps.Clone(j.Settings)
	for _, name := range r.app.PerPlayer {
		delete(settings, name) // the others' own: ours stays
	}
	if err := r.app.applySettings(j.Flag, j.Addr, "session", settings); err != nil {
		return err
	}
	r.app.f.seed, r.player, r.endsRun = j.Seed, j.Player, j.EndsRun
	if j.State != nil {
		for flag, value := range map[string]string{"record": r.app.f.record, "save": r.app.f.save} { //detcheck:ok before the run: the order reaches nothing
			if value != "" {
				return &FlagError{flag, value, fmt.Sprintf("the match joined with -%s is under way: this run begins from its state, and a recording or a save holds a run from its first tick", j.Flag)}
			}
		}
		r.fromState = j.State
	}
	return r.app.check()
}

// Keep gives the run settings that are not flags (an online match's), for
// recordings and saves to keep beside the flags, each named prefix:name;
// Kept(prefix) gives them back, in the run and in its replay.
func (r *Run) Keep(prefix string, settings map[string]string) {
	if r.kept == nil {
		r.kept = map[string]string{}
	}
	for name, value := range settings {
		r.kept[prefix+":"+name] = value
	}
}

// Kept returns the settings Keep gave the run under prefix, or that the
// replayed recording or the loaded save kept so: nil when there are none.
func (r *Run) Kept(prefix string) map[string]string {
	var m map[string]string
	for name, value := range r.kept {
		if rest, ok := strings.CutPrefix(name, prefix+":"); ok {
			if m == nil {
				m = map[string]string{}
			}
			m[rest] = value
		}
	}
	return m
}

// WritesNamed declares files the run writes in the current folder as it
// runs, named as names matches (pattern says them to a user: a desync's
// desync-T-playerN.txt), for the flag that asks for them: a file the run
// reads or writes otherwise that such a name may be is a *FlagError.
func (r *Run) WritesNamed(flag, value string, names *regexp.Regexp, pattern string) error {
	uses, err := r.app.fileUses()
	if err != nil {
		return err
	}
	w := &fileUse{flag: flag, value: value, names: names, pattern: pattern, write: true}
	for i := range uses {
		if u := &uses[i]; u.flag != flag && w.clashes(u) {
			return clash(w, u)
		}
	}
	return nil
}

// Quit reports whether the player ended the run (a signal, the window
// closed), rather than the game or an error.
func (r *Run) Quit() bool {
	return r.Interrupted() || !r.app.Headless() && window.Closed()
}

// Interrupted reports whether a signal (SIGINT, SIGTERM) ended the run.
func (r *Run) Interrupted() bool { return r.signalled != nil && r.signalled() != nil }

// SessionStats are the loop's figures of the session, once the run has
// played.
func (r *Run) SessionStats() engine.SessionStats { return r.stats.session }

// Elapsed is the real time the run played, once it has.
func (r *Run) Elapsed() time.Duration { return time.Since(r.began) }

// checkModes refuses two modes' starting flags together, notes the mode
// that runs, and checks every listed mode's flags.
func (a *App) checkModes() error {
	var starts []string
	for _, names := range a.modes.starts {
		for _, name := range names {
			starts = append(starts, "-"+name)
		}
	}
	a.run.mode = nil
	started := ""
	for i, m := range a.Modes {
		for _, name := range a.modes.starts[i] {
			if f := a.flags.Lookup(name); f.Value.String() != f.DefValue {
				if started != "" {
					return &FlagError{name, f.Value.String(), fmt.Sprintf("one of %s and %s",
						strings.Join(starts[:len(starts)-1], ", "), starts[len(starts)-1])}
				}
				started, a.run.mode = name, m
			}
		}
	}
	for _, m := range a.Modes {
		if err := m.Check(a.run); err != nil {
			return err
		}
	}
	return nil
}

// startMode starts the session of the mode the flags start, at stage at.
func (r *Run) startMode(ctx context.Context, at Stage) error {
	if r.mode == nil || r.session != nil {
		return nil
	}
	s, err := r.mode.Start(ctx, r, at)
	if err != nil {
		if sig := r.signalled(); sig != nil && errors.Is(err, context.Canceled) {
			return &InterruptedError{Signal: sig, Status: signalStatus(sig)}
		}
		return err
	}
	r.session = s
	return nil
}

// endMode ends the mode's session, once, with the run's error.
func (r *Run) endMode(err error) error {
	if r.session == nil || r.ended {
		return err
	}
	r.ended = true
	return r.mode.End(r, err)
}

// modeFlags are the flags the modes define: each one's starting flags
// (Mode.Flags), and all their names.
type modeFlags struct {
	starts [][]string
	flags  []string
}

// defineModes defines the modes' flags on fs.
func (a *App) defineModes(fs *flag.FlagSet) {
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	a.modes.starts = make([][]string, len(a.Modes))
	for i, m := range a.Modes {
		a.modes.starts[i] = m.Flags(fs)
		for _, name := range a.modes.starts[i] {
			if fs.Lookup(name) == nil || slices.ContainsFunc(a.modes.starts[:i], func(o []string) bool { return slices.Contains(o, name) }) {
				panic(fmt.Sprintf("cli: App.Modes[%d] starts with -%s, a flag it did not define or that another mode starts with", i, name))
			}
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			a.modes.flags = append(a.modes.flags, f.Name)
		}
	})
}
