package match

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// A match's whole history, stored as it runs, so that a match resumed
// after its server was killed has every tick from its first: it is kept
// when it ends (kept.go), and a client that wants every tick may join it.
// A match's record (resume.go) holds the tick messages since its last
// piece; once they pass PieceBytes, they go into a piece of their own,
// written once, with the record that first counts it (collection
// PiecesCollection(game), key "<id>.<n>": the match that wrote it and
// the piece's number among its own). A resumed match's record counts the
// pieces of the match it resumed, then its own: runs of pieces, each of
// the match that wrote them, so that two matches resumed from one record
// write none of each other's. The pieces go with their match's record:
// when a match ends it removes its runs, and the sweeper removes a stale
// record's runs that no record kept counts.

// PiecesCollection is the storage collection of the pieces of the
// histories of game's matches under way.
func PiecesCollection(game *lockstep.Game) string { return game.Name + "_running_ticks" }

// PieceBytes is what a piece holds at least: the tick messages since the
// last piece, once they are that many bytes (5 to 15 s of the Arena, at
// 20 to 60 bytes a tick). A record holds less than that of the history,
// so that its write a second stays small. Options.PieceBytes replaces it.
const PieceBytes = 16 << 10

// MinPieceBytes is the least Options.PieceBytes may be.
const MinPieceBytes = 1 << 10

// maxPieces bounds the pieces a record may count: a history is at most
// MaxHistoryBytes, and a piece at least MinPieceBytes.
const maxPieces = MaxHistoryBytes/MinPieceBytes + 1

// piece is a piece of a match's history to write: its key's match and
// number, and its bytes.
type piece struct {
	id string
	n  int
	b  []byte
}

// pieceRun is the first N pieces a match (ID) wrote of a history.
type pieceRun struct {
	ID string `json:"id"`
	N  int    `json:"n"`
}

// pieceValue is a piece's JSON in storage.
type pieceValue struct {
	Ticks []byte `json:"ticks"`
}

func pieceKey(id string, n int) string { return fmt.Sprintf("%s.%d", id, n) }

// cutPiece returns the piece of the history since the last one, when it
// has passed size bytes, and counts it among the match's own; nil when it
// has not.
func (s *state) cutPiece(size int) []piece {
	if len(s.history)-s.pieced < size {
		return nil
	}
	p := piece{id: s.id, n: s.pieces, b: slices.Clone(s.history[s.pieced:])}
	s.pieces, s.pieced = s.pieces+1, len(s.history)
	return []piece{p}
}

// pieceRuns returns the runs of pieces of the match's history: those of
// the match it resumed, then its own.
func (s *state) pieceRuns() []pieceRun {
	runs := slices.Clone(s.runs)
	if s.pieces > 0 {
		runs = append(runs, pieceRun{ID: s.id, N: s.pieces})
	}
	return runs
}

// pieceWrites returns the storage writes of pieces.
func pieceWrites(game *lockstep.Game, pieces []piece) ([]*runtime.StorageWrite, error) {
	var w []*runtime.StorageWrite
	for _, p := range pieces {
		v, err := json.Marshal(pieceValue{Ticks: p.b})
		if err != nil {
			return nil, err
		}
		w = append(w, &runtime.StorageWrite{Collection: PiecesCollection(game), Key: pieceKey(p.id, p.n), Value: string(v)})
	}
	return w, nil
}

// pieceDeletes returns the storage deletes of the pieces of runs, at most
// maxPieces of them.
func pieceDeletes(game *lockstep.Game, runs []pieceRun) []*runtime.StorageDelete {
	var del []*runtime.StorageDelete
	for _, r := range runs {
		for i := range min(max(r.N, 0), maxPieces-len(del)) {
			del = append(del, &runtime.StorageDelete{Collection: PiecesCollection(game), Key: pieceKey(r.ID, i)})
		}
	}
	return del
}

// checkRuns refuses runs of pieces that are no history's: more pieces
// than a history has, an empty run, a run of no match.
func checkRuns(runs []pieceRun) error {
	total := 0
	for _, r := range runs {
		if r.N < 1 || r.N > maxPieces || r.ID == "" || len(r.ID) > 128 {
			return fmt.Errorf("a run of %d pieces of match %q", r.N, r.ID)
		}
		if total += r.N; total > maxPieces {
			return fmt.Errorf("more than %d pieces of history", maxPieces)
		}
	}
	return nil
}

// recordRuns reads the runs of pieces a record's JSON counts; none when it
// counts what no history has.
func recordRuns(value string) []pieceRun {
	var rec struct {
		Pieces []pieceRun `json:"pieces"`
	}
	if json.Unmarshal([]byte(value), &rec) != nil || checkRuns(rec.Pieces) != nil {
		return nil
	}
	return rec.Pieces
}

// wholeHistory reads the pieces of rec and returns its match's history
// from its first tick to its last (its runs of pieces, then rec.Rest), and where
// the ticks after the state's (rec.Tick) begin in it. Each tick follows
// the one before, and the inputs and checksum of the state's tick are its
// key's (rec.Key): a history that does not is an error.
func (h *Handler) wholeHistory(ctx context.Context, nk runtime.NakamaModule, rec *record, players int) ([]byte, int, error) {
	if err := checkRuns(rec.Pieces); err != nil {
		return nil, 0, err
	}
	var history []byte
	var reads []*runtime.StorageRead
	for _, r := range rec.Pieces {
		for i := range r.N {
			reads = append(reads, &runtime.StorageRead{Collection: PiecesCollection(h.game), Key: pieceKey(r.ID, i)})
		}
	}
	if len(reads) > 0 {
		objs, err := nk.StorageRead(ctx, reads)
		if err != nil {
			return nil, 0, err
		}
		byKey := map[string]string{}
		for _, o := range objs {
			byKey[o.Key] = o.Value
		}
		for _, r := range reads {
			v, ok := byKey[r.Key]
			var p pieceValue
			if !ok || json.Unmarshal([]byte(v), &p) != nil {
				return nil, 0, fmt.Errorf("piece %s of the history: missing or not one", r.Key)
			}
			if len(history)+len(p.Ticks) > MaxHistoryBytes {
				return nil, 0, fmt.Errorf("a history past %d MiB", MaxHistoryBytes>>20)
			}
			history = append(history, p.Ticks...)
		}
	}
	if len(history)+len(rec.Rest) > MaxHistoryBytes {
		return nil, 0, fmt.Errorf("a history past %d MiB", MaxHistoryBytes>>20)
	}
	history = append(history, rec.Rest...)
	in, key := make([]input.State, players), make([]input.State, players)
	_, keySum, err := wire.DecodeTick(rec.Key, key)
	if err != nil {
		return nil, 0, fmt.Errorf("the state's tick: %w", err)
	}
	off, last := -1, int64(0)
	for rest := history; len(rest) > 0; {
		msg, after, err := wire.SplitHistory(rest)
		var t int64
		var sum uint64
		if err == nil {
			t, sum, err = wire.DecodeTick(msg, in)
		}
		if err != nil || t != last+1 {
			return nil, 0, fmt.Errorf("the history: tick %d after tick %d (%v)", t, last, err)
		}
		if t == rec.Tick {
			if sum != keySum || !slices.Equal(in, key) {
				return nil, 0, fmt.Errorf("the history's tick %d is not the state's", t)
			}
			off = len(history) - len(after)
		}
		last, rest = t, after
	}
	if off < 0 {
		return nil, 0, fmt.Errorf("the history ends at tick %d, before the state's tick %d", last, rec.Tick)
	}
	return history, off, nil
}
