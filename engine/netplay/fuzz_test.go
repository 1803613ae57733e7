package netplay_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// FuzzTake feeds a host, a joiner and a spectator arbitrary datagrams
// from each other's addresses, as they are and as of their session with
// their CRC made right (so that changes reach the payload's parser), each
// with every sequence number taken as new: each must take it in or drop
// it and count it, never panic, and never take back an input it
// confirmed. It starts from the datagrams of a real session, written to
// testdata/fuzz/FuzzTake by TestWriteCorpus (hellos, welcomes, a
// refusal, starts, input packets with inputs, acknowledgements and
// checksums, report pieces, goodbyes), and from its own sessions' input
// packets.
func FuzzTake(f *testing.F) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	welcomed := make(chan struct{}) // the host took the spectator
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 2, Seed: 5,
		Settings: map[string]string{"k": "v"}, Log: onLine("a spectator joined", welcomed)}
	lobby, err := netplay.Listen(cfg)
	if err != nil {
		f.Fatal(err)
	}
	done := make(chan *netplay.Session)
	go func() {
		s, err := lobby.Wait(ctx)
		if err != nil {
			f.Error(err)
		}
		done <- s
	}()
	jc := cfg
	jc.Addr, jc.Log = lobby.Addr().String(), nil
	watching := make(chan *netplay.Session)
	go func() {
		s, err := netplay.Spectate(ctx, jc)
		if err != nil {
			f.Error(err)
		}
		watching <- s
	}()
	select { // the spectator first: the lobby closes once the players are in
	case <-welcomed:
	case <-ctx.Done():
		f.Fatal("the spectator was not taken")
	}
	joiner, err := netplay.Join(ctx, jc)
	if err != nil {
		f.Fatal(err)
	}
	host, spectator := <-done, <-watching
	if host == nil || spectator == nil {
		return
	}
	defer host.Vanish()
	defer joiner.Vanish()
	defer spectator.Vanish()
	sessions := []*netplay.Session{host, joiner, spectator}
	// Their own packets too, with inputs in them, and a state to take
	// more input into.
	var in input.State
	players := make([]input.State, 2)
	for t := int64(1); t <= 40; t++ {
		in.SetKey(input.KeySpace, t%7 < 3)
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(t%5)/4)
		for _, s := range sessions {
			s.Local(t, &in)
			s.Inputs(t, players)
			s.Checksum(t, uint64(t))
			if t%5 == 0 {
				s.EndFrame()
				f.Add(s.LastSent())
			}
		}
		time.Sleep(time.Millisecond)
	}
	hostAddr, joinerAddr, spectatorAddr := joiner.PeerAddr(0), host.PeerAddr(1), host.PeerAddr(0)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, netplay.Resession(data, host.ID())} {
			for _, s := range sessions {
				s.ForgetSeq()
			}
			before := [3]int64{host.Confirmed(), joiner.Confirmed(), spectator.Confirmed()}
			host.Take(joinerAddr, b)
			host.Take(spectatorAddr, b)
			joiner.Take(hostAddr, b)
			spectator.Take(hostAddr, b)
			if after := [3]int64{host.Confirmed(), joiner.Confirmed(), spectator.Confirmed()}; after[0] < before[0] ||
				after[1] < before[1] || after[2] < before[2] {
				t.Fatalf("confirmed inputs went back: %v to %v", before, after)
			}
		}
	})
}

// FuzzReport hands a host that found a desync a run of report packets from
// the player it found it with (framed: see frame), as of its session, each
// CRC made right: it must take each or drop it, never panic, and a report
// that arrives whole has no more systems or parts than its bytes hold and
// names with no control character. It starts from the report runs of a
// real session, written to testdata/fuzz/FuzzReport by TestWriteCorpus:
// each way's pieces, and each piece alone.
func FuzzReport(f *testing.F) {
	f.Fuzz(func(t *testing.T, framed []byte) {
		_, rep, _ := netplay.TakeReport(unframe(framed))
		if rep == nil {
			return
		}
		if len(rep.Systems)*7+len(rep.Parts)*9 > len(framed) {
			t.Fatalf("%d systems and %d parts from %d bytes", len(rep.Systems), len(rep.Parts), len(framed))
		}
		names := []string{rep.SceneName}
		for _, s := range rep.Systems {
			names = append(names, s.Group, s.System)
		}
		for _, p := range rep.Parts {
			names = append(names, p.Name)
		}
		for _, n := range names {
			if strings.ContainsFunc(n, unicode.IsControl) {
				t.Fatalf("a name with a control character: %q", n)
			}
		}
	})
}

// FuzzJoinAnswers hands a joiner arbitrary answers to its hello, as they
// are and with their CRC made right: a refusal or a welcome is taken or
// refused, never a panic, and a welcome taken gives terms that can be (2
// to input.MaxPlayers players, the joiner one of them but the host, or a
// spectator; settings a welcome can carry). It starts from the welcomes
// and the refusal of a real session, written to
// testdata/fuzz/FuzzJoinAnswers by TestWriteCorpus.
func FuzzJoinAnswers(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, netplay.Reseal(data)} {
			kind, ok, players, player, settings := netplay.JoinAnswer(b)
			if kind != "welcome" || !ok {
				continue
			}
			if players < 2 || players > input.MaxPlayers || player != -1 && (player < 1 || player >= players) {
				t.Fatalf("a welcome taken: player %d of %d", player, players)
			}
			for k, v := range settings {
				if len(k) > 256 || len(v) > 256 {
					t.Fatalf("a setting of %d and %d bytes", len(k), len(v))
				}
			}
		}
	})
}

// FuzzState hands a joiner under way a run of state packets (framed: see
// frame) as the host sends them, each CRC made right: it must take each or
// drop it, never panic, and a state taken whole is a state file of the
// session's game, or refused with an error. It starts from the state
// packets of a real session (a spectator that joined under way), written
// to testdata/fuzz/FuzzState by TestWriteCorpus.
func FuzzState(f *testing.F) {
	f.Fuzz(func(t *testing.T, framed []byte) {
		packets := unframe(framed)
		for i, b := range packets {
			packets[i] = netplay.Reseal(b)
		}
		for _, player := range []int{-1, 1} {
			_, whole, err, state := netplay.TakeState(packets, 2, player)
			if !whole || err != nil {
				continue
			}
			info, perr := engine.ParseStateInfo(state)
			if perr != nil || info.Game.Name != "arena" {
				t.Fatalf("a state taken: %+v, %v", info, perr)
			}
		}
	})
}

// onLine returns a log that closes seen once a line says what says.
func onLine(says string, seen chan struct{}) io.Writer {
	var once sync.Once
	return writerFunc(func(b []byte) (int, error) {
		if strings.Contains(string(b), says) {
			once.Do(func() { close(seen) })
		}
		return len(b), nil
	})
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(b []byte) (int, error) { return w(b) }

// A session's work in a tick and a frame (take what arrived, keep the
// local input, give the tick's inputs and checksum, send) allocates
// nothing once warm, on either side, with input flowing both ways.
func TestTickAllocatesNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 2, Seed: 5}
	lobby, err := netplay.Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *netplay.Session)
	go func() {
		s, err := lobby.Wait(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	jc := cfg
	jc.Addr = lobby.Addr().String()
	joiner, err := netplay.Join(ctx, jc)
	if err != nil {
		t.Fatal(err)
	}
	host := <-done
	if host == nil {
		return
	}
	defer host.Vanish() // neither is polled when the other closes: no goodbyes to wait for
	defer joiner.Vanish()
	var in input.State
	players := make([]input.State, 2)
	tick := int64(0)
	step := func() {
		tick++
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(tick%9)/8)
		in.SetKey(input.KeySpace, tick%5 == 0)
		for _, s := range []*netplay.Session{host, joiner} {
			s.Poll()
			s.Local(tick, &in)
			s.Inputs(tick, players)
			s.Checksum(tick, uint64(tick))
			s.EndFrame()
		}
		time.Sleep(2 * time.Millisecond) // a packet's way through the loopback and the reader
	}
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(100, step); n != 0 {
		t.Fatalf("%v allocations a tick", n)
	}
	if host.Confirmed() < tick-10 || joiner.Confirmed() < tick-10 {
		t.Fatalf("the inputs did not flow: confirmed %d and %d at tick %d", host.Confirmed(), joiner.Confirmed(), tick)
	}
}
