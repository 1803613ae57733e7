package netplay_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// A spectator that comes late to a session past its first scene, which
// does not make the scene afresh (its SceneMaker says no), is given no
// state: it simulates the session from its first tick, and ends on the
// players' state.
func TestSpectatorPastASceneNotMadeAfresh(t *testing.T) {
	menu := func(_ int, final *uint64) engine.Scene { return menuFirst{final: final, none: true} }
	runs := play(t, setup{players: 2, realtime: true, seconds: 8, lateAt: 100, lateFromState: true, game: menu})
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final || r.final == 0 {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
	}
	if late := runs[len(runs)-1]; late.session.State() != nil {
		t.Fatal("the late spectator was given a state of a scene the first does not make")
	}
}

// A spectator that joins a session under way begins from the host's
// state: it simulates none of the ticks before it, and ends on the
// players' state. With Options.SparseSaving too (the state of the last
// final tick whose state is kept, up to SparseInterval ticks earlier).
func TestSpectatorJoinsUnderWayFromState(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		link := &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 10}
		runs := play(t, setup{players: 2, link: link, realtime: true, seconds: 6, lateAt: 200, lateFromState: true, sparse: sparse})
		late := runs[len(runs)-1]
		for i, r := range runs {
			if r.err != nil {
				t.Fatalf("sparse saving %v: peer %d: %v", sparse, i+1, r.err)
			}
			if r.final != runs[0].final {
				t.Fatalf("sparse saving %v: peer %d ended on %x, the host on %x", sparse, i+1, r.final, runs[0].final)
			}
		}
		from := int64(200) // the host's tick when the spectator comes, about
		if sparse {
			from -= engine.SparseInterval // the last state kept
		}
		info, err := engine.ParseStateInfo(late.session.State())
		if err != nil || info.Tick < from || late.session.Player() != -1 || late.stats.Rollbacks != 0 {
			t.Fatalf("sparse saving %v: the late spectator: player %d, %+v, its state: %+v, %v: want a spectator from a state after tick %d",
				sparse, late.session.Player(), late.stats, info, err, from)
		}
		t.Logf("sparse saving %v: the late spectator began from tick %d (%d bytes, %d in the file)", sparse, info.Tick, info.Bytes, info.FileBytes)
	}
}

// rejoinRun is one peer's run in a rejoin test.
type rejoinRun struct {
	s     *netplay.Session
	final uint64
	first int64 // the first tick it ran
	rec   *engine.InputLog
	err   error
}

// rejoin plays a session of three in real time through a bad link: player
// 2 vanishes (no goodbye) at the Arena's tick 120, and once the host has
// found it silent a new run joins in its place, from the host's state or
// (fromStart) from the first tick. With menu, the game begins with a Menu
// (menuFirst) that hands on to the Arena. It returns the host's run,
// player 3's, the rejoiner's and the host's log.
func rejoin(t *testing.T, fromStart, menu bool) (host, third, back *rejoinRun, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var hostLog syncLog
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 3, Seed: 5, Timeout: time.Second,
		Link: &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 11}}
	hcfg := cfg
	hcfg.SeatWait, hcfg.Log = 20*time.Second, &hostLog
	lobby, err := netplay.Listen(hcfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr, cfg.Log = lobby.Addr().String(), testLog{t}
	const seconds = 8
	run := func(r *rejoinRun, stopAt int64) {
		opts := &engine.Options{Session: r.s, TickInput: pilot(r.s.Player()), Game: arenaGame, Record: r.rec, FromState: r.s.State(),
			Headless: &engine.Headless{Realtime: true}, StopAt: seconds * time.Second}
		if opts.FromState != nil {
			opts.Record = nil
		}
		opts.AfterUpdate = []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
			if ev.Group == 0 && r.first == 0 {
				r.first = ev.Tick
			}
			if ev.Group == 0 && ev.Tick == stopAt && !l.Session().Resimulating() {
				r.s.Vanish()
				l.Stop()
			}
		}}
		var first engine.Scene = game(&r.final)
		if menu {
			first = menuFirst{final: &r.final}
		}
		r.err = engine.Run(first, opts)
		if stopAt == 0 {
			if err := r.s.Close(); r.err == nil {
				r.err = err
			}
		}
	}
	host, third, back = &rejoinRun{}, &rejoinRun{}, &rejoinRun{rec: &engine.InputLog{}}
	gone := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(4)
	go func() {
		defer wg.Done()
		if host.s, host.err = lobby.Wait(ctx); host.err == nil {
			run(host, 0)
		}
	}()
	for i, r := range []*rejoinRun{{}, third} {
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 100 * time.Millisecond) // player 2 first
			if r.s, r.err = netplay.Join(ctx, cfg); r.err != nil {
				return
			}
			if i == 0 {
				run(r, 120)
				close(gone)
				return
			}
			run(r, 0)
		}()
	}
	go func() {
		defer wg.Done()
		<-gone
		for !strings.Contains(hostLog.String(), "seat waits") {
			time.Sleep(20 * time.Millisecond)
		}
		c := cfg
		c.FromFirstTick = fromStart
		if back.s, back.err = netplay.Join(ctx, c); back.err == nil {
			run(back, 0)
		}
	}()
	wg.Wait()
	return host, third, back, hostLog.String()
}

// syncLog is a log written by one goroutine and read by another.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(b)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A player who vanishes from a session of three, its seat kept for it by
// the host (Config.SeatWait), joins it again and takes the seat back:
// from the host's state, or from the first tick with every input. The
// others play on meanwhile, its input empty; every run ends on the same
// state, and a rejoiner's recording from the first tick replays to it.
func TestRejoin(t *testing.T) {
	for _, fromStart := range []bool{false, true} {
		host, third, back, log := rejoin(t, fromStart, false)
		for name, r := range map[string]*rejoinRun{"the host": host, "player 3": third, "the rejoiner": back} {
			if r.err != nil {
				t.Fatalf("from the first tick %v: %s: %v\nthe host's log:\n%s", fromStart, name, r.err, log)
			}
		}
		if third.final != host.final || back.final != host.final {
			t.Fatalf("from the first tick %v: the host ended on %x, player 3 on %x, the rejoiner on %x", fromStart, host.final, third.final, back.final)
		}
		if back.s.Player() != 1 {
			t.Fatalf("the rejoiner took player %d's seat, want player 2's", back.s.Player()+1)
		}
		for _, says := range []string{"player 2's seat waits", "player 2 joined again"} {
			if !strings.Contains(log, says) {
				t.Errorf("from the first tick %v: the host's log says nothing of %q:\n%s", fromStart, says, log)
			}
		}
		if fromStart {
			if back.s.State() != nil || back.first != 1 {
				t.Fatalf("from the first tick: the rejoiner has a state, and its first tick was %d", back.first)
			}
			if got := replay(t, back.rec); got != back.final {
				t.Fatalf("the rejoiner's recording replays to %x, it ended on %x", got, back.final)
			}
			continue
		}
		info, err := engine.ParseStateInfo(back.s.State())
		if err != nil || info.Tick < 100 || back.first != info.Tick+1 { // a state of about when player 2 vanished, at tick 120
			t.Fatalf("the rejoiner's state: %+v, %v; its first tick %d", info, err, back.first)
		}
		t.Logf("the rejoiner began from the state of tick %d (%d bytes)", info.Tick, info.FileBytes)
	}
}

// A seat that waits in vain ends the session once Config.SeatWait has
// passed, naming the player and how long its seat waited; the host plays
// on meanwhile.
func TestSeatWaitsInVain(t *testing.T) {
	var ran int64
	runs := play(t, setup{players: 2, seconds: 30, timeout: 500 * time.Millisecond, realtime: true, seatWait: time.Second,
		afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
			if i == 0 && ev.Group == 0 {
				ran = ev.Tick
			}
			if i == 1 && ev.Group == 0 && ev.Tick == 60 && !l.Session().Resimulating() {
				r.session.Vanish()
				r.vanished = true
				l.Stop()
			}
		}})
	var pe *netplay.PeerError
	if err := runs[0].err; !errors.As(err, &pe) || pe.Player != 1 || !strings.Contains(err.Error(), "its seat waited 1s") {
		t.Fatalf("the host: %v, want player 2's seat to have waited 1s", err)
	}
	if ran < 60+30 {
		t.Fatalf("the host ran to tick %d: it did not play on while the seat waited", ran)
	}
}

// menuFirst is a game's first scene, a Menu (30 Hz) that hands on to the
// Arena (game) after its 45th tick, once that tick is final; it makes the
// Arena afresh by name (engine.SceneMaker).
type menuFirst struct {
	final *uint64
	none  bool // it makes no scene afresh
}

func (m menuFirst) Name() string { return "Menu" }

func (m menuFirst) SceneFor(name string) (engine.Scene, error) {
	if name != "Arena" || m.none {
		return nil, fmt.Errorf("no scene %q", name)
	}
	return game(m.final), nil
}

func (m menuFirst) Run(loop *engine.Loop) (engine.Scene, error) {
	var c menuCount
	loop.Recording().SetChecksum(func() uint64 { return c.sum })
	loop.Recording().SetSceneState(&c)
	for ev := range loop.Events(engine.Group{Name: "menu", Hz: 30}) {
		if ev.Kind == engine.Update {
			c.ticks++
			for _, in := range ev.Players {
				c.sum = c.sum*31 + math.Float64bits(in.GamepadAxis(0, input.AxisLeftStickHorizontal))
			}
		}
		if c.ticks >= 45 && loop.Session().Settle() {
			return game(m.final), nil
		}
	}
	return nil, loop.Err()
}

// menuCount is the Menu's state, and its engine.SceneState.
type menuCount struct {
	ticks, sum uint64
	slots      map[int][2]uint64
}

func (c *menuCount) SaveState(slot int) error {
	if c.slots == nil {
		c.slots = map[int][2]uint64{}
	}
	c.slots[slot] = [2]uint64{c.ticks, c.sum}
	return nil
}

func (c *menuCount) RestoreState(slot int) error {
	s, ok := c.slots[slot]
	if !ok {
		return fmt.Errorf("no state in slot %d", slot)
	}
	c.ticks, c.sum = s[0], s[1]
	return nil
}

// A player who vanishes from a session past its first scene (a Menu, then
// the Arena) takes its seat back from the host's state of the Arena: its
// first scene makes the Arena afresh (engine.SceneMaker), the state says
// the session's ticks before it, and the rejoiner simulates none of the
// Menu's ticks nor the Arena's before the state; every run ends on the
// same state.
func TestRejoinPastFirstScene(t *testing.T) {
	host, third, back, log := rejoin(t, false, true)
	for name, r := range map[string]*rejoinRun{"the host": host, "player 3": third, "the rejoiner": back} {
		if r.err != nil {
			t.Fatalf("%s: %v\nthe host's log:\n%s", name, r.err, log)
		}
	}
	if third.final != host.final || back.final != host.final || host.final == 0 {
		t.Fatalf("the host ended on %x, player 3 on %x, the rejoiner on %x", host.final, third.final, back.final)
	}
	info, err := engine.ParseStateInfo(back.s.State())
	if err != nil || info.Scene != 2 || info.SceneName != "Arena" || info.Before != 45 || info.Tick < 100 || back.first != info.Tick+1 {
		t.Fatalf("the rejoiner's state: %+v, %v; its first tick %d: want the Arena's after its tick 100, 45 ticks after the session's start",
			info, err, back.first)
	}
	if !strings.Contains(log, "player 2 begins from the state of tick") {
		t.Fatalf("the host's log says nothing of a state given:\n%s", log)
	}
	t.Logf("the rejoiner began from the Arena's state of tick %d, the session's %d (%d bytes)", info.Tick, info.Before+info.Tick, info.FileBytes)
}

// A spectator that comes late to a session past its first scene begins
// from the host's state of the Arena, made afresh by its Menu, and ends on
// the players' state.
func TestSpectatorJoinsPastFirstScene(t *testing.T) {
	menu := func(_ int, final *uint64) engine.Scene { return menuFirst{final: final} }
	runs := play(t, setup{players: 2, realtime: true, seconds: 6, lateAt: 100, lateFromState: true, game: menu})
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final || r.final == 0 {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
	}
	late := runs[len(runs)-1]
	info, err := engine.ParseStateInfo(late.session.State())
	if err != nil || info.Scene != 2 || info.SceneName != "Arena" || info.Before != 45 || info.Tick < 100 {
		t.Fatalf("the late spectator's state: %+v, %v: want the Arena's after its tick 100, 45 ticks after the session's start", info, err)
	}
}

// A spectator that comes late to a session whose state takes many
// windows of pieces (256 KiB, some 230 pieces, over a lossy link) receives
// it whole and ends on the players' state: with the pieces paced by its
// acknowledgements, and with stateWindow pieces sent as the host's frames
// end (which an acknowledgement must not stop: a host that took the first
// for the joiner's start sent the rest of its state never).
func TestSpectatorJoinsWithABigState(t *testing.T) {
	pad := randomBytes(256<<10, 4)
	for _, fixed := range []bool{false, true} {
		netplay.SetFixedStatePace(fixed)
		link := &netsim.Link{Latency: 10 * time.Millisecond, Jitter: 2 * time.Millisecond, Loss: 0.02, Seed: 12}
		runs := play(t, setup{players: 2, link: link, realtime: true, seconds: 8, lateAt: 60, lateFromState: true,
			game: func(_ int, final *uint64) engine.Scene { return gameWith(final, pad) }})
		netplay.SetFixedStatePace(false)
		for i, r := range runs {
			if r.err != nil {
				t.Fatalf("fixed pace %v: peer %d: %v", fixed, i+1, r.err)
			}
			if r.final != runs[0].final {
				t.Fatalf("fixed pace %v: peer %d ended on %x, the host on %x", fixed, i+1, r.final, runs[0].final)
			}
		}
		late := runs[len(runs)-1]
		info, err := engine.ParseStateInfo(late.session.State())
		if err != nil || info.Bytes < len(pad) {
			t.Fatalf("fixed pace %v: the late spectator's state: %+v, %v: want one of %d bytes or more", fixed, info, err, len(pad))
		}
		t.Logf("fixed pace %v: the late spectator received %d bytes in %v", fixed, info.FileBytes, late.joinTook)
	}
}

// A spectator that comes late through a link that reorders a third of the
// packets (a state's pieces may pass the welcome on the way) receives the
// host's state and ends on the players' state.
func TestSpectatorJoinsThroughAReorderingLink(t *testing.T) {
	link := &netsim.Link{Latency: 15 * time.Millisecond, Reorder: 0.3, Seed: 13}
	pad := randomBytes(30<<10, 6)
	runs := play(t, setup{players: 2, link: link, realtime: true, seconds: 6, lateAt: 60, lateFromState: true,
		game: func(_ int, final *uint64) engine.Scene { return gameWith(final, pad) }})
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
	}
	if late := runs[len(runs)-1]; late.session.State() == nil {
		t.Fatal("the late spectator began from no state")
	}
}
