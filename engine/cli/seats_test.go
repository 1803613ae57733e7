package cli_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/cli/onlinemode"
)

// seatsGame is the test game with -seats for up to three players.
func seatsGame(modes ...cli.Mode) *appGame {
	g := &appGame{app: &cli.App{Name: "game", Unrecorded: []string{"brightness", "drift"}, Modes: modes, MaxSeats: 3}}
	g.speed = g.app.Flags().Float64("speed", 1, "how fast")
	g.brightness = g.app.Flags().Int("brightness", 5, "how bright")
	g.drift = g.app.Flags().Float64("drift", 0, "added to the speed from tick 100")
	return g
}

// -seats gives the game its seats, checked, and a recording keeps them:
// -replay alone seats the same players.
func TestSeatsFlag(t *testing.T) {
	g := seatsGame()
	rec := filepath.Join(t.TempDir(), "run.input")
	if _, err := g.run("-headless", "-seconds", "1", "-seats", "kb1,pad1", "-record", rec); err != nil {
		t.Fatal(err)
	}
	if s := g.app.Seats(); s.String() != "kb1,pad1" {
		t.Fatalf("App.Seats: %v", s)
	}
	again := seatsGame()
	if _, err := again.run("-headless", "-replay", rec); err != nil || again.app.Seats().String() != "kb1,pad1" {
		t.Fatalf("replay: %v; seats %v", err, again.app.Seats())
	}
	if _, err := seatsGame().run("-headless", "-replay", rec, "-seats", "kb2"); err == nil || !strings.Contains(err.Error(), "the recording was made with -seats kb1,pad1") {
		t.Fatalf("a replay with other seats: %v", err)
	}
	// Without -seats, nothing of it is recorded: a game that adds seats
	// records what it recorded before.
	plain := filepath.Join(t.TempDir(), "plain.input")
	if _, err := seatsGame().run("-headless", "-seconds", "1", "-record", plain); err != nil {
		t.Fatal(err)
	}
	old := newAppGame()
	if _, err := old.run("-headless", "-replay", plain); err != nil {
		t.Fatalf("a recording without -seats, replayed by the game without seats: %v", err)
	}
}

// Bad seats are *FlagErrors that say what is wrong, before anything runs.
func TestSeatsFlagRefusesBadSeats(t *testing.T) {
	for spec, want := range map[string]string{
		"kb1,joystick":      `unknown device "joystick"`,
		"kb1,kb1":           "seat 2 (kb1): player 1 plays at kb1 already: a device plays one seat",
		"kb,kb2":            "seat 2 (kb2): player 1 plays at kb, which holds it",
		"kb1,kb2,pad0,pad1": "4 players: game seats at most 3",
		"kb1,pad0@2":        "seat 2 (pad0@2) is on networked player 2's machine, and the run has 1: that needs a networked run",
	} {
		_, err := seatsGame().run("-headless", "-seconds", "1", "-seats", spec)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != "seats" || !strings.Contains(err.Error(), want) {
			t.Errorf("-seats %s: %v, want a *FlagError with %q", spec, err, want)
		}
	}
	if _, err := newAppGame().run("-headless", "-seats", "kb1"); err == nil || !strings.Contains(err.Error(), "flag provided but not defined: -seats") {
		t.Errorf("-seats on a game without seats: %v", err)
	}
	_, err := seatsGame(&netplaymode.Mode{}).run("-headless", "-host", ":0", "-players", "2", "-seats", "kb1,pad0@3")
	if err == nil || !strings.Contains(err.Error(), "seat 2 (pad0@3) is on networked player 3's machine, and the run has 2") {
		t.Errorf("a seat on player 3's machine in a run of 2: %v", err)
	}
}

// A game server's match seats one player a machine: -seats with -server
// is refused before anything connects.
func TestSeatsWithAServer(t *testing.T) {
	g := seatsGame(&netplaymode.Mode{}, &onlinemode.Mode{Game: testGame})
	_, err := g.run("-server", "http://127.0.0.1:9", "-seats", "kb1,kb2")
	var fe *cli.FlagError
	if !errors.As(err, &fe) || fe.Flag != "seats" || !strings.Contains(err.Error(), "drop -seats") {
		t.Fatalf("-seats with -server: %v", err)
	}
}
