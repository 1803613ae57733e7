package scenes_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/scenes"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// Every scene transition releases the scene's entities, bodies and assets:
// Title -> Arena (played by the autopilot to its time limit) -> Results ->
// Title -> Arena, headless, with Enter pressed every 20 frames.
func TestTransitionsReleaseEverything(t *testing.T) {
	type release struct {
		scene string
		left  stage.Leftovers
	}
	var released []release
	var out bytes.Buffer
	opts := &scenes.Options{Seed: 3, Autopilot: true, Out: &out,
		OnRelease: func(scene string, left stage.Leftovers) { released = append(released, release{scene, left}) }}
	first, err := scenes.First("title", opts)
	if err != nil {
		t.Fatal(err)
	}
	enter := engine.InputFunc(func(frame int64, in *input.State) { in.SetKey(input.KeyEnter, frame%20 == 0) })
	// the Arena lasts 60 s = 3600 frames; stop in the second Arena
	h := &engine.Headless{Frames: 3800}
	if err := engine.Run(first, &engine.Options{Headless: h, Input: enter}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range released {
		names = append(names, r.scene)
		if r.left.Entities != 0 || r.left.Bodies != 0 || !r.left.BundleReleased {
			t.Errorf("%s left %+v", r.scene, r.left)
		}
	}
	if got := strings.Join(names, ","); got != "Title,Arena,Results,Title,Arena" {
		t.Fatalf("scenes released: %s", got)
	}
	if !strings.Contains(out.String(), "scene Arena") || !strings.Contains(out.String(), "score ") {
		t.Fatalf("no Arena report: %q", out.String())
	}
}

// A scene name that does not exist is an error naming the choices.
func TestFirstRejectsUnknownScenes(t *testing.T) {
	if _, err := scenes.First("lobby", &scenes.Options{}); err == nil || !strings.Contains(err.Error(), "title, arena or stress") {
		t.Fatalf("got %v", err)
	}
}

// Esc in the Arena and in the Stress scene goes back to the Title, read on
// a tick (so a replay ends where its recording did).
func TestEscGoesBackToTheTitle(t *testing.T) {
	for _, name := range []string{"arena", "stress"} {
		var released []string
		opts := &scenes.Options{Seed: 1, Autopilot: true, Bodies: 50,
			OnRelease: func(scene string, _ stage.Leftovers) { released = append(released, scene) }}
		first, _ := scenes.First(name, opts)
		esc := engine.InputFunc(func(frame int64, in *input.State) { in.SetKey(input.KeyEscape, frame == 30) })
		if err := engine.Run(first, &engine.Options{Headless: &engine.Headless{Frames: 60}, Input: esc}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(released, ","); got != strings.ToUpper(name[:1])+name[1:]+",Title" {
			t.Errorf("%s: scenes released %s", name, got)
		}
	}
}

// In an online match (Options.Online) Esc leaves: the run stops at once,
// with no Title after the Arena. (The game's own rule of Esc is off there,
// as in the server's Arena: scenes/arena's TestIgnoreEsc.)
func TestOnlineEscLeaves(t *testing.T) {
	var released []string
	opts := &scenes.Options{Seed: 1, Autopilot: true, Online: true,
		OnRelease: func(scene string, _ stage.Leftovers) { released = append(released, scene) }}
	first, _ := scenes.First("arena", opts)
	esc := engine.InputFunc(func(frame int64, in *input.State) { in.SetKey(input.KeyEscape, frame == 30) })
	var frames int64
	err := engine.Run(first, &engine.Options{Headless: &engine.Headless{Frames: 600}, Input: esc,
		OnFinish: []engine.FinishHook{func(l *engine.Loop) { frames = l.Stats().Frames }}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(released, ","); got != "Arena" || frames > 32 {
		t.Errorf("scenes released %q after %d frames; want the Arena alone, at frame 30 or so", got, frames)
	}
}
