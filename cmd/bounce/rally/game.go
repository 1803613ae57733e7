package rally

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// MaxRounds bounds the "rounds" setting.
const MaxRounds = 1000

// Spec is rally as a server's matches run it: settings "rounds" (the
// rounds to play, 0 or absent: no limit).
var Spec = lockstep.Game{
	Name:       Name,
	Version:    Version,
	MaxPlayers: input.MaxPlayers,
	Hz:         Hz,
	New: func(seed uint64, settings map[string]string) (engine.Scene, lockstep.Bot, error) {
		g, err := NewGame(seed, settings)
		if err != nil {
			return nil, nil, err
		}
		return g.First(), func(seat int, in *input.State) { Bot(g.World(), seat, in) }, nil
	},
}

// NewGame returns the game a match's seed and settings (see Spec) make.
// A client that shows the match makes its own with it, to read its world.
func NewGame(seed uint64, settings map[string]string) (*Game, error) {
	g := &Game{Seed: seed}
	for _, k := range slices.Sorted(maps.Keys(settings)) { // the first error, the same every run
		v := settings[k]
		switch k {
		case "rounds":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > MaxRounds {
				return nil, fmt.Errorf("rally: rounds %q: want 0 (no limit) to %d", v, MaxRounds)
			}
			g.Rounds = n
		default:
			return nil, fmt.Errorf("rally: no setting %q (it has rounds)", k)
		}
	}
	return g, nil
}
