package netplay_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// A joiner of another game, another version, another seed or another
// value of a setting is refused and told why; so is one that comes once the session has begun, and one
// that finds no host says so.
func TestHandshakeRefusals(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 2, Seed: 5, Timeout: 2 * time.Second,
		Settings: map[string]string{"bodies": "40"}}
	lobby, err := netplay.Listen(host)
	if err != nil {
		t.Fatal(err)
	}
	var s *netplay.Session
	var waitErr error
	started := make(chan struct{})
	go func() { s, waitErr = lobby.Wait(ctx); close(started) }()
	join := host
	join.Addr = lobby.Addr().String()
	for _, tc := range []struct {
		change func(*netplay.Config)
		says   string
	}{
		{func(c *netplay.Config) { c.Game = "breakout" }, `session of "arena", not "breakout"`},
		{func(c *netplay.Config) { c.Version = "2" }, `arena version "1"; yours is "2"`},
		{func(c *netplay.Config) { c.Seed, c.SeedGiven = 6, true }, "seed is 5, not 6"},
		{func(c *netplay.Config) { c.Settings = map[string]string{"bodies": "60", "other": "1"} },
			"this session was made with -bodies 40, yours with -bodies 60 (drop -bodies to play it)"},
	} {
		c := join
		tc.change(&c)
		if _, err := netplay.Join(ctx, c); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("got %v, want a refusal saying %q", err, tc.says)
		}
	}
	// Settings a welcome cannot carry whole are refused as the session is
	// opened, naming them, rather than cut or lost on the way.
	long, many := host, host
	long.Addr, many.Addr = "127.0.0.1:0", "127.0.0.1:0"
	long.Settings = map[string]string{"level": strings.Repeat("x", 300)}
	many.Settings = map[string]string{}
	for i := range 40 {
		many.Settings[fmt.Sprintf("setting-%02d", i)] = strings.Repeat("v", 20)
	}
	for _, tc := range []struct {
		cfg  netplay.Config
		says string
	}{{long, `setting "level": its name and its value must be at most 256 bytes each (5 and 300)`}, {many, "a datagram carries at most 1200"}} {
		if l, err := netplay.Listen(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.says) {
			if l != nil {
				l.Close()
			}
			t.Errorf("Listen: %v, want an error saying %q", err, tc.says)
		}
	}
	good := join
	good.Seed, good.SeedGiven = 5, true
	j, err := netplay.Join(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if waitErr != nil {
		t.Fatal(waitErr)
	}
	if j.Settings()["bodies"] != "40" || j.Seed() != 5 || j.Player() != 1 || s.Player() != 0 {
		t.Fatalf("the joiner got %v, seed %d, player %d", j.Settings(), j.Seed(), j.Player())
	}
	// The session has begun: the host, polling as its loop would, refuses
	// a late joiner.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				s.Poll()
			}
		}
	}()
	if _, err := netplay.Join(ctx, join); err == nil || !strings.Contains(err.Error(), "the session has begun") {
		t.Errorf("a late joiner: %v", err)
	}
	close(stop)
	wg.Wait()
	j.Vanish()
	s.Vanish()
	nobody := join
	nobody.Addr, nobody.Timeout = "127.0.0.1:9", 300*time.Millisecond // the discard port: nothing answers
	if _, err := netplay.Join(ctx, nobody); err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("no host: %v", err)
	}
}

// A player that vanishes mid-game (a killed process: no goodbye) ends the
// session for the others once it has been silent for the timeout; one
// that leaves says so, and the others end at once with a message naming
// it.
func TestPlayerLeaves(t *testing.T) {
	for _, vanish := range []bool{true, false} {
		// In real time, the peers that stay sleep between frames, so that
		// a busy machine does not starve one of them into silence.
		runs := play(t, setup{players: 3, seconds: 5, timeout: 2 * time.Second, realtime: true,
			afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
				if r.session.Player() == 2 && ev.Group == 0 && ev.Tick == 60 && !l.Session().Resimulating() {
					if vanish {
						r.session.Vanish()
						r.vanished = true
					}
					l.Stop()
				}
			}})
		for i, r := range runs {
			if r.session.Player() == 2 {
				continue
			}
			var pe *netplay.PeerError
			if !errors.As(r.err, &pe) {
				t.Fatalf("vanish %v: peer %d: %v, want a PeerError", vanish, i+1, r.err)
			}
			// The host names player 3; player 2 names the host, which ended
			// the session for it, and player 3.
			if want := map[int]int{0: 2, 1: 0}[r.session.Player()]; pe.Player != want || !strings.Contains(r.err.Error(), "player 3") {
				t.Errorf("vanish %v: player %d: %v", vanish, r.session.Player()+1, r.err)
			}
			if why := map[bool]string{true: "nothing heard for 2s", false: "its run ended after tick"}[vanish]; !strings.Contains(r.err.Error(), why) {
				t.Errorf("vanish %v: player %d: %v, want it to say %q", vanish, r.session.Player()+1, r.err, why)
			}
		}
	}
}

// A changed constant in one player's game is a desync: both players' runs
// end at the first tick whose states differ, naming it.
//
// With Options.SparseSaving, the report goes back to the last state kept
// before the tick before the desync's, as far as SparseInterval-1 ticks
// further.
func TestDesyncFound(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		runs := play(t, setup{players: 2, seconds: 5, sparse: sparse,
			game: func(i int, final *uint64) engine.Scene { return drifting(i == 1, final) }})
		for i, r := range runs {
			var de *netplay.DesyncError
			if !errors.As(r.err, &de) || de.Tick != 121 || de.Report == nil || de.OtherReport == nil ||
				!de.Report.Simulated || de.Report.SceneTick != 121 || de.Report.SceneName != "Arena" {
				t.Fatalf("sparse saving %v: peer %d: %v, want a desync at tick 121 with both reports", sparse, i+1, r.err)
			}
			if !strings.Contains(r.err.Error(), "no system named") {
				t.Errorf("sparse saving %v: peer %d: %v, want it to say the scene's systems are not probed", sparse, i+1, r.err)
			}
		}
	}
}

// A scene that one player's game sets up differently desyncs at its first
// tick: the reports go back to the scene's setup, and say the state
// differed before the tick's first system ran.
func TestDesyncAtTheFirstTick(t *testing.T) {
	runs := play(t, setup{players: 2, seconds: 2,
		game: func(i int, final *uint64) engine.Scene {
			return engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
				a := &arena{n: loop.Players()}
				if i == 1 {
					a.vx[0] = 1 // another setup
				}
				loop.Recording().SetChecksum(a.checksum)
				loop.Recording().SetSceneState(&arenaState{a: a, slots: map[int]arena{}})
				for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
					if ev.Kind == engine.Update {
						a.update(ev)
						*final = a.checksum()
					}
				}
				return nil, loop.Err()
			})
		}})
	for i, r := range runs {
		var de *netplay.DesyncError
		if !errors.As(r.err, &de) || de.Tick != 1 || de.Report == nil || de.OtherReport == nil ||
			!de.Report.Simulated || !de.OtherReport.Simulated || de.Report.SceneTick != 1 {
			t.Fatalf("peer %d: %v, want a desync at tick 1 with both reports", i+1, r.err)
		}
		if !strings.Contains(r.err.Error(), "the state differed before the tick's first system ran: the scene's first tick") ||
			strings.Contains(r.err.Error(), "no longer kept") {
			t.Errorf("peer %d: %v, want it to say the scenes set themselves up differently (starts %x, %x)", i+1, r.err, de.Report.Start, de.OtherReport.Start)
		}
	}
}

// drifting is the arena game, with a different drag from tick 121 on
// when drift is set.
func drifting(drift bool, final *uint64) engine.Scene {
	return engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
		a := &arena{n: loop.Players()}
		loop.Recording().SetChecksum(a.checksum)
		loop.Recording().SetSceneState(&arenaState{a: a, slots: map[int]arena{}})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "kicks", Hz: 10}) {
			if ev.Kind == engine.Update {
				a.update(ev)
				if drift && ev.Group == 0 && ev.Tick > 120 {
					a.vx[0] *= 0.999
				}
				*final = a.checksum()
			}
		}
		return nil, loop.Err()
	})
}

// Packets that are not the session's (garbage, oversized, another
// session's, damaged, a stranger's flood, replayed, cut short) are
// dropped and counted, and change nothing: every player still ends on
// the same state, the one its recording replays to.
func TestBadPacketsChangeNothing(t *testing.T) {
	flood := make(chan struct{})
	var attacker sync.WaitGroup
	var hostAddr string
	runs := play(t, setup{players: 2, seconds: 3, realtime: true,
		started: func(host *netplay.Session) {
			hostAddr = host.Addr().String()
			attacker.Add(1)
			go func() { // a stranger floods the host's port with garbage
				defer attacker.Done()
				c, err := net.Dial("udp", hostAddr)
				if err != nil {
					return
				}
				defer c.Close()
				rng := rand.New(rand.NewPCG(1, 2))
				b := make([]byte, 1500)
				for {
					select {
					case <-flood:
						return
					default:
					}
					n := rng.IntN(len(b))
					for i := range b[:n] {
						b[i] = byte(rng.Uint32())
					}
					if n > 4 && rng.IntN(2) == 0 {
						copy(b, "FSNP")
					}
					c.Write(b[:n])
					time.Sleep(200 * time.Microsecond)
				}
			}()
		},
		afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
			if i != 0 || ev.Group != 0 || l.Session().Resimulating() || ev.Tick%20 != 0 {
				return
			}
			// From the joiner's own address, as a forger on the path would.
			s, from := r.session, r.session.PeerAddr(0)
			real := s.LastSent() // a packet of this session: to the joiner, its sequence number seen
			bad := [][]byte{
				make([]byte, netplay.MaxPacket+1),                 // oversized
				[]byte("not a packet at all"),                     // foreign
				append([]byte(nil), real[:20]...),                 // cut short: fails its CRC
				netplay.Reseal(bumpSeq(real[:len(real)-9], 5000)), // cut short, resealed: malformed
				otherSession(real),                                // another session's
				netplay.Reseal(bumpSeq(real, 1<<20)),              // forged far ahead
			}
			for _, b := range bad {
				s.Take(from, b)
			}
		}})
	close(flood)
	attacker.Wait()
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final || replay(t, r.rec) != r.final {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
	}
	host := runs[0].net
	t.Logf("the host dropped %v (%v)", host.Dropped, netplay.DropReasons())
	for _, reason := range []string{"oversized", "foreign", "damaged", "stranger", "other session", "stale", "malformed"} {
		if runs[0].session.Dropped(reason) == 0 {
			t.Errorf("no packet dropped as %s", reason)
		}
	}
}

// otherSession returns a copy of packet b of another session, resealed.
func otherSession(b []byte) []byte {
	c := append([]byte(nil), b...)
	c[6] ^= 0xff
	return netplay.Reseal(c)
}

// bumpSeq returns a copy of packet b with its sequence number moved on by d.
func bumpSeq(b []byte, d uint32) []byte {
	c := append([]byte(nil), b...)
	seq := uint32(c[10]) | uint32(c[11])<<8 | uint32(c[12])<<16 | uint32(c[13])<<24
	seq += d
	c[10], c[11], c[12], c[13] = byte(seq), byte(seq>>8), byte(seq>>16), byte(seq>>24)
	return c
}

// menuThen is a Menu that ends on tick end of its first group (a decision
// that one player's game makes on another tick, as a bug in it would),
// then the arena game.
func menuThen(end int64, final *uint64) engine.Scene {
	return engine.NewScene("Menu", func(loop *engine.Loop) (engine.Scene, error) {
		a := &arena{n: loop.Players()}
		loop.Recording().SetChecksum(a.checksum)
		loop.Recording().SetSceneState(&arenaState{a: a, slots: map[int]arena{}})
		loop.Recording().SetStateDump(a.dump)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update {
				a.update(ev)
				a.ended = a.ended || ev.Tick == end
				*final = a.checksum()
			}
			if a.ended && loop.Session().Settle() {
				loop.Recording().Checkpoint()
				return game(final), nil
			}
		}
		return nil, loop.Err()
	})
}

// Players whose runs end a scene on different ticks are in different
// scenes when their states first differ: the desync error says so first,
// naming each one's scene and its tick and where the scene before ended,
// and lists no component types (every one would differ). Both players
// keep the state to report it, and write their worlds.
func TestDesyncInAnotherScene(t *testing.T) {
	runs := play(t, setup{players: 2, seconds: 3,
		game: func(i int, final *uint64) engine.Scene { return menuThen(60-3*int64(i), final) }})
	for i, r := range runs {
		var de *netplay.DesyncError
		if !errors.As(r.err, &de) || de.Tick != 58 || de.Report == nil || de.OtherReport == nil {
			t.Fatalf("peer %d: %v, want a desync at tick 58 with both reports", i+1, r.err)
		}
		t.Logf("peer %d: %v", i+1, r.err)
		menu, arena := "scene 1 (Menu) at its tick 58, begun after tick 0", "scene 2 (Arena) at its tick 1, begun after tick 57"
		here, there := menu, arena
		if i == 1 {
			here, there = arena, menu
		}
		want := fmt.Sprintf("netplay: desync: after tick 58 the players' runs are in different scenes: here %s; on player %d's, %s: "+
			"a scene ended on a different tick on each run", here, 2-i, there)
		if !strings.Contains(r.err.Error(), want) || strings.Contains(r.err.Error(), "component") {
			t.Errorf("peer %d: %v\nwant it to say %q, and name no component types", i+1, r.err, want)
		}
		// The peer's recording replays its run to the desynced tick, and
		// says that the session's runs went different ways there.
		var end *engine.SessionFailedError
		var final uint64
		err := engine.Run(menuThen(60-3*int64(i), &final), &engine.Options{Replay: r.rec, Headless: &engine.Headless{FPS: 41}})
		if !errors.As(err, &end) || !strings.Contains(err.Error(), "the session's players' runs went different ways") ||
			r.rec.Replayed().Checked < 58 || final != r.final {
			t.Errorf("peer %d: its recording replays to %v, %+v, ending on %x (the run on %x)", i+1, err, r.rec.Replayed(), final, r.final)
		}
		if !de.Report.Simulated || len(de.Report.Dump) == 0 || !de.OtherReport.Simulated || len(de.OtherReport.Dump) == 0 {
			t.Errorf("peer %d: the reports hold no world", i+1)
		}
	}
}
