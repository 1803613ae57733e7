package match

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/server/sim"
)

// Register registers game's matches with a Nakama server (from the
// plugin's InitModule) under the game's name, and three RPCs for clients:
//
//   - "<name>_create", payload Params (JSON): makes a match, and returns
//     {"match_id": id}. Bad params are refused with an error that names them.
//   - "<name>_find", payload {"players": n, "seconds": s}: returns an open
//     match of the game's version for n players, or makes one of s seconds
//     (0 or absent: DefaultSeconds), as {"match_id": id}.
//   - "<name>_stats", payload {"match_id": id}: returns the match's Stats.
func Register(initializer runtime.Initializer, game *sim.Game) error {
	if game.MaxPlayers < 1 || game.MaxPlayers > 8 || game.Hz < 1 || game.Hz > 60 {
		return fmt.Errorf("match: %s: %d players at %d Hz: a match has 1 to 8 players (and at most the engine's input.MaxPlayers) at 1 to 60 Hz (Nakama's limit)",
			game.Name, game.MaxPlayers, game.Hz)
	}
	err := initializer.RegisterMatch(game.Name, func(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule) (runtime.Match, error) {
		return NewHandler(game), nil
	})
	if err != nil {
		return err
	}
	create := func(ctx context.Context, nk runtime.NakamaModule, p Params) (string, error) {
		if _, err := parseParams(game, p.asMap()); err != nil {
			return "", runtime.NewError(err.Error(), 3) // INVALID_ARGUMENT
		}
		if _, _, err := game.New(p.Seed, p.Settings); err != nil {
			return "", runtime.NewError(err.Error(), 3)
		}
		id, err := nk.MatchCreate(ctx, game.Name, p.asMap())
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(map[string]string{"match_id": id})
		return string(b), nil
	}
	err = initializer.RegisterRpc(game.Name+"_create", func(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, payload string) (string, error) {
		p := Params{Players: 2, Seconds: DefaultSeconds}
		if err := json.Unmarshal([]byte(payload), &p); err != nil {
			return "", runtime.NewError(fmt.Sprintf("match: create: %v", err), 3)
		}
		return create(ctx, nk, p)
	})
	if err != nil {
		return err
	}
	err = initializer.RegisterRpc(game.Name+"_find", func(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, payload string) (string, error) {
		var q struct {
			Players int `json:"players"`
			Seconds int `json:"seconds"`
		}
		if err := json.Unmarshal([]byte(payload), &q); err != nil || q.Players < 1 || q.Players > game.MaxPlayers || q.Seconds < 0 || q.Seconds > MaxSeconds {
			return "", runtime.NewError(fmt.Sprintf("match: find: want {\"players\": 1 to %d, \"seconds\": 0 to %d}", game.MaxPlayers, MaxSeconds), 3)
		}
		if q.Seconds == 0 {
			q.Seconds = DefaultSeconds
		}
		query := fmt.Sprintf("+label.game:%s +label.version:%s +label.open:T +label.players:%d", game.Name, game.Version, q.Players)
		found, err := nk.MatchList(ctx, 1, true, "", nil, nil, query)
		if err != nil {
			return "", err
		}
		if len(found) > 0 {
			b, _ := json.Marshal(map[string]string{"match_id": found[0].MatchId})
			return string(b), nil
		}
		return create(ctx, nk, Params{Players: q.Players, Seconds: q.Seconds})
	})
	if err != nil {
		return err
	}
	return initializer.RegisterRpc(game.Name+"_stats", func(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, payload string) (string, error) {
		var q struct {
			Match string `json:"match_id"`
		}
		if err := json.Unmarshal([]byte(payload), &q); err != nil || q.Match == "" {
			return "", runtime.NewError(`match: stats: want {"match_id": id}`, 3)
		}
		return nk.MatchSignal(ctx, q.Match, "stats")
	})
}
