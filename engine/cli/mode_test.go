package cli_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
)

// matchMode is a Mode for the tests: -match NAME plays a "match" whose
// settings the run keeps (Run.Keep), without a session (so that End and
// Summary are never called).
type matchMode struct {
	name  string
	run   *cli.Run
	calls []string
}

func (m *matchMode) Flags(fs *flag.FlagSet) []string {
	fs.StringVar(&m.name, "match", "", "play the match of this name")
	return []string{"match"}
}

func (m *matchMode) Check(r *cli.Run) error {
	m.run = r
	if m.name != "" && r.Value("synctest") != "0" {
		return &cli.FlagError{Flag: "match", Value: m.name, Reason: "drop -synctest"}
	}
	return nil
}

func (m *matchMode) Start(_ context.Context, r *cli.Run, at cli.Stage) (engine.Session, error) {
	m.calls = append(m.calls, fmt.Sprint("start ", at))
	if at == cli.BeforeFirst {
		r.Keep("match", map[string]string{"win": "2", "speed": "fast"})
		return nil, r.Adopt(cli.Joined{Flag: "match", Addr: m.name, Seed: 7, Player: 1, Settings: map[string]string{"speed": "1.25"}})
	}
	return nil, nil
}

func (m *matchMode) End(_ *cli.Run, err error) error { return err }

func (m *matchMode) Summary(_ *cli.Run, w io.Writer) { fmt.Fprintf(w, "match: %s\n", m.name) }

// A mode's flags start it: Start is called before the game's first scene
// and after, and what it adopts (a seed, a player, flags) is the run's
// when the game makes its scene. A recording keeps the settings it keeps
// beside the flags, and its replay gives them back (without the mode's
// starting flag, which no recording keeps); a run that does not start
// the mode keeps none. Two modes that start with one flag is a panic.
func TestModeKeepsItsSettings(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "match.input")
	m := &matchMode{}
	g := newAppGame(m)
	if out, err := g.run("-headless", "-seconds", "1", "-match", "final", "-record", rec); err != nil || strings.Contains(out, "match: final") {
		t.Fatalf("%v\n%s", err, out)
	}
	if g.seen != 1.25 || g.app.Seed() != 7 || g.app.Player() != 1 || fmt.Sprint(m.calls) != "[start 0 start 1]" {
		t.Fatalf("the game was made with -speed %v, seed %d, player %d; the mode was called %v", g.seen, g.app.Seed(), g.app.Player(), m.calls)
	}
	lg, err := engine.LoadInputLog(rec)
	if err != nil || lg.Settings["match:win"] != "2" || lg.Settings["match:speed"] != "fast" || lg.Settings["speed"] != "1.25" || lg.Settings["match"] != "" {
		t.Fatalf("the recording's settings: %v (%v)", lg.Settings, err)
	}
	replayed := &matchMode{}
	replay := newAppGame(replayed)
	if out, err := replay.run("-headless", "-replay", rec); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := replayed.run.Kept("match"); !maps.Equal(got, map[string]string{"win": "2", "speed": "fast"}) || *replay.speed != 1.25 || len(replayed.calls) != 0 {
		t.Fatalf("the replay's kept settings %v and -speed %v (the mode started: %v); want the match's and 1.25", got, *replay.speed, replayed.calls)
	}
	plain := &matchMode{}
	if _, err := newAppGame(plain).run("-headless", "-seconds", "1"); err != nil || plain.run.Kept("match") != nil {
		t.Fatalf("a run that does not start the mode: %v, kept %v", err, plain.run.Kept("match"))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("two modes starting with -match: no panic")
		}
	}()
	newAppGame(&matchMode{}, &otherMatch{})
}

// otherMatch starts with -match too, a flag matchMode defined.
type otherMatch struct{ matchMode }

func (m *otherMatch) Flags(fs *flag.FlagSet) []string { return []string{"match"} }

// stateMode is a matchMode whose match is under way: the run is to begin
// from its state (Joined.State).
type stateMode struct{ matchMode }

func (m *stateMode) Start(_ context.Context, r *cli.Run, at cli.Stage) (engine.Session, error) {
	if at != cli.BeforeFirst {
		return nil, nil
	}
	return nil, r.Adopt(cli.Joined{Flag: "match", Addr: m.name, Seed: 7, State: []byte("a state")})
}

// A run that begins from a match's state has no recording from the match's
// start: -record and -save are refused by name.
func TestStateRefusesRecording(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ flag, value string }{{"record", filepath.Join(dir, "r.input")}, {"save", filepath.Join(dir, "s.sav")}} {
		args := []string{"-headless", "-seconds", "1", "-match", "final", "-" + c.flag, c.value}
		if c.flag == "save" {
			args = append(args, "-save-at", "1:10")
		}
		_, err := newAppGame(&stateMode{}).run(args...)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != c.flag || !strings.Contains(err.Error(), "under way") {
			t.Errorf("-%s: %v; want a FlagError naming it", c.flag, err)
		}
	}
}
