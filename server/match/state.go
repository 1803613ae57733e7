package match

import (
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// A match keeps its game's state at a recent tick as bytes (every
// SnapshotEvery of its ticks, when its game's scene writes its state:
// stage.Stage's does), so that a player who comes back, or a newcomer,
// begins its run from that state and simulates the ticks since, rather
// than the match from its start: catching up costs the same ten minutes
// into a match as a minute in (BenchmarkCatchUp), for as long as the match
// keeps its ticks (MaxHistoryBytes). A game whose scene writes no state is caught up
// on from its first tick, as before.

// SnapshotEvery is how often a match keeps its game's state.
const SnapshotEvery = 5 * time.Second

// snapshot is the game's state a match keeps.
type snapshot struct {
	state []byte        // the state file after tick `tick`
	tick  int64         // 0: none yet
	sum   uint64        // the state checksum after it
	in    []input.State // every player's input of that tick
	off   int           // where tick tick+1's message begins in the history
	none  bool          // the game writes no state: no snapshot is taken
	key   []byte        // the history sent from it: tick `tick` from no input, and the ticks since
}

// snapshotEvery is SnapshotEvery in the match's ticks.
func (s *state) snapshotEvery() int64 {
	return max(int64(SnapshotEvery)*int64(s.hz)/int64(time.Second), 1)
}

// maybeSnapshot keeps the game's state after tick t (checksum sum), when
// one is due; the first time the game writes none, it is said once and
// none is taken again.
func (h *Handler) maybeSnapshot(s *state, t int64, sum uint64) {
	sn := &s.snap
	if sn.none || t%s.snapshotEvery() != 0 || s.historyFull || s.runner.Done() {
		return
	}
	b, err := s.runner.AppendState(sn.state[:0])
	if err != nil {
		sn.none = true
		if s.logger != nil {
			s.logger.Info("%s match %s: players who join under way catch up from tick 1: %v", h.game.Name, s.id, err)
		}
		return
	}
	sn.state, sn.tick, sn.sum, sn.off = b, t, sum, len(s.history)
	sn.in = append(sn.in[:0], s.in...)
}

// sendState sends the player at seat the kept state and the ticks since
// (see the package doc of wire).
func (h *Handler) sendState(s *state, dispatcher runtime.MatchDispatcher, seat int) error {
	sn := &s.snap
	to := []runtime.Presence{s.seats[seat].presence}
	for rest := sn.state; len(rest) > 0; {
		n := min(len(rest), wire.MaxHistory)
		if err := dispatcher.BroadcastMessage(wire.OpState, rest[:n], to, nil, true); err != nil {
			return err
		}
		rest = rest[n:]
	}
	none := make([]input.State, len(sn.in))
	sn.key = wire.AppendHistory(sn.key[:0], wire.AppendTick(nil, sn.tick, sn.sum, sn.in, none))
	sn.key = append(sn.key, s.history[sn.off:]...)
	return h.sendHistory(s, dispatcher, seat, sn.key)
}

// gameInfo names the match's game in the states it keeps.
func (h *Handler) gameInfo() engine.GameInfo {
	return engine.GameInfo{Name: h.game.Name, Version: h.game.Version}
}
