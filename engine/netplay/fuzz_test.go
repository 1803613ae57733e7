package netplay_test

import (
	"context"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// FuzzTake feeds a host and a joiner arbitrary datagrams from each other's
// address, as they are and with their CRC made right (so that changes
// reach the payload's parser): each must take it in or drop it and count
// it, never panic, and never take back an input it confirmed.
func FuzzTake(f *testing.F) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 2, Seed: 5,
		Settings: map[string]string{"k": "v"}}
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
	jc.Addr = lobby.Addr().String()
	joiner, err := netplay.Join(ctx, jc)
	if err != nil {
		f.Fatal(err)
	}
	host := <-done
	if host == nil {
		return
	}
	defer host.Vanish()
	defer joiner.Vanish()
	// Seeds: real packets of both sides, with inputs in them.
	var in input.State
	players := make([]input.State, 2)
	for t := int64(1); t <= 40; t++ {
		in.SetKey(input.KeySpace, t%7 < 3)
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(t%5)/4)
		for _, s := range []*netplay.Session{host, joiner} {
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
	hostAddr, joinerAddr := joiner.PeerAddr(0), host.PeerAddr(0)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, netplay.Reseal(data)} {
			before := [2]int64{host.Confirmed(), joiner.Confirmed()}
			host.Take(joinerAddr, b)
			joiner.Take(hostAddr, b)
			if host.Confirmed() < before[0] || joiner.Confirmed() < before[1] {
				t.Fatalf("confirmed inputs went back: %v to %d, %d", before, host.Confirmed(), joiner.Confirmed())
			}
		}
	})
}

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
