// Package games holds the games a server built from this module serves,
// as sim.Game specs: the demo's Arena (Arena, on its simulation alone,
// package scenes/arena) beside rally (package rally).
package games

import (
	"fmt"
	"strconv"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/server/sim"
)

// MaxChurn bounds the Arena's "churn" setting.
const MaxChurn = 100

// Arena is the demo's Arena as a server's matches run it, for 1 to 4
// players, at 60 Hz. Its settings: "undying" ("true": the game goes on when
// the players' health runs out, until its time does) and "churn" (props
// replaced every second, 0 to MaxChurn). The game lasts arena.Limit of
// game time, or less when the match is shorter; its bot is the demo's
// autopilot (arena.Pilot).
var Arena = sim.Game{
	Name:       arena.Name,
	Version:    arena.Version,
	MaxPlayers: input.MaxPlayers,
	Hz:         arena.Hz,
	New: func(seed uint64, settings map[string]string) (engine.Scene, sim.Bot, error) {
		opts, err := ArenaOptions(seed, settings)
		if err != nil {
			return nil, nil, err
		}
		sc := &arena.Scene{Options: opts}
		var (
			game   *arena.Arena
			pilots [input.MaxPlayers]*arena.Pilot
			ticks  [input.MaxPlayers]int64
		)
		bot := func(seat int, in *input.State) {
			if sc.Arena == nil || seat < 0 || seat >= sc.Arena.Players() {
				return
			}
			if sc.Arena != game { // a new game: new pilots
				game, pilots, ticks = sc.Arena, [input.MaxPlayers]*arena.Pilot{}, [input.MaxPlayers]int64{}
			}
			if pilots[seat] == nil {
				pilots[seat] = game.NewPilot(seat)
			}
			ticks[seat]++
			pilots[seat].Steer(ticks[seat], in)
		}
		return sc, bot, nil
	},
}

// ArenaOptions returns the Arena a match's seed and settings (see Arena)
// make; a client that draws the match makes its own from them.
func ArenaOptions(seed uint64, settings map[string]string) (arena.Options, error) {
	opts := arena.Options{Seed: seed}
	for k, v := range settings {
		switch k {
		case "undying":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return opts, fmt.Errorf("arena: undying %q: want true or false", v)
			}
			opts.Undying = b
		case "churn":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > MaxChurn {
				return opts, fmt.Errorf("arena: churn %q: want 0 to %d", v, MaxChurn)
			}
			opts.Churn = n
		default:
			return opts, fmt.Errorf("arena: no setting %q (it has undying and churn)", k)
		}
	}
	return opts, nil
}
