package stage_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// keyFrames presses each key in its frame, and nothing else.
type keyFrames map[int64]input.Key

func (k keyFrames) Sample(frame int64, in *input.State) {
	if key, ok := k[frame]; ok {
		in.SetKey(key, true)
	}
}

// A step back (P, then the comma key) re-runs the run and makes the scene
// anew; the overlay (F3) and the inspector (F4) stay shown, with the same
// entity picked, as they were when the step back was asked for.
func TestStepBackKeepsTheDevView(t *testing.T) {
	var last *stage.Stage
	var picked donburi.Entity
	first := func() (engine.Scene, error) {
		return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
			st, err := stage.New(loop, stage.Options{})
			if err != nil {
				return nil, err
			}
			defer st.Release()
			st.World.Create(counterC)
			picked = st.World.Create(counterC)
			st.Sched.AddUpdate(0, "count", func(w donburi.World, ev engine.Event) {})
			if !loop.Rewinder().Active() && loop.Ticks(0) == 0 {
				st.Inspector.Select(picked)
			}
			last = st
			return st.Run()
		}), nil
	}
	scene, _ := first()
	rec := &engine.InputLog{}
	opts := &engine.Options{Record: rec, Restart: first, Headless: &engine.Headless{Frames: 60},
		Input: keyFrames{20: input.KeyP, 22: input.KeyF3, 24: input.KeyF4, 26: input.KeyComma}}
	if err := engine.Run(scene, opts); err != nil {
		t.Fatal(err)
	}
	if !last.Loop.Paused() || last.Loop.Ticks(0) >= 20 {
		t.Fatalf("the step back did not happen: paused %v at tick %d", last.Loop.Paused(), last.Loop.Ticks(0))
	}
	sel, ok := last.Inspector.Selected()
	if !last.Overlay.Visible() || !last.Inspector.Visible() || !ok || sel != picked {
		t.Fatalf("after the step back: overlay shown %v, inspector shown %v, picked %v %v (want %v)",
			last.Overlay.Visible(), last.Inspector.Visible(), sel, ok, picked)
	}
}
