package match

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// Matches that outlive their server. Every PersistEvery, a match under way
// whose game writes its state stores in Nakama's storage (Postgres,
// collection RunningCollection(game), key the match's id) its kept state
// (SnapshotEvery), the ticks since, its params and its players: a record
// of its own, written by a goroutine of the match's so that the match's
// tick never waits for the database. The record goes when the match ends.
//
// After the server is killed (or shut down: the players are told to ask)
// and started again on the same database, a player of a match that went
// with it calls the RPC "<game>_resume" with the match's id (a match still
// running, or one the caller did not play, is refused): the server makes
// the match anew from its record (once, for
// all its players: the id of the resumed match is the answer), which
// begins from the state, runs the ticks since with the inputs they ran with
// (each checksum checked against the one stored), and waits up to
// ResumeWait for its players to come back as players who left do: each is
// seated at its seat, begins from the match's state and plays on. What ran
// after the last record written (up to PersistEvery of play) is run again
// with the inputs the players send anew. The record holds the match's
// history from its first tick too (pieces.go), so that a resumed match is
// kept when it ends as any other, and a client that wants every tick
// (wire.AllTicks) may join it; a record without it (not Whole) resumes a
// match that has no ticks before its state, which is neither. A record
// is for ResumeWithin: one older is removed when asked for, and swept away as a
// match of the game is made (at most once every ResumeWithin a server:
// sweeper), so that the records of matches no player asked to resume do
// not pile up.

// PersistEvery is how often a match under way stores its record.
const PersistEvery = time.Second

// ResumeWait is how long a resumed match waits for its players before its
// ticks go on (those not back hold nothing, and may come back later).
const ResumeWait = 15 * time.Second

// ResumeWithin is how long after a match's record was last written its
// players may ask for it resumed: a record older than that is removed
// when asked for, and the match is not resumed.
const ResumeWithin = 10 * time.Minute

// RunningCollection is the storage collection of game's matches under way.
func RunningCollection(game *lockstep.Game) string { return game.Name + "_running" }

// record is what a match under way stores to be resumed.
type record struct {
	Params Params   `json:"params"`
	Users  []string `json:"users"` // each seat's player
	Kicked []string `json:"kicked,omitempty"`
	Tick   int64    `json:"tick"`            // the state's
	State  []byte   `json:"state"`           // the state file after Tick
	Key    []byte   `json:"key"`             // tick Tick's message from no input: its inputs and checksum
	Ticks  []byte   `json:"ticks,omitempty"` // not Whole: the tick messages after it (a history)
	// Whole: the record holds the match's whole history (pieces.go), which
	// has the ticks after Tick: the runs of pieces, then Rest. Not Whole:
	// the history before Tick is not stored.
	Whole  bool       `json:"whole,omitempty"`
	Pieces []pieceRun `json:"pieces,omitempty"`
	Rest   []byte     `json:"rest,omitempty"`

	pending []piece // the pieces to write with the record
}

// persister writes a match's records, the latest only, off the match's
// goroutine.
type persister struct {
	latest chan *record // capacity 1: a record not yet written is replaced
	done   chan struct{}
}

// maybePersist hands the match's record to its writer when one is due.
func (h *Handler) maybePersist(s *state, t int64) {
	sn := &s.snap
	if s.nk == nil || h.opts.NoRecords || sn.tick == 0 || s.historyFull || t%max(int64(PersistEvery)*int64(s.hz)/int64(time.Second), 1) != 0 {
		return
	}
	if s.persist == nil {
		s.persist = &persister{latest: make(chan *record, 1), done: make(chan struct{})}
		go h.writeRecords(s.id, s.nk, s.logger, s.persist, s.resumeOf)
	}
	params := s.params
	params.Settings = maps.Clone(params.Settings) // the writer's own: it encodes it on its goroutine
	rec := &record{Params: params, Kicked: slices.Clone(s.kicked), Tick: sn.tick, State: slices.Clone(sn.state),
		Key: wire.AppendTick(nil, sn.tick, sn.sum, sn.in, make([]input.State, len(sn.in)))}
	for _, p := range s.seats {
		rec.Users = append(rec.Users, p.user)
	}
	if s.partial { // the ticks since the state
		rec.Ticks = slices.Clone(s.history[sn.off:])
	} else { // the whole history, which has them: its pieces, and the ticks since
		rec.pending = s.cutPiece(h.opts.pieceBytes())
		rec.Whole, rec.Pieces, rec.Rest = true, s.pieceRuns(), slices.Clone(s.history[s.pieced:])
	}
	select {
	case old := <-s.persist.latest: // not written yet: this one replaces it, and writes its pieces
		rec.pending = append(old.pending, rec.pending...)
	default:
	}
	s.persist.latest <- rec
}

// writeRecords writes the match's records as they come, until the channel
// closes; once it has written one, the record of the match it resumed (if
// it did) goes.
func (h *Handler) writeRecords(id string, nk runtime.NakamaModule, logger runtime.Logger, p *persister, resumed string) {
	defer close(p.done)
	var unwritten []piece // a failed write's pieces: the records after it count them
	for rec := range p.latest {
		rec.pending = append(unwritten, rec.pending...)
		writes, err := pieceWrites(h.game, rec.pending)
		var v []byte
		if err == nil {
			v, err = json.Marshal(rec)
		}
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), keepTimeout)
			writes = append(writes, &runtime.StorageWrite{Collection: RunningCollection(h.game), Key: id, Value: string(v)})
			_, err = nk.StorageWrite(ctx, writes) // the pieces with the record that counts them
			if err == nil && resumed != "" {
				err = nk.StorageDelete(ctx, []*runtime.StorageDelete{{Collection: RunningCollection(h.game), Key: resumed}})
				resumed = ""
			}
			cancel()
		}
		unwritten = nil
		if err != nil {
			unwritten = rec.pending
			logger.Warn("%s match %s: its record for a resume: %v", h.game.Name, id, err)
		}
	}
}

// stopWriting stops the match's writer, once it has written the record
// handed to it last.
func (h *Handler) stopWriting(s *state) {
	if s.persist != nil {
		close(s.persist.latest)
		<-s.persist.done
		s.persist = nil
	}
}

// forget stops the match's writer and removes its record, and the record
// of the match it resumed, and the pieces of its history: the match has
// ended.
func (h *Handler) forget(s *state) {
	wrote := s.persist != nil
	h.stopWriting(s)
	if s.nk == nil {
		return
	}
	var del []*runtime.StorageDelete
	if wrote {
		del = append(del, &runtime.StorageDelete{Collection: RunningCollection(h.game), Key: s.id})
	}
	if s.resumeOf != "" {
		del = append(del, &runtime.StorageDelete{Collection: RunningCollection(h.game), Key: s.resumeOf})
	}
	del = append(del, pieceDeletes(h.game, s.pieceRuns())...)
	if len(del) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), keepTimeout)
	defer cancel()
	if err := s.nk.StorageDelete(ctx, del); err != nil {
		s.logger.Warn("%s match %s: removing its record for a resume: %v", h.game.Name, s.id, err)
	}
}

// resume makes the state of a match resumed from the record of match old.
func (h *Handler) resume(ctx context.Context, logger runtime.Logger, nk runtime.NakamaModule, id, old string) (*state, error) {
	objs, err := nk.StorageRead(ctx, []*runtime.StorageRead{{Collection: RunningCollection(h.game), Key: old}})
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("no record of match %s to resume", old)
	}
	var rec record
	if err := json.Unmarshal([]byte(objs[0].Value), &rec); err != nil {
		return nil, fmt.Errorf("the record of match %s: %w", old, err)
	}
	p, err := parseParams(h.game, rec.Params.asMap())
	if err != nil {
		return nil, err
	}
	if len(rec.Users) != p.Players {
		return nil, fmt.Errorf("the record of match %s has %d players' users for %d seats", old, len(rec.Users), p.Players)
	}
	s := &state{id: id, hz: h.game.Hz, params: p, start: time.Now(), seats: make([]player, p.Players), nk: nk, logger: logger,
		resumeOf: old, kicked: rec.Kicked}
	s.ticks = int64(p.Seconds) * int64(s.hz)
	first, _, err := h.game.New(p.Seed, p.Settings)
	if err != nil {
		return nil, err
	}
	if s.runner, err = lockstep.New(first, lockstep.Options{Players: p.Players, Ticks: s.ticks, From: rec.State, Game: h.gameInfo()}); err != nil {
		return nil, err
	}
	s.in, s.prev = make([]input.State, p.Players), make([]input.State, p.Players)
	key, sum, err := wire.DecodeTick(rec.Key, s.in)
	if err != nil || key != rec.Tick {
		s.runner.Close()
		return nil, fmt.Errorf("the record of match %s: its state's tick %d does not decode (%v)", old, rec.Tick, err)
	}
	s.history, s.partial = wire.AppendHistory(nil, rec.Key), true
	after := rec.Ticks
	if rec.Whole { // every tick from the first
		whole, off, err := h.wholeHistory(ctx, nk, &rec, p.Players)
		if err != nil {
			s.runner.Close()
			return nil, fmt.Errorf("the record of match %s: %w", old, err)
		}
		s.history, after, s.partial = slices.Clip(whole[:off]), whole[off:], false // after: run again, and appended
		s.runs, s.pieced = rec.Pieces, len(whole)-len(rec.Rest)                    // its own pieces are numbered from 0
	}
	s.snap = snapshot{state: rec.State, tick: rec.Tick, sum: sum, in: slices.Clone(s.in), off: len(s.history)}
	s.last = rec.Tick
	for rest := after; len(rest) > 0; { // the ticks run after the state, again
		msg, after, err := wire.SplitHistory(rest)
		var t int64
		if err == nil {
			t, sum, err = wire.DecodeTick(msg, s.in)
		}
		if err != nil || t != s.last+1 {
			s.runner.Close()
			return nil, fmt.Errorf("the record of match %s: tick %d after tick %d (%v)", old, t, s.last, err)
		}
		ran, own, err := s.runner.Step(s.in)
		if err != nil || ran != t || own != sum {
			s.runner.Close()
			return nil, fmt.Errorf("the record of match %s: tick %d ran again with checksum %016x, not %016x (%v)", old, t, own, sum, err)
		}
		s.history = wire.AppendHistory(s.history, msg)
		s.last, rest = t, after
	}
	copy(s.prev, s.in)
	s.inputs = resumeInputs(p.Players, s.last+1, s.in)
	for i, u := range rec.Users {
		s.seats[i] = player{user: u, left: true, leftAt: s.last}
	}
	s.phase, s.resumedFrom = resuming, rec.Tick
	s.opens = s.nextOpening()
	return s, nil
}

// resumeInputs returns the inputs of a resumed match: next is the tick it
// runs next, held every player's input of the tick before; every player
// has left until it comes back.
func resumeInputs(players int, next int64, held []input.State) *Inputs {
	in := NewInputs(players)
	in.next = next
	for i := range in.seats {
		s := &in.seats[i]
		s.held, s.left, s.last = held[i], true, next-1
		s.held.ClearEdges()
	}
	return in
}

// resumeNow reports whether a resumed match plays on: every player is
// back, or ResumeWait has passed.
func (h *Handler) resumeNow(s *state, dispatcher runtime.MatchDispatcher, logger runtime.Logger) bool {
	back := 0
	for _, p := range s.seats {
		if !p.left {
			back++
		}
	}
	if back < len(s.seats) && time.Since(s.start) < ResumeWait {
		return false
	}
	s.phase = playing
	logger.Info("%s match %s (match %s resumed after tick %d): plays on after tick %d, %d of its %d players back",
		h.game.Name, s.id, s.resumeOf, s.resumedFrom, s.last, back, len(s.seats))
	dispatcher.MatchLabelUpdate(h.label(s))
	return true
}

// resumer makes each resumed match once, for the RPC "<game>_resume".
type resumer struct {
	mu      sync.Mutex
	resumed map[string]string // the id of a match resumed, by the id of the match it resumes
}

// running reports whether a match resumed from match old's record runs
// on this server.
func (r *resumer) running(ctx context.Context, nk runtime.NakamaModule, old string) bool {
	r.mu.Lock()
	id, ok := r.resumed[old]
	r.mu.Unlock()
	if !ok {
		return false
	}
	m, err := nk.MatchGet(ctx, id)
	return err == nil && m != nil
}

// registerResume registers the RPC "<game>_resume": payload {"match_id":
// id} of a match whose server was killed; answer {"match_id": id} of the
// match resumed from its record.
func registerResume(initializer runtime.Initializer, game *lockstep.Game, within time.Duration, r *resumer) error {
	return initializer.RegisterRpc(game.Name+"_resume", func(ctx context.Context, logger runtime.Logger, _ *sql.DB, nk runtime.NakamaModule, payload string) (string, error) {
		var q struct {
			Match string `json:"match_id"`
		}
		if err := json.Unmarshal([]byte(payload), &q); err != nil || q.Match == "" || len(q.Match) > 128 {
			return "", runtime.NewError(`match: resume: want {"match_id": id}`, 3)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		id, ok := r.resumed[q.Match]
		if ok { // resumed before: that match, if it still runs
			if m, err := nk.MatchGet(ctx, id); err != nil || m == nil {
				delete(r.resumed, q.Match)
				ok = false
			}
		}
		if !ok {
			objs, err := nk.StorageRead(ctx, []*runtime.StorageRead{{Collection: RunningCollection(game), Key: q.Match}})
			if err != nil {
				return "", err
			}
			if len(objs) == 0 {
				return "", runtime.NewError(fmt.Sprintf("match: no match %s of %s to resume (it ended, or its server stored none)", q.Match, game.Name), 5)
			}
			if at := objs[0].GetUpdateTime(); at != nil && time.Since(at.AsTime()) > within {
				nk.StorageDelete(ctx, []*runtime.StorageDelete{{Collection: RunningCollection(game), Key: q.Match}}) // its pieces: the sweeper's
				return "", runtime.NewError(fmt.Sprintf("match: match %s of %s stopped more than %v ago: too long to resume", q.Match, game.Name, within), 5)
			}
			if m, err := nk.MatchGet(ctx, q.Match); err == nil && m != nil {
				return "", runtime.NewError(fmt.Sprintf("match: match %s of %s is running: join it", q.Match, game.Name), 9) // FAILED_PRECONDITION
			}
			var rec struct {
				Users []string `json:"users"`
			}
			user, _ := ctx.Value(runtime.RUNTIME_CTX_USER_ID).(string)
			if json.Unmarshal([]byte(objs[0].Value), &rec) != nil || user == "" || !slices.Contains(rec.Users, user) {
				return "", runtime.NewError(fmt.Sprintf("match: you did not play match %s of %s: only its players resume it", q.Match, game.Name), 7) // PERMISSION_DENIED
			}
			if id, err = nk.MatchCreate(ctx, game.Name, map[string]any{"resume": q.Match}); err != nil {
				return "", err
			}
			r.resumed[q.Match] = id
		}
		b, _ := json.Marshal(map[string]string{"match_id": id})
		return string(b), nil
	})
}

// sweeper removes the records of a game's matches that no player resumed
// within their time (the matches of a killed server that were not asked
// for), and the pieces of their histories that no record kept counts (a
// match resumed from one counts them too). A record a match of this
// server was resumed from stays while that match runs: it removes the
// record once it has written its own. The sweep runs as a match is made,
// at most once every such time, from a goroutine of its own: a match is
// never made later for it.
type sweeper struct {
	last    atomic.Int64
	resumes *resumer
}

// maybe sweeps, unless a sweep ran less than within ago.
func (sw *sweeper) maybe(nk runtime.NakamaModule, logger runtime.Logger, game *lockstep.Game, within time.Duration) {
	now, last := time.Now().UnixNano(), sw.last.Load()
	if last != 0 && now-last < int64(within) || !sw.last.CompareAndSwap(last, now) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		type listed struct {
			del   *runtime.StorageDelete
			runs  []pieceRun
			stale bool
		}
		var recs []listed
		for cursor := ""; ; {
			objs, next, err := nk.StorageList(ctx, "", "", RunningCollection(game), 100, cursor)
			if err != nil {
				logger.Warn("%s: sweeping the records of matches no one resumed: %v", game.Name, err)
				return
			}
			for _, o := range objs {
				at := o.GetUpdateTime()
				stale := at != nil && time.Since(at.AsTime()) > within && !sw.resumes.running(ctx, nk, o.Key)
				recs = append(recs, listed{&runtime.StorageDelete{Collection: o.Collection, Key: o.Key, UserID: o.UserId}, recordRuns(o.Value), stale})
			}
			if next == "" || len(objs) == 0 {
				break
			}
			cursor = next
		}
		counted := map[string]bool{} // the matches whose pieces a record kept counts
		for _, r := range recs {
			for _, run := range r.runs {
				counted[run.ID] = counted[run.ID] || !r.stale
			}
		}
		removed, pieces := 0, 0
		for _, r := range recs {
			if !r.stale {
				continue
			}
			del, ids := []*runtime.StorageDelete{r.del}, []string(nil)
			for _, run := range r.runs {
				if !counted[run.ID] {
					del, ids = append(del, pieceDeletes(game, []pieceRun{run})...), append(ids, run.ID)
				}
			}
			if err := nk.StorageDelete(ctx, del); err != nil { // the record with its pieces, or neither
				logger.Warn("%s: sweeping the record of match %s no one resumed: %v", game.Name, r.del.Key, err)
				continue
			}
			for _, id := range ids { // removed: once
				counted[id] = true
			}
			removed, pieces = removed+1, pieces+len(del)-1
		}
		if removed > 0 {
			logger.Info("%s: removed the records of %d matches no one resumed within %v, and %d pieces of their histories", game.Name, removed, within, pieces)
		}
	}()
}
