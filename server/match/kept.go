package match

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// Every match that began is kept once it ends, however it ends (its run
// over, every player gone, the server shutting down with a grace period):
// its start, its end and every tick message it sent (wire.Kept), in
// Nakama's storage (Postgres), collection KeptCollection(game), key the
// match's id, owned by the server and unreadable to clients but through
// the RPC "<game>_kept". A client plays it again, every checksum checked
// against the server's (client.Kept and client.Replay; the demo's -server
// URL -watch ID, which -record records for -replay). A match whose ticks
// passed MaxHistoryBytes is not kept. A match resumed after its server
// was killed is kept whole: its record held its history from its first
// tick (pieces.go).

// KeptCollection is the storage collection of game's kept matches.
func KeptCollection(game *lockstep.Game) string { return game.Name + "_kept" }

// keepTimeout bounds the storage write of a match that ended.
const keepTimeout = 10 * time.Second

// keep writes the match that ended with e to storage (see above).
func (h *Handler) keep(s *state, e wire.End) {
	if s.nk == nil { // a handler driven without a server (the package's tests)
		return
	}
	if s.partial {
		s.logger.Info("%s match %s: not kept: it resumed match %s from its state of tick %d, and has no ticks before it", h.game.Name, s.id, s.resumeOf, s.resumedFrom)
		return
	}
	if s.historyFull {
		s.logger.Warn("%s match %s: not kept: its ticks passed %d MiB", h.game.Name, s.id, MaxHistoryBytes>>20)
		return
	}
	k, err := wire.Keep(h.startOf(s, 0), e, s.history)
	var v []byte
	if err == nil {
		v, err = json.Marshal(k)
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), keepTimeout)
		defer cancel()
		_, err = s.nk.StorageWrite(ctx, []*runtime.StorageWrite{{Collection: KeptCollection(h.game), Key: s.id, Value: string(v),
			PermissionRead: 0, PermissionWrite: 0}})
	}
	if err != nil {
		s.logger.Error("%s match %s: not kept: %v", h.game.Name, s.id, err)
		return
	}
	s.logger.Info("%s match %s: kept (%d ticks, %d bytes)", h.game.Name, s.id, e.Tick, len(v))
}

// registerKept registers the RPC "<game>_kept": payload {"match_id": id},
// answer the kept match (wire.Kept's JSON), or NOT_FOUND.
func registerKept(initializer runtime.Initializer, game *lockstep.Game) error {
	return initializer.RegisterRpc(game.Name+"_kept", func(ctx context.Context, logger runtime.Logger, _ *sql.DB, nk runtime.NakamaModule, payload string) (string, error) {
		var q struct {
			Match string `json:"match_id"`
		}
		if err := json.Unmarshal([]byte(payload), &q); err != nil || q.Match == "" || len(q.Match) > 128 {
			return "", runtime.NewError(`match: kept: want {"match_id": id}`, 3) // INVALID_ARGUMENT
		}
		objs, err := nk.StorageRead(ctx, []*runtime.StorageRead{{Collection: KeptCollection(game), Key: q.Match}})
		if err != nil {
			return "", err
		}
		if len(objs) == 0 {
			return "", runtime.NewError(fmt.Sprintf("match: no kept match %s of %s (a match is kept once it has ended)", q.Match, game.Name), 5) // NOT_FOUND
		}
		return objs[0].Value, nil
	})
}
