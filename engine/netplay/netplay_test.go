package netplay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// arena is a small game of up to four players: each moves a puck by its
// stick and keys, pucks bounce off each other and the walls, and a press
// of Space by any player kicks every puck at the next 10 Hz tick.
type arena struct {
	x, y, vx, vy [input.MaxPlayers]float64
	kicks        int
	bounces      int
	n            int
	ended        bool
}

func (a *arena) update(ev engine.Event) {
	if ev.Group == 1 {
		for p := range ev.Players {
			if ev.Player(p).KeyPressed(input.KeySpace) {
				a.kicks++
				for q := range a.n {
					a.vx[q] += 30 * math.Cos(float64(a.kicks+q))
				}
			}
		}
		return
	}
	for p := range a.n {
		in := ev.Player(p)
		a.vx[p] += 200 * in.GamepadAxis(0, input.AxisLeftStickHorizontal) * ev.DT
		if in.KeyDown(input.KeyArrowUp) {
			a.vy[p] -= 150 * ev.DT
		}
		a.vx[p], a.vy[p] = a.vx[p]*0.99, a.vy[p]*0.99+20*ev.DT
		a.x[p] += a.vx[p] * ev.DT
		a.y[p] += a.vy[p] * ev.DT
		if a.x[p] < 0 || a.x[p] > 300 {
			a.vx[p], a.bounces = -a.vx[p], a.bounces+1
		}
		if a.y[p] < 0 || a.y[p] > 200 {
			a.vy[p], a.bounces = -a.vy[p], a.bounces+1
		}
		for q := p + 1; q < a.n; q++ {
			if dx, dy := a.x[q]-a.x[p], a.y[q]-a.y[p]; dx*dx+dy*dy < 100 {
				a.vx[p], a.vx[q] = a.vx[q], a.vx[p]
				a.bounces++
			}
		}
	}
}

func (a *arena) checksum() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for p := range a.n {
		mix(math.Float64bits(a.x[p]))
		mix(math.Float64bits(a.y[p]))
		mix(math.Float64bits(a.vx[p]))
		mix(math.Float64bits(a.vy[p]))
	}
	mix(uint64(a.kicks))
	mix(uint64(a.bounces))
	return h
}

// arenaState is an arena as an engine.SceneState.
type arenaState struct {
	a     *arena
	slots map[int]arena
	pad   []byte // bytes its state carries after the arena's (gameWith)
}

func (k *arenaState) SaveState(slot int) error    { k.slots[slot] = *k.a; return nil }
func (k *arenaState) RestoreState(slot int) error { *k.a = k.slots[slot]; return nil }

// AppendState and ReadState make the arena's state bytes
// (engine.StateWriter), for a joiner under way to begin from.
func (k *arenaState) AppendState(b []byte) ([]byte, error) {
	a := k.a
	for _, v := range [][input.MaxPlayers]float64{a.x, a.y, a.vx, a.vy} {
		for _, f := range v {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	for _, n := range []int{a.kicks, a.bounces, a.n} {
		b = binary.AppendVarint(b, int64(n))
	}
	return append(b, k.pad...), nil
}

func (k *arenaState) ReadState(b []byte) error {
	var a arena
	for _, v := range []*[input.MaxPlayers]float64{&a.x, &a.y, &a.vx, &a.vy} {
		for i := range v {
			if len(b) < 8 {
				return errors.New("arena: a state cut short")
			}
			v[i], b = math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:]
		}
	}
	for _, n := range []*int{&a.kicks, &a.bounces, &a.n} {
		v, size := binary.Varint(b)
		if size <= 0 {
			return errors.New("arena: a state cut short")
		}
		*n, b = int(v), b[size:]
	}
	if !bytes.Equal(b, k.pad) || a.n != k.a.n {
		return errors.New("arena: a state of another arena")
	}
	*k.a = a
	return nil
}

// game is the arena scene; the run's last checksum is kept in final.
func game(final *uint64) engine.Scene { return gameWith(final, nil) }

// gameWith is game whose state's bytes carry pad after the arena's.
func gameWith(final *uint64, pad []byte) engine.Scene {
	return engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
		a := &arena{n: loop.Players()}
		for p := range a.n {
			a.x[p], a.y[p] = float64(40+60*p), 100
		}
		loop.Recording().SetChecksum(a.checksum)
		loop.Recording().SetSceneState(&arenaState{a: a, slots: map[int]arena{}, pad: pad})
		loop.Recording().SetStateDump(a.dump)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "kicks", Hz: 10}) {
			if ev.Kind == engine.Update {
				a.update(ev)
				*final = a.checksum()
			}
		}
		return nil, loop.Err()
	})
}

// dump writes the arena as text (Recording.SetStateDump).
func (a *arena) dump(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%+v\n", *a)
	return err
}

// pilot is player p's autopilot: its stick and keys by tick.
func pilot(p int) engine.TickInput {
	return engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, math.Sin(float64(t.Tick*int64(p+2))/40))
		in.SetKey(input.KeyArrowUp, (t.Tick/int64(20+7*p))%2 == 0)
		in.SetKey(input.KeySpace, t.Tick%int64(45+11*p) == 0)
	})
}

// peerRun is what one peer's run ended with.
type peerRun struct {
	final    uint64
	rec      *engine.InputLog
	err      error
	stats    engine.SessionStats
	net      netplay.Stats
	session  *netplay.Session
	vanished bool
	joinTook time.Duration // from its Join (or Spectate) to its session, when it joined under way
}

// setup is a session to play: its players, its link, how long, and hooks
// for what goes wrong.
type setup struct {
	// lobby, if set, is told the lobby's address once it waits for
	// joiners, before anyone joins.
	lobby func(addr net.Addr)
	// joinAt, if set, returns the address the others join instead of the
	// lobby's (a relay in front of it).
	joinAt func(lobby net.Addr) string

	players  int
	link     *netsim.Link
	realtime bool
	seconds  float64
	// game makes peer i's first scene (nil: game).
	game func(i int, final *uint64) engine.Scene
	// afterUpdate, if set, is called on peer i after every Update event.
	afterUpdate func(i int, r *peerRun, l *engine.Loop, ev engine.Event)
	// started, if set, is told the host's session once it runs.
	started    func(host *netplay.Session)
	timeout    time.Duration // a silent peer's (0: the default)
	spectators int           // joining before the players
	// lateAt, when positive, has one more spectator join once the host
	// has run that many ticks: a session under way. It begins from the
	// host's state with lateFromState, else from the first tick.
	lateAt        int64
	lateFromState bool
	seatWait      time.Duration // the host's Config.SeatWait
	sparse        bool          // every peer's Options.SparseSaving
}

// play runs a session on 127.0.0.1 for seconds of game time, each peer
// headless in a goroutine of its own (in real time, or as fast as it
// runs), through the link when there is one.
func play(t testing.TB, su setup) []*peerRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: su.players, Seed: 5, Link: su.link,
		Log: testLog{t}, Timeout: su.timeout}
	hcfg := cfg
	hcfg.SeatWait = su.seatWait
	lobby, err := netplay.Listen(hcfg)
	if err != nil {
		t.Fatal(err)
	}
	joinAt := lobby.Addr().String()
	if su.joinAt != nil {
		joinAt = su.joinAt(lobby.Addr())
	}
	lobbyDone := make(chan struct{})
	go func() {
		if su.lobby != nil {
			su.lobby(lobby.Addr())
		}
		close(lobbyDone)
	}()
	runs := make([]*peerRun, su.players+su.spectators)
	late := make(chan struct{})
	var lateOnce sync.Once
	if su.lateAt > 0 {
		runs = append(runs, nil)
	}
	var wg sync.WaitGroup
	for i := range runs {
		runs[i] = &peerRun{rec: &engine.InputLog{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runs[i]
			var s *netplay.Session
			if i == 0 {
				s, r.err = lobby.Wait(ctx)
				<-lobbyDone // long done (the others joined after it): what the hook set is seen
				if r.err == nil && su.started != nil {
					su.started(s)
				}
			} else {
				c := cfg
				c.Addr = joinAt
				<-lobbyDone
				switch {
				case i < su.players:
					time.Sleep(time.Duration(su.spectators) * 100 * time.Millisecond) // the spectators first
					s, r.err = netplay.Join(ctx, c)
				case i < su.players+su.spectators:
					s, r.err = netplay.Spectate(ctx, c)
				default: // the late spectator
					<-late
					c.FromFirstTick = !su.lateFromState
					began := time.Now()
					s, r.err = netplay.Spectate(ctx, c)
					r.joinTook = time.Since(began)
				}
			}
			if r.err != nil {
				return
			}
			r.session = s
			opts := &engine.Options{Session: s, TickInput: pilot(s.Player()), Record: r.rec, Game: arenaGame, SparseSaving: su.sparse,
				Headless: &engine.Headless{Realtime: su.realtime}, StopAt: time.Duration(su.seconds * float64(time.Second)),
				OnFinish: []engine.FinishHook{func(l *engine.Loop) { r.stats = l.Session().Stats() }}}
			if s.State() != nil { // a run from the host's state has no recording from the first tick
				opts.FromState, opts.Record, r.rec = s.State(), nil, nil
			}
			opts.AfterUpdate = []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
				if i == 0 && su.lateAt > 0 && ev.Group == 0 && ev.Tick >= su.lateAt {
					lateOnce.Do(func() { close(late) })
				}
				if su.afterUpdate != nil {
					su.afterUpdate(i, r, l, ev)
				}
			}}
			first := game(&r.final)
			if su.game != nil {
				first = su.game(i, &r.final)
			}
			r.err = engine.Run(first, opts)
			if i == 0 {
				lateOnce.Do(func() { close(late) }) // the host's run ended first: the late spectator finds it gone
			}
			if r.vanished {
				return
			}
			if cerr := s.Close(); r.err == nil {
				r.err = cerr
			}
			r.net = s.Stats()
		}()
	}
	wg.Wait()
	return runs
}

// arenaGame names the arena in its runs' states.
var arenaGame = engine.GameInfo{Name: "arena", Version: "1"}

// testLog writes a session's log lines to the test's log.
type testLog struct{ t testing.TB }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// replay replays a peer's recording alone and returns its last checksum.
func replay(t *testing.T, rec *engine.InputLog) uint64 {
	t.Helper()
	var final uint64
	if err := engine.Run(game(&final), &engine.Options{Replay: rec, Headless: &engine.Headless{FPS: 41}}); err != nil {
		t.Fatal(err)
	}
	if !rec.Replayed().Finished {
		t.Fatalf("the replay stopped short: %+v", rec.Replayed())
	}
	return final
}

// Two and four peers in one process, over UDP on 127.0.0.1, as fast as
// they run and in real time through a link of 40 ms, 5 ms of jitter and 2%
// loss (the last with Options.SparseSaving), and a spectator: every peer
// ends on the same state, the one its recording replays to alone; the
// spectator never rolls back.
func TestPeersEndAlike(t *testing.T) {
	for _, c := range []struct {
		players  int
		link     *netsim.Link
		realtime bool
		sparse   bool
	}{
		{2, nil, false, false},
		{4, nil, false, false},
		{2, &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 3}, true, false},
		{3, &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 4}, true, false},
		{3, &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 5}, true, true},
	} {
		name := fmt.Sprintf("%d players, link %v, real time %v, sparse saving %v", c.players, c.link != nil, c.realtime, c.sparse)
		runs := play(t, setup{players: c.players, link: c.link, realtime: c.realtime, seconds: 3, spectators: 1, sparse: c.sparse})
		for i, r := range runs {
			if r.err != nil {
				t.Errorf("%s: peer %d: %v", name, i+1, r.err)
			}
		}
		for i, r := range runs {
			if r.err != nil {
				t.Fatalf("%s: peer %d: %v", name, i+1, r.err)
			}
			if r.final != runs[0].final {
				t.Fatalf("%s: peer %d ended on %x, the host on %x", name, i+1, r.final, runs[0].final)
			}
			if got := replay(t, r.rec); got != r.final {
				t.Fatalf("%s: peer %d's recording replays to %x, it ended on %x", name, i+1, got, r.final)
			}
			if i >= c.players && (r.session.Player() != -1 || r.stats.Rollbacks != 0) {
				t.Fatalf("%s: the spectator is player %d and rolled back %d times", name, r.session.Player(), r.stats.Rollbacks)
			}
			t.Logf("%s: peer %d: %+v; sent %d packets, %d bytes; dropped %d; rtt %v", name, i+1, r.stats,
				r.net.PacketsSent, r.net.BytesSent, r.net.DroppedTotal(), r.net.RTT)
		}
	}
}

// A spectator that joins a session under way is sent every player's
// input from the first tick (from the host's history once the queue's
// ring no longer holds it), simulates the game from its start, catching
// up as fast as its loop may, and ends on the players' state; its
// recording replays alone to it. In real time, through a bad link, joining
// at the thirteenth second, after the ring's first tick.
func TestSpectatorJoinsUnderWay(t *testing.T) {
	link := &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 9}
	runs := play(t, setup{players: 2, link: link, realtime: true, seconds: 14, lateAt: 780})
	late := runs[len(runs)-1]
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
		t.Logf("peer %d: %+v; received %d bytes", i+1, r.stats, r.net.BytesReceived)
	}
	if late.session.Player() != -1 || late.stats.Rollbacks != 0 || late.stats.CaughtUp == 0 {
		t.Fatalf("the late spectator: player %d, %+v: want a spectator that caught up", late.session.Player(), late.stats)
	}
	if got := replay(t, late.rec); got != late.final {
		t.Fatalf("the late spectator's recording replays to %x, it ended on %x", got, late.final)
	}
}
