package scenes

import (
	"testing"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The window's Arena is the simulation a server runs (arena.Scene, no
// graphics) dressed with sprites: leaving the sprites out of the checksum,
// the two have the same state at every tick. A client drawing a server's
// match would check its state against the server's this way.
func TestArenaIsItsSimulationDressed(t *testing.T) {
	const seconds = 4
	noSprites := state.NewHasher(&state.Options{Ignore: []donburi.IComponentType{gfx.SpriteC}})
	window := &Arena{opts: &Options{Seed: 11, Seconds: seconds, Autopilot: true}}
	var got []uint64
	run := func(scene engine.Scene, after func(*engine.Loop, engine.Event)) {
		t.Helper()
		err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, AfterUpdate: []engine.EventHook{after}})
		if err != nil {
			t.Fatal(err)
		}
	}
	run(window, func(_ *engine.Loop, ev engine.Event) {
		if ev.Group == 0 {
			got = append(got, noSprites.Sum(window.st.World))
		}
	})
	bare := &arena.Scene{Options: arena.Options{Seed: 11, Seconds: seconds, Autopilot: true}}
	var want []uint64
	run(bare, func(_ *engine.Loop, ev engine.Event) {
		if ev.Group == 0 {
			want = append(want, state.Checksum(bare.Arena.World()))
		}
	})
	if len(got) != seconds*arena.Hz || len(want) != len(got) {
		t.Fatalf("%d ticks in the window, %d bare; want %d", len(got), len(want), seconds*arena.Hz)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("tick %d: the window's Arena (sprites left out) differs from its simulation alone", i+1)
		}
	}
}
