package match_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/server/match"
)

// tug is a whole game a server can run: each player pulls a rope's knot
// towards its end of the rope with the arrow keys, and the first knot past
// 100 ends the game. Its state is a value; it gives the loop its checksum
// and its state (a networked run, the server's among them, needs both).
type tug struct {
	knot  float64
	slots [256]float64
}

func (g *tug) Name() string { return "Tug" }

func (g *tug) Run(loop *engine.Loop) (engine.Scene, error) {
	loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(g.knot) })
	loop.Recording().SetSceneState(g)
	for ev := range loop.Events(engine.Group{Name: "pull", Hz: 60}) {
		if ev.Kind != engine.Update {
			continue
		}
		for p := range loop.Players() {
			if ev.Player(p).KeyDown(input.KeyArrowRight) {
				g.knot += float64(1 - 2*(p%2)) // even players pull one way, odd ones the other
			}
		}
		if math.Abs(g.knot) > 100 && loop.Session().Settle() { // it ends on a tick every run ends on
			loop.Recording().Checkpoint() // the last tick's checksum is taken
			return nil, nil
		}
	}
	return nil, loop.Err()
}

func (g *tug) SaveState(n int) error    { g.slots[n] = g.knot; return nil }
func (g *tug) RestoreState(n int) error { g.knot = g.slots[n]; return nil }

// tugGame is the game as a server's matches run it and its clients join
// it: a client of another name or version is refused.
var tugGame = lockstep.Game{
	Name: "tug", Version: "1", MaxPlayers: 4, Hz: 60,
	New: func(seed uint64, settings map[string]string) (engine.Scene, lockstep.Bot, error) {
		if len(settings) > 0 {
			return nil, nil, fmt.Errorf("tug has no settings")
		}
		return &tug{}, func(seat int, in *input.State) { in.SetKey(input.KeyArrowRight, true) }, nil
	},
}

// InitModule is what a game server's Nakama runtime module (a main
// package built with -buildmode=plugin, as server/plugin is) gives Nakama:
// it registers the game's matches and the RPCs tug_create, tug_find and
// tug_stats. The plugin and the nakama binary that loads it must be built
// from one go.mod, with one toolchain and the same flags (scripts/server.sh
// builds server/plugin so).
func InitModule(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, initializer runtime.Initializer) error {
	return match.Register(initializer, &tugGame)
}

// A game of one's own on the server: a scene that gives the loop its
// checksum and state, a lockstep.Game naming it, and a plugin that registers
// it. Clients (package client) find, join and play its matches as they do
// rally's.
func Example() {
	_ = InitModule // what Nakama calls as it loads the plugin

	// The server's simulation of a match, and each client's, is a
	// lockstep.Runner stepping the game with every player's input of each tick.
	// Step takes each input as the tick is to see it, edges and all: a
	// bot gives the held input, and DeriveEdges adds the presses and
	// releases since the tick before (a server's match does the same).
	first, bot, _ := tugGame.New(0, nil)
	r, _ := lockstep.New(first, lockstep.Options{Players: 2, Ticks: 60 * 60}) // a minute at most
	defer r.Close()
	in, prev := make([]input.State, 2), make([]input.State, 2)
	var tick int64
	for !r.Done() {
		var held input.State
		bot(0, &held) // player 1 pulls, player 2 does not
		held.DeriveEdges(&prev[0])
		in[0], prev[0] = held, held
		t, _, err := r.Step(in)
		if err != nil {
			break
		}
		tick = t
	}
	fmt.Println("the knot passed 100 after tick", tick)
	// Output: the knot passed 100 after tick 101
}
