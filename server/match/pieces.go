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
// PiecesCollection(game), key "<origin>.<n>": origin is the id of the
// match as it began, whose resumes number their pieces on from its). The
// pieces go with the match's record: when it ends, when its record is
// removed as too old, and when the sweeper removes its record.

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

// piece is a piece of a match's history to write: its number and bytes.
type piece struct {
	n int
	b []byte
}

// pieceValue is a piece's JSON in storage.
type pieceValue struct {
	Ticks []byte `json:"ticks"`
}

func pieceKey(origin string, n int) string { return fmt.Sprintf("%s.%d", origin, n) }

// cutPiece returns the piece of the history since the last one, when it
// has passed size bytes, and counts it; nil when it has not.
func (s *state) cutPiece(size int) []piece {
	if len(s.history)-s.pieced < size {
		return nil
	}
	p := piece{n: s.pieces, b: slices.Clone(s.history[s.pieced:])}
	s.pieces, s.pieced = s.pieces+1, len(s.history)
	return []piece{p}
}

// pieceWrites returns the storage writes of pieces of origin's history.
func pieceWrites(game *lockstep.Game, origin string, pieces []piece) ([]*runtime.StorageWrite, error) {
	var w []*runtime.StorageWrite
	for _, p := range pieces {
		v, err := json.Marshal(pieceValue{Ticks: p.b})
		if err != nil {
			return nil, err
		}
		w = append(w, &runtime.StorageWrite{Collection: PiecesCollection(game), Key: pieceKey(origin, p.n), Value: string(v)})
	}
	return w, nil
}

// pieceDeletes returns the storage deletes of the first n pieces of
// origin's history.
func pieceDeletes(game *lockstep.Game, origin string, n int) []*runtime.StorageDelete {
	if origin == "" {
		return nil
	}
	del := make([]*runtime.StorageDelete, 0, n)
	for i := range min(n, maxPieces) {
		del = append(del, &runtime.StorageDelete{Collection: PiecesCollection(game), Key: pieceKey(origin, i)})
	}
	return del
}

// recordPieces reads the origin and the pieces a record's JSON counts.
func recordPieces(value string) (origin string, pieces int) {
	var rec struct {
		Origin string `json:"origin"`
		Pieces int    `json:"pieces"`
	}
	if json.Unmarshal([]byte(value), &rec) != nil {
		return "", 0
	}
	return rec.Origin, rec.Pieces
}

// wholeHistory reads the pieces of rec and returns its match's history
// from its first tick to its last (its pieces, then rec.Rest), and where
// the ticks after the state's (rec.Tick) begin in it. Each tick follows
// the one before, and the inputs and checksum of the state's tick are its
// key's (rec.Key): a history that does not is an error.
func (h *Handler) wholeHistory(ctx context.Context, nk runtime.NakamaModule, rec *record, players int) ([]byte, int, error) {
	if rec.Pieces < 0 || rec.Pieces > maxPieces {
		return nil, 0, fmt.Errorf("%d pieces of history (at most %d)", rec.Pieces, maxPieces)
	}
	var history []byte
	if rec.Pieces > 0 {
		reads := make([]*runtime.StorageRead, rec.Pieces)
		for i := range reads {
			reads[i] = &runtime.StorageRead{Collection: PiecesCollection(h.game), Key: pieceKey(rec.Origin, i)}
		}
		objs, err := nk.StorageRead(ctx, reads)
		if err != nil {
			return nil, 0, err
		}
		byKey := map[string]string{}
		for _, o := range objs {
			byKey[o.Key] = o.Value
		}
		for i := range rec.Pieces {
			v, ok := byKey[pieceKey(rec.Origin, i)]
			var p pieceValue
			if !ok || json.Unmarshal([]byte(v), &p) != nil {
				return nil, 0, fmt.Errorf("piece %d of the history of match %s: missing or not one", i, rec.Origin)
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
