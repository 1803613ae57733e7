package match

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// Register registers game's matches with a Nakama server (from the
// plugin's InitModule) under the game's name, and five RPCs for clients:
//
//   - "<name>_create", payload Params (JSON): makes a match, and returns
//     {"match_id": id}. Bad params are refused with an error that names them.
//   - "<name>_find", payload {"players": n, "seconds": s}: returns an open
//     match of the game's version for n players, or makes one of s seconds
//     (0 or absent: DefaultSeconds), as {"match_id": id}. A match waiting
//     for its players comes first, then one under way with a seat its
//     player left (see SeatHeld).
//   - "<name>_stats", payload {"match_id": id}: returns the match's Stats.
//   - "<name>_kept", payload {"match_id": id}: returns the match as the
//     server kept it once it ended (wire.Kept; see KeptCollection), for a
//     client to play again.
//   - "<name>_resume", payload {"match_id": id}: resumes a match under way
//     when its server was killed, from its record (see RunningCollection),
//     and returns {"match_id": id} of the match resumed.
func Register(initializer runtime.Initializer, game *lockstep.Game) error {
	return RegisterWith(initializer, game, Options{})
}

// Options configure a game's matches on a server (RegisterWith); the zero
// value is Register's.
type Options struct {
	// NoRecords: the matches store no record for a resume (resume.go): a
	// server killed loses its matches under way. They still keep their
	// game's state for the players who join under way, and are kept when
	// they end. The plugin sets it from Nakama's runtime environment
	// (--runtime.env fixedstep_records=off).
	NoRecords bool

	// ResumeWithin, when positive, replaces the package's ResumeWithin:
	// how long after its last write a match's record may be resumed, and
	// after which it is swept away: more than twice PersistEvery, so that
	// no running match's record is. The plugin sets it from Nakama's
	// runtime environment (--runtime.env fixedstep_resume_within=2m).
	ResumeWithin time.Duration

	// PieceBytes, when positive, replaces PieceBytes: the least a piece of
	// a running match's history holds (pieces.go), MinPieceBytes at least. Smaller pieces lose
	// less of a long match's record writes to the history, at more
	// storage objects a match. The plugin sets it from Nakama's runtime
	// environment (--runtime.env fixedstep_piece_bytes=65536).
	PieceBytes int
}

// pieceBytes is opts.PieceBytes, or the package's.
func (o Options) pieceBytes() int {
	if o.PieceBytes > 0 {
		return max(o.PieceBytes, MinPieceBytes)
	}
	return PieceBytes
}

// resumeWithin is opts.ResumeWithin, or the package's.
func (o Options) resumeWithin() time.Duration {
	if o.ResumeWithin > 0 {
		return o.ResumeWithin
	}
	return ResumeWithin
}

// RegisterWith is Register with options.
func RegisterWith(initializer runtime.Initializer, game *lockstep.Game, opts Options) error {
	seats := &finder{handed: map[string]*handout{}}
	if game.MaxPlayers < 1 || game.MaxPlayers > input.MaxPlayers || game.Hz < 1 || game.Hz > 60 {
		return fmt.Errorf("match: %s: %d players at %d Hz: a match has 1 to %d players (the engine's input.MaxPlayers) at 1 to 60 Hz (Nakama's limit)",
			game.Name, game.MaxPlayers, game.Hz, input.MaxPlayers)
	}
	resumes := &resumer{resumed: map[string]string{}}
	sw := &sweeper{resumes: resumes}
	err := initializer.RegisterMatch(game.Name, func(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule) (runtime.Match, error) {
		h := NewHandler(game)
		h.opts = opts
		if !opts.NoRecords {
			sw.maybe(nk, logger, game, opts.resumeWithin())
		}
		return h, nil
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
		id, err := seats.find(ctx, nk, game, q.Players, func() (string, error) {
			answer, err := create(ctx, nk, Params{Players: q.Players, Seconds: q.Seconds})
			if err != nil {
				return "", err
			}
			var r struct {
				Match string `json:"match_id"`
			}
			json.Unmarshal([]byte(answer), &r)
			return r.Match, nil
		})
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(map[string]string{"match_id": id})
		return string(b), nil
	})
	if err != nil {
		return err
	}
	if err := registerKept(initializer, game); err != nil {
		return err
	}
	if err := registerResume(initializer, game, opts.resumeWithin(), resumes); err != nil {
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

// A finder hands out the seats of open matches to the callers of the find
// RPC. Nakama's match listing sees a new match, and a label's change, only
// once its index is next updated (up to a second later), so the finder
// remembers the seats it handed out for ReserveTimeout: two players who
// ask at once get one match, and a third who asks for a match of two gets
// another. (The server's own join rules still hold: a seat handed out
// twice is refused to the second comer.)
type finder struct {
	mu     sync.Mutex
	handed map[string]*handout // by match id
}

// handout counts the seats of a match handed out.
type handout struct {
	players, n int
	until      time.Time
}

// find returns the id of an open match of game for players, handing out
// one of its seats, or of a match create makes.
func (f *finder) find(ctx context.Context, nk runtime.NakamaModule, game *lockstep.Game, players int, create func() (string, error)) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	for id, h := range f.handed {
		if now.After(h.until) {
			delete(f.handed, id)
		}
	}
	for id, h := range f.handed { // the newest matches: the listing may not show them yet
		if h.players == players && h.n < players {
			h.n++
			return id, nil
		}
	}
	query := fmt.Sprintf("+label.game:%s +label.version:%s +label.open:T +label.players:%d", game.Name, game.Version, players)
	found, err := nk.MatchList(ctx, 10, true, "", nil, nil, query)
	if err != nil {
		return "", err
	}
	for _, playing := range []bool{false, true} { // the players waiting first
		for _, m := range found {
			if f.handed[m.MatchId] != nil {
				continue // every seat handed out, as above
			}
			var l Label
			if json.Unmarshal([]byte(m.GetLabel().GetValue()), &l) != nil || l.Free < 1 || l.Playing != playing {
				continue
			}
			f.handed[m.MatchId] = &handout{players: players, n: players - l.Free + 1, until: now.Add(ReserveTimeout)}
			return m.MatchId, nil
		}
	}
	id, err := create()
	if err != nil {
		return "", err
	}
	f.handed[id] = &handout{players: players, n: 1, until: now.Add(ReserveTimeout)}
	return id, nil
}
