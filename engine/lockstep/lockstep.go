// Package lockstep runs a game's simulation one tick at a time, with every
// player's input given for each tick and final: the way an authoritative
// server runs a match, and the way its clients check it.
//
// A [Runner] runs the engine's loop (engine.Run, headless, on a manual
// clock) as a coroutine: each call to [Runner.Step] hands it the players'
// input for the next tick of the first rate group, lets it run exactly that
// tick, and returns the state checksum after it. The loop's source of input
// is a [engine.Session] whose every input is confirmed: nothing is
// predicted and nothing is rolled back, so the run is the run a recording of
// those inputs replays to. The server decides each tick's inputs and steps
// its Runner; a client steps its own with the inputs the server broadcast
// and compares checksums.
//
//	r, err := lockstep.New(&arena.Scene{Options: arena.Options{Seed: 1}}, lockstep.Options{Players: 2})
//	tick, sum, err := r.Step(inputs) // inputs[p]: player p's input for the tick
//	r.Close()
//
// A Runner is used from one goroutine at a time. From New on, and between
// two calls to Step, the scene's world may be read from that goroutine (the
// scene waits inside the loop, not running): a bot reads the first scene,
// built by New, for tick 1's input as an engine.TickInput would. Once the
// run has ended (Step returned ErrDone, or the tick Options.Ticks), its
// last scene has released its world.
//
// A bot's held input becomes a tick's input with the presses and releases
// since the player's input of the tick before, as a server derives them:
//
//	for p := range in {
//		prev := in[p]
//		in[p] = input.State{}
//		bot(p, &in[p])
//		in[p].DeriveEdges(&prev)
//	}
package lockstep

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// Options configure a Runner.
type Options struct {
	// Players is how many players play: 1 to input.MaxPlayers.
	Players int

	// Ticks, when positive, ends the run after that many ticks of the
	// first group, counted across its scenes: Step then returns ErrDone.
	// (engine.Options.StopAt sums each scene's game time, each rounded
	// down to the nanosecond, and can run a tick more per scene change.)
	Ticks int64

	// Record, if set, receives the run (engine.Options.Record): a file of
	// it replays alone, every tick's checksum checked.
	Record *engine.InputLog

	// From, if set, is a state of the run's first scene (Runner.AppendState
	// of a run of the same game, settings and players, in this process or
	// another, on any CPU) that the run begins from: the first Step runs the
	// tick after the state's (engine.Options.FromState). Not with Record.
	From []byte

	// Game names the game in the states AppendState writes, and From must
	// be of it (engine.Options.Game).
	Game engine.GameInfo
}

// ErrDone is returned by Step once the run has ended: the scene chain
// ended, or Options.Ticks ran. Err says whether it ended with an error.
var ErrDone = errors.New("sim: the run has ended")

// A Runner runs a scene chain tick by tick (see the package doc).
type Runner struct {
	session *session
	loop    *engine.Loop // the run's, once it has delivered an event
	next    func() (int64, bool)
	stop    func()
	cancel  context.CancelFunc
	ended   bool
	timeUp  bool  // Options.Ticks ran: the run was stopped
	err     error // what the run ended with
}

// New starts a run of the scene chain that begins with first. The scene
// must give the loop its state checksum (Recording.SetChecksum) and its state
// (Recording.SetSceneState): a networked run needs both. New runs the loop up
// to its first tick: the first scene is built, and waits for Step to give
// tick 1's input.
func New(first engine.Scene, opts Options) (*Runner, error) {
	if opts.Players < 1 || opts.Players > input.MaxPlayers {
		return nil, fmt.Errorf("sim: %d players: a run has 1 to %d", opts.Players, input.MaxPlayers)
	}
	if first == nil {
		return nil, engine.ErrNilScene
	}
	var from int64 // the tick the run begins after
	if opts.From != nil {
		info, err := engine.ParseStateInfo(opts.From)
		if err != nil {
			return nil, fmt.Errorf("sim: Options.From: %w", err)
		}
		from = info.Tick
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{session: &session{players: opts.Players, last: from}, cancel: cancel}
	eo := &engine.Options{
		Context:   ctx,
		Session:   r.session,
		Record:    opts.Record,
		FromState: opts.From,
		Game:      opts.Game,
		Headless:  &engine.Headless{FPS: engine.DefaultHz},
		OnEvent:   []engine.EventHook{func(loop *engine.Loop, _ engine.Event) { r.loop = loop }},
	}
	if opts.Ticks > 0 {
		eo.OnEvent = append(eo.OnEvent, func(loop *engine.Loop, ev engine.Event) {
			if ev.Kind == engine.Update && ev.Group == 0 && r.session.last >= opts.Ticks {
				r.timeUp = true
				loop.Stop() // after this tick, its checksum taken
			}
		})
	}
	r.next, r.stop = iter.Pull(func(yield func(int64) bool) {
		r.session.yield = yield
		r.err = engine.Run(first, eo)
	})
	if _, ok := r.next(); !ok { // the run ended before its first tick
		r.ended = true
	}
	return r, nil
}

// Step runs the next tick with in[p] as player p's input (len(in) must be
// the number of players; edges and all, as the tick is to see it) and
// returns the tick's number (1, 2, ... across the run's scenes: the
// session's) and the state checksum after it. Once the run has ended it
// returns ErrDone, or the error the run ended with.
func (r *Runner) Step(in []input.State) (tick int64, sum uint64, err error) {
	if r.ended {
		return 0, 0, r.doneErr()
	}
	if len(in) != r.session.players {
		return 0, 0, fmt.Errorf("sim: Step: %d inputs for %d players", len(in), r.session.players)
	}
	s := r.session
	copy(s.pending[:], in)
	s.given = true
	s.summed = false
	if _, ok := r.next(); !ok {
		r.ended = true
		if s.given { // the run ended before it took this tick's input
			return 0, 0, r.doneErr()
		}
	}
	if !s.summed {
		if r.ended {
			return 0, 0, r.doneErr()
		}
		return 0, 0, fmt.Errorf("sim: tick %d ran without a state checksum (Recording.SetChecksum)", s.last)
	}
	return s.last, s.sum, nil
}

// Done reports whether the run has ended (Step returns ErrDone or the
// run's error from then on).
func (r *Runner) Done() bool { return r.ended }

// TimeUp reports whether the run ended because Options.Ticks ran, rather
// than its scene chain ending.
func (r *Runner) TimeUp() bool { return r.ended && r.timeUp }

// Err returns the error the run ended with: nil while it runs and when it
// ended well (its scene chain ended, or Options.Ticks ran).
func (r *Runner) Err() error { return r.err }

func (r *Runner) doneErr() error {
	if r.err != nil {
		return r.err
	}
	return ErrDone
}

// Tick returns the last tick run.
func (r *Runner) Tick() int64 { return r.session.last }

// AppendState appends the run's state after its last tick to b, as a state
// file (engine.Recording.AppendState) that Options.From begins another run
// from: a server stores it to resume the match, or sends it to a player
// who joins the match under way. Call it between two Steps, once one has
// run. The run's scene must write its state as bytes (stage.Stage's
// does), and still be the first scene (Options.From begins only from
// one).
func (r *Runner) AppendState(b []byte) ([]byte, error) {
	if r.ended || r.loop == nil {
		return b, errors.New("sim: AppendState: the run has not run a tick, or has ended")
	}
	if scene, name := r.loop.Scene(); scene != 1 {
		return b, fmt.Errorf("sim: AppendState: the run is in its scene %d (%s): a run begins only from a state of its first", scene, name)
	}
	return r.loop.Recording().AppendState(b)
}

// Close ends the run where it is, if it has not ended. It returns the
// error the run ended with, a cancellation aside.
func (r *Runner) Close() error {
	if !r.ended {
		r.cancel()
		r.session.closing = true
		r.stop()
		r.ended = true
		if errors.Is(r.err, context.Canceled) {
			r.err = nil
		}
	}
	r.cancel()
	return r.err
}

// session is the loop's engine.Session: every input confirmed, given by
// Step one tick at a time.
type session struct {
	players int
	yield   func(int64) bool
	pending [input.MaxPlayers]input.State
	given   bool   // pending holds the next tick's input
	closing bool   // Close: the loop is to stop
	last    int64  // the last tick whose input was taken
	sum     uint64 // the state checksum after it
	summed  bool
}

func (s *session) Players() int { return s.players }

// Poll ends the run when the runner is closed.
func (s *session) Poll() error {
	if s.closing {
		return context.Canceled
	}
	return nil
}

func (s *session) Hold() bool { return false }

// Ready hands control back to Step's caller until it gives tick t's input.
func (s *session) Ready(t int64) bool {
	if !s.given && (s.closing || !s.yield(t)) {
		s.closing = true
		return false
	}
	return s.given && !s.closing
}

// Local is the local player's sampled input: the runner has none, every
// input comes from Step.
func (s *session) Local(int64, *input.State) {}

func (s *session) Inputs(t int64, players []input.State) {
	copy(players, s.pending[:len(players)])
	s.given = false
	s.last = t
}

func (s *session) Rollback() (int64, bool) { return 0, false }

// Discard does nothing: the server's ticks are never rolled back
// (engine.Session).
func (s *session) Discard(int64) {}

// Confirmed is the last tick whose input is known: the one Step gave, once
// given.
func (s *session) Confirmed() int64 {
	if s.given {
		return s.last + 1
	}
	return s.last
}

func (s *session) Checksum(t int64, sum uint64) {
	if t == s.last {
		s.sum, s.summed = sum, true
	}
}

func (s *session) EndFrame() error { return nil }
