package match

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// Params are a match's parameters, as its creator gives them to
// nk.MatchCreate (JSON numbers and strings).
type Params struct {
	Players  int               `json:"players"`
	Seconds  int               `json:"seconds"`
	Seed     uint64            `json:"seed"` // 0: the server picks one
	Settings map[string]string `json:"settings,omitempty"`
}

// map returns p as nk.MatchCreate takes it.
func (p *Params) asMap() map[string]any {
	m := map[string]any{"players": p.Players, "seconds": p.Seconds, "seed": strconv.FormatUint(p.Seed, 10)}
	if len(p.Settings) > 0 {
		s := map[string]any{}
		for k, v := range p.Settings {
			s[k] = v
		}
		m["settings"] = s
	}
	return m
}

// parseParams reads the params nk.MatchCreate was given.
func parseParams(g *lockstep.Game, m map[string]any) (Params, error) {
	p := Params{Players: 2, Seconds: DefaultSeconds}
	num := func(k string, v any) (int64, error) {
		switch n := v.(type) {
		case int:
			return int64(n), nil
		case int64:
			return n, nil
		case float64:
			if n == float64(int64(n)) {
				return int64(n), nil
			}
		case json.Number:
			return n.Int64()
		case string:
			return strconv.ParseInt(n, 10, 64)
		}
		return 0, fmt.Errorf("match: %s %v: want a whole number", k, v)
	}
	for k, v := range m {
		switch k {
		case "players", "seconds":
			n, err := num(k, v)
			if err != nil {
				return p, err
			}
			if k == "players" {
				if n < 1 || n > int64(g.MaxPlayers) {
					return p, fmt.Errorf("match: %d players: %s has 1 to %d", n, g.Name, g.MaxPlayers)
				}
				p.Players = int(n)
			} else {
				if n < 0 || n > MaxSeconds {
					return p, fmt.Errorf("match: %d seconds: want 0 (until the game ends) to %d", n, MaxSeconds)
				}
				p.Seconds = int(n)
			}
		case "seed":
			s, ok := v.(string)
			seed, err := strconv.ParseUint(s, 10, 64)
			if !ok || err != nil {
				return p, fmt.Errorf("match: seed %v: want a whole number as a string", v)
			}
			p.Seed = seed
		case "settings":
			sm, ok := v.(map[string]any)
			if !ok {
				return p, fmt.Errorf("match: settings %v: want an object of strings", v)
			}
			p.Settings = map[string]string{}
			for sk, sv := range sm {
				s, ok := sv.(string)
				if !ok {
					return p, fmt.Errorf("match: setting %s %v: want a string", sk, sv)
				}
				p.Settings[sk] = s
			}
		default:
			return p, fmt.Errorf("match: no parameter %q (players, seconds, seed, settings)", k)
		}
	}
	return p, nil
}
