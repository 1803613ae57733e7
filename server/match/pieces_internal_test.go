package match

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/heroiclabs/nakama-common/api"
	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// storage is the storage of a Nakama for the pieces' tests: StorageWrite
// and StorageRead, by collection and key, nothing else.
type storage struct {
	runtime.NakamaModule
	objs map[string]string
}

func (s *storage) StorageWrite(_ context.Context, writes []*runtime.StorageWrite) ([]*api.StorageObjectAck, error) {
	for _, w := range writes {
		s.objs[w.Collection+"/"+w.Key] = w.Value
	}
	return nil, nil
}

func (s *storage) StorageRead(_ context.Context, reads []*runtime.StorageRead) ([]*api.StorageObject, error) {
	var objs []*api.StorageObject
	for _, r := range reads {
		if v, ok := s.objs[r.Collection+"/"+r.Key]; ok {
			objs = append(objs, &api.StorageObject{Collection: r.Collection, Key: r.Key, Value: v})
		}
	}
	return objs, nil
}

// A match's history, cut into pieces as its records are made and written
// with them, then carried on by a match resumed from it (its own pieces
// under its own id), reads back whole from the last record: the same
// bytes, and where the ticks after the record's state begin. A piece
// missing, a piece not one, a tick out of its place, a state's tick the
// history does not have or has with other inputs, and runs of pieces no
// history has are errors that say so.
func TestWholeHistory(t *testing.T) {
	game := &lockstep.Game{Name: "g"}
	h := &Handler{game: game}
	const players, ticks, resumedAt, stateTick = 2, 900, 600, 850
	s := &state{id: "m1"}
	nk := &storage{objs: map[string]string{}}
	in, prev := make([]input.State, players), make([]input.State, players)
	var key []byte
	var last record
	for tick := int64(1); tick <= ticks; tick++ {
		copy(prev, in)
		in[tick%players].SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(tick%7)/7)
		s.history = wire.AppendHistory(s.history, wire.AppendTick(nil, tick, uint64(tick)*3, in, prev))
		if tick == stateTick {
			key = wire.AppendTick(nil, tick, uint64(tick)*3, in, make([]input.State, players))
		}
		if tick%60 == 0 { // a record a second
			writes, err := pieceWrites(game, s.cutPiece(MinPieceBytes))
			if err != nil {
				t.Fatal(err)
			}
			nk.StorageWrite(context.Background(), writes)
			last = record{Whole: true, Pieces: s.pieceRuns(), Rest: append([]byte(nil), s.history[s.pieced:]...)}
		}
		if tick == resumedAt { // its server killed: a match resumed from its record goes on
			s = &state{id: "m2", history: s.history, runs: last.Pieces, pieced: len(s.history) - len(last.Rest)}
		}
	}
	if len(last.Pieces) != 2 || last.Pieces[0].ID != "m1" || last.Pieces[1].ID != "m2" || last.Pieces[0].N < 3 {
		t.Fatalf("%d bytes of history in the runs %+v: want several pieces of m1's, then m2's", len(s.history), last.Pieces)
	}
	last.Tick, last.Key = stateTick, key
	whole, off, err := h.wholeHistory(context.Background(), nk, &last, players)
	if err != nil || string(whole) != string(s.history) {
		t.Fatalf("the history read whole: %d bytes (%v); want the %d written", len(whole), err, len(s.history))
	}
	if msg, _, err := wire.SplitHistory(whole[off:]); err != nil || len(msg) == 0 {
		t.Fatalf("after the state's tick: %v", err)
	} else if tick, _, _ := wire.DecodeTick(msg, make([]input.State, players)); tick != stateTick+1 {
		t.Fatalf("the ticks after the state begin at tick %d; want %d", tick, stateTick+1)
	}

	bad := func(name, want string, change func(r *record, nk *storage)) {
		t.Helper()
		r := last
		r.Pieces = slices.Clone(last.Pieces)
		broken := &storage{objs: maps.Clone(nk.objs)}
		change(&r, broken)
		if _, _, err := h.wholeHistory(context.Background(), broken, &r, players); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error saying %q", name, err, want)
		}
	}
	bad("a piece missing", "piece m2.0 ", func(_ *record, nk *storage) { delete(nk.objs, PiecesCollection(game)+"/"+pieceKey("m2", 0)) })
	bad("a piece not one", "piece m1.1 ", func(_ *record, nk *storage) { nk.objs[PiecesCollection(game)+"/"+pieceKey("m1", 1)] = "[1]" })
	bad("a tick out of its place", "after tick", func(r *record, _ *storage) {
		r.Rest = wire.AppendHistory(append([]byte(nil), r.Rest...), wire.AppendTick(nil, ticks+2, 0, in, in))
	})
	bad("the state's tick past the history", "before the state's tick", func(r *record, _ *storage) {
		r.Tick, r.Key = ticks+5, wire.AppendTick(nil, ticks+5, 0, in, make([]input.State, players))
	})
	bad("the state's tick with other inputs", "is not the state's", func(r *record, _ *storage) {
		r.Key = wire.AppendTick(nil, stateTick, uint64(stateTick)*3, make([]input.State, players), make([]input.State, players))
	})
	bad("more pieces than a history has", "pieces of match", func(r *record, _ *storage) { r.Pieces[0].N = maxPieces + 1 })
	bad("an empty run", "a run of 0 pieces", func(r *record, _ *storage) { r.Pieces[1].N = 0 })
	bad("runs past a history", "more than", func(r *record, _ *storage) {
		r.Pieces = []pieceRun{{ID: "a", N: maxPieces}, {ID: "b", N: 1}}
	})
}

// The pieces a record counts are removed however many it says: at most
// maxPieces, none of a run of none or fewer.
func TestPieceDeletesBounded(t *testing.T) {
	game := &lockstep.Game{Name: "g"}
	if n := len(pieceDeletes(game, []pieceRun{{ID: "a", N: 1 << 40}})); n != maxPieces {
		t.Errorf("a run of 2^40 pieces: %d deletes; want %d", n, maxPieces)
	}
	if n := len(pieceDeletes(game, []pieceRun{{ID: "a", N: -5}, {ID: "b", N: 2}})); n != 2 {
		t.Errorf("runs of -5 and 2 pieces: %d deletes; want 2", n)
	}
	if runs := recordRuns(`{"pieces": [{"id": "a", "n": 1e12}]}`); runs != nil {
		t.Errorf("a record counting 1e12 pieces: %+v; want none", runs)
	}
}
