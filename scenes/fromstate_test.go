package scenes_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/scenes"
)

// A run of the demo begun at the Title (Enter on its 30th tick chooses
// Play; the Arena's stick is a function of the tick) begins again from a
// state of its Arena, the run's second scene, which the Title
// makes afresh (engine.SceneMaker): the Title does not run, the Arena's
// first tick is the one after the state's, and it ends on the state, byte
// for byte, that the run that wrote the state ended on. Another version of
// the game refuses the state by its version.
func TestArenaFromStatePastTitle(t *testing.T) {
	const at, end = 120, 300
	type result struct {
		state, last []byte
		scene       int
		first       int64
		titles      int
	}
	run := func(from []byte, fps float64) result {
		var r result
		opts := &scenes.Options{Seed: 7, Seconds: 30}
		first, err := scenes.First("title", opts)
		if err != nil {
			t.Fatal(err)
		}
		eo := &engine.Options{Headless: &engine.Headless{FPS: fps}, Game: engine.GameInfo{Name: "demo", Version: "test"},
			FromState: from, TickInput: playByTick}
		eo.AfterUpdate = []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
			scene, name := l.Scene()
			if name == "Title" && ev.Group == 0 && ev.Tick == 1 {
				r.titles++
			}
			if name != "Arena" || ev.Group != 0 || l.Session().Resimulating() {
				return
			}
			if r.first == 0 {
				r.first, r.scene = ev.Tick, scene
			}
			var err error
			switch ev.Tick {
			case at:
				r.state, err = l.Recording().AppendState(nil)
			case end:
				r.last, err = l.Recording().AppendState(nil)
				l.Stop()
			}
			if err != nil {
				t.Error(err)
			}
		}}
		if err := engine.Run(first, eo); err != nil {
			t.Fatal(err)
		}
		return r
	}
	writer := run(nil, 60)
	if writer.state == nil || writer.last == nil || writer.scene != 2 || writer.titles != 1 {
		t.Fatalf("the writer: the Arena was its scene %d after %d Titles; a state written at tick %d: %v, at %d: %v",
			writer.scene, writer.titles, at, writer.state != nil, end, writer.last != nil)
	}
	first, err := scenes.First("title", &scenes.Options{Seed: 7, Seconds: 30})
	if err != nil {
		t.Fatal(err)
	}
	err = engine.Run(first, &engine.Options{Headless: &engine.Headless{}, Game: engine.GameInfo{Name: "demo", Version: "other"}, FromState: writer.state})
	if err == nil || errors.Is(err, engine.ErrBadSave) || !strings.Contains(err.Error(), `a state of demo version "test"; the run is of demo version "other"`) {
		t.Errorf("a state read by another version of the game: %v; want it refused by version, not as a malformed file", err)
	}
	reader := run(writer.state, 144)
	if reader.titles != 0 || reader.scene != 2 || reader.first != at+1 {
		t.Fatalf("from the state: %d Titles ran, the Arena was its scene %d from tick %d", reader.titles, reader.scene, reader.first)
	}
	w, werr := engine.ParseStateInfo(writer.last)
	r, rerr := engine.ParseStateInfo(reader.last)
	if werr != nil || rerr != nil || w.Checksum != r.Checksum || w.Hash != r.Hash || w.Before != r.Before || w.Before == 0 {
		t.Fatalf("the states at tick %d: the writer's %+v (%v), the reader's %+v (%v)", end, w, werr, r, rerr)
	}
}

// playByTick chooses Play on the Title's 30th tick and steers the Arena's
// player by the tick alone: input a run from a state gives as the run that
// wrote it did (an autopilot, which keeps state of its own, would not).
var playByTick = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
	if ti.Scene == "Title" {
		in.SetKey(input.KeyEnter, ti.Tick == 30)
		return
	}
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(ti.Tick%90)/45-1)
	in.SetKey(input.KeyArrowUp, ti.Tick/40%2 == 0)
})

// A run whose first scene is the Arena makes its later scenes afresh as
// the Title does: the Title and the Arena by name, and no scene it cannot.
func TestArenaMakesLaterScenes(t *testing.T) {
	first, err := scenes.First("arena", &scenes.Options{Seed: 7, Seconds: 30})
	if err != nil {
		t.Fatal(err)
	}
	maker, ok := first.(engine.SceneMaker)
	if !ok {
		t.Fatalf("the Arena as a first scene (%T) is no engine.SceneMaker", first)
	}
	for _, name := range []string{"Title", "Arena", "Stress"} {
		if s, err := maker.SceneFor(name); err != nil || engine.SceneName(s) != name {
			t.Errorf("SceneFor(%q): %v, %v", name, s, err)
		}
	}
	if _, err := maker.SceneFor("Results"); err == nil {
		t.Error("SceneFor(\"Results\"): no error (Results is handed the scores)")
	}
}
