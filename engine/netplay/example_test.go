package netplay_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// counters is the example's game state: each player's count of presses.
type counters struct{ n [2]int }

// counterState is the counters as an engine.SceneState, so that the loop
// can go back for a rollback (stage.Stage is one for a world and its
// physics).
type counterState struct {
	c     *counters
	slots map[int]counters
}

func (s *counterState) SaveState(slot int) error    { s.slots[slot] = *s.c; return nil }
func (s *counterState) RestoreState(slot int) error { *s.c = s.slots[slot]; return nil }

// count is the game: every tick, each player who pressed Space counts one.
func count(c *counters) engine.Scene {
	return engine.NewScene("Count", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(func() uint64 { return uint64(c.n[0])<<32 | uint64(c.n[1]) })
		loop.Recording().SetSceneState(&counterState{c: c, slots: map[int]counters{}})
		for ev := range loop.Events() {
			if ev.Kind != engine.Update {
				continue
			}
			for p := range ev.Players {
				if ev.Player(p).KeyPressed(input.KeySpace) {
					c.n[p]++
				}
			}
		}
		return nil, loop.Err()
	})
}

// Two players, each on a machine of their own (here two goroutines over
// 127.0.0.1), play the counting game: the host opens a session, the other
// joins it, and each runs the game with its session; every tick sees both
// players' input (ev.Players), and both runs end on the same state.
func Example() {
	ctx := context.Background()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "count", Version: "1", Players: 2}
	lobby, err := netplay.Listen(cfg) // netplay.Host(ctx, cfg) listens and waits in one call
	if err != nil {
		fmt.Println(err)
		return
	}
	var results [2]counters
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *netplay.Session
			var err error
			if i == 0 {
				s, err = lobby.Wait(ctx)
			} else {
				c := cfg
				c.Addr = lobby.Addr().String()
				s, err = netplay.Join(ctx, c)
			}
			if err != nil {
				fmt.Println(err)
				return
			}
			defer s.Close()         // lets the other finish, then says goodbye
			every := int64(7 + 4*i) // each presses Space at their own pace
			presses := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
				in.SetKey(input.KeySpace, t.Tick%every == 0)
			})
			err = engine.Run(count(&results[i]), &engine.Options{Session: s, TickInput: presses,
				Headless: &engine.Headless{Realtime: true}, StopAt: 2 * time.Second})
			if err != nil {
				fmt.Println(err)
			}
		}()
	}
	wg.Wait()
	fmt.Println(results[0].n, results[0] == results[1])
	// Output: [16 10] true
}
