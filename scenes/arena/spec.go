package arena

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// MaxChurn bounds the Arena's "churn" setting.
const MaxChurn = 100

// Spec is the Arena as a game server's matches run it (package
// engine/lockstep; the server's plugin registers it), for 1 to 4
// players, at Hz. Its settings: "undying" ("true": the game goes on when
// the players' health runs out, until its time does), "churn" (props
// replaced every second, 0 to MaxChurn) and "length" (the game's length
// in game seconds, 1 to MaxLength). The game lasts its length (Limit by
// default) of game time, or less when the match is shorter; its bot is the demo's
// autopilot (Pilot). A window that plays a server's match (the demo's
// -server) builds the same simulation from the same seed and settings
// (OptionsFrom).
// MaxLength is the longest game a match's "length" setting gives: an
// hour, the longest match of a game server.
const MaxLength = 3600

var Spec = lockstep.Game{
	Name:       Name,
	Version:    Version,
	MaxPlayers: input.MaxPlayers,
	Hz:         Hz,
	New: func(seed uint64, settings map[string]string) (engine.Scene, lockstep.Bot, error) {
		opts, err := OptionsFrom(seed, settings)
		if err != nil {
			return nil, nil, err
		}
		sc := &Scene{Options: opts}
		var (
			game   *Arena
			pilots [input.MaxPlayers]*Pilot
			ticks  [input.MaxPlayers]int64
		)
		bot := func(seat int, in *input.State) {
			if sc.Arena == nil || seat < 0 || seat >= sc.Arena.Players() {
				return
			}
			if sc.Arena != game { // a new game: new pilots
				game, pilots, ticks = sc.Arena, [input.MaxPlayers]*Pilot{}, [input.MaxPlayers]int64{}
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

// OptionsFrom returns the options of the Arena a match's seed and settings
// (see Spec) make. A match ignores Esc (Options.IgnoreEsc): a player leaves
// it, the others play on.
func OptionsFrom(seed uint64, settings map[string]string) (Options, error) {
	opts := Options{Seed: seed, IgnoreEsc: true}
	for _, k := range slices.Sorted(maps.Keys(settings)) { // the first bad one named, whatever the map's order
		v := settings[k]
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
		case "length":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxLength {
				return opts, fmt.Errorf("arena: length %q: want 1 to %d seconds", v, MaxLength)
			}
			opts.Seconds = float64(n)
		default:
			return opts, fmt.Errorf("arena: no setting %q (it has undying, churn and length)", k)
		}
	}
	return opts, nil
}
