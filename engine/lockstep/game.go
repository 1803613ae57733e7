package lockstep

import (
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// A Game is what a server's matches run and their clients simulate: its
// name and version, which a client must match to join, and how to begin a
// run of it.
type Game struct {
	Name, Version string

	// MaxPlayers is the most players a match of it has (at most
	// input.MaxPlayers).
	MaxPlayers int

	// Hz is the rate of its first group: the match ticks at it.
	Hz int

	// New returns a run's first scene for a match's seed and settings (the
	// game's own: a server takes them from whoever creates the match, and
	// sends them to every player), and a bot that gives a seat's held input
	// for the next tick from the state of that run (nil: the game has
	// none). A bad setting is an error that names it.
	New func(seed uint64, settings map[string]string) (engine.Scene, Bot, error)
}

// A Bot sets in to the held input of the player at seat for the next
// tick, from the state of the run it was made with (read between ticks).
type Bot func(seat int, in *input.State)
