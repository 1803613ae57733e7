package anim_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/anim"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

func TestMain(m *testing.M) { ebitentest.Main(m) }

// frames returns a sheet of n 8x8 frames in a row, cut by Grid.
func frames(n int) []*ebiten.Image { return anim.Grid(ebiten.NewImage(8*n, 8), 8, 8, n) }

func animated(w donburi.World, clip *anim.Clip) *donburi.Entry {
	e := w.Entry(w.Create(anim.AnimationC, gfx.SpriteC))
	anim.Play(e, clip)
	return e
}

// A looping clip of 0.1 s frames at 60 Hz shows each frame for 6 ticks
// (the sum of sixths of a second rounding to 5 or 7 now and then), in
// order, round and round; the sprite shows the frame.
func TestClipPlaysOnTicks(t *testing.T) {
	var seq []int
	var shown bool
	ebitentest.OnGame(t, func() {
		fr := frames(3)
		w := donburi.NewWorld()
		e := animated(w, anim.NewClip(0.1, true, fr...))
		sys := anim.NewSystem()
		shown = true
		for range 60 {
			sys.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
			a := anim.AnimationC.Get(e)
			seq = append(seq, a.Frame)
			shown = shown && gfx.SpriteC.Get(e).Image == fr[a.Frame]
		}
	})
	changes := 0
	for i := 1; i < len(seq); i++ {
		if seq[i] != seq[i-1] {
			changes++
			if seq[i] != (seq[i-1]+1)%3 {
				t.Fatalf("frames out of order: %v", seq)
			}
		}
	}
	if changes < 9 || changes > 10 || !shown {
		t.Errorf("a second of 0.1 s frames: %d changes (want 9 or 10), the sprite showing them %v: %v", changes, shown, seq)
	}
}

// A clip that does not loop stays on its last frame, done; Play of the
// clip playing changes nothing, of another starts it from its first frame.
func TestClipEndsAndPlay(t *testing.T) {
	ebitentest.OnGame(t, func() {
		fr := frames(4)
		w := donburi.NewWorld()
		once, idle := anim.NewClip(0.05, false, fr[:2]...), anim.NewClip(0.2, true, fr[2:]...)
		e := animated(w, once)
		sys := anim.NewSystem()
		for range 20 {
			sys.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
		}
		if a := anim.AnimationC.Get(e); !a.Done || a.Frame != 1 || gfx.SpriteC.Get(e).Image != fr[1] {
			t.Errorf("after its time, a clip that does not loop: %+v", a)
		}
		anim.Play(e, once)
		if a := anim.AnimationC.Get(e); !a.Done {
			t.Errorf("Play of the clip playing started it over: %+v", a)
		}
		anim.Play(e, idle)
		if a := anim.AnimationC.Get(e); a.Done || a.Frame != 0 || a.Clip != idle || gfx.SpriteC.Get(e).Image != fr[2] {
			t.Errorf("Play of another clip: %+v", a)
		}
	})
}

// An Aseprite sheet's JSON, frames as an array or a hash: a clip per tag,
// forward, reverse and ping-pong, with Aseprite's durations.
func TestLoadAseprite(t *testing.T) {
	const array = `{"frames": [
	 {"filename": "hero 0", "frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 100},
	 {"filename": "hero 1", "frame": {"x": 8, "y": 0, "w": 8, "h": 8}, "duration": 50},
	 {"filename": "hero 2", "frame": {"x": 16, "y": 0, "w": 8, "h": 8}, "duration": 50},
	 {"filename": "hero 3", "frame": {"x": 24, "y": 0, "w": 8, "h": 8}}],
	 "meta": {"frameTags": [{"name": "run", "from": 1, "to": 3, "direction": "forward"},
	  {"name": "back", "from": 0, "to": 2, "direction": "reverse"},
	  {"name": "bob", "from": 0, "to": 3, "direction": "pingpong"}]}}`
	const hash = `{"frames": {
	 "hero 10": {"frame": {"x": 8, "y": 0, "w": 8, "h": 8}, "duration": 70},
	 "hero 9": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 30}}, "meta": {}}`
	ebitentest.OnGame(t, func() {
		sheet := ebiten.NewImage(32, 8)
		x := func(img *ebiten.Image) int { return img.Bounds().Min.X / 8 }
		clips, err := anim.LoadAseprite(sheet, []byte(array))
		if err != nil {
			t.Fatal(err)
		}
		order := func(c *anim.Clip) (xs []int) {
			for _, f := range c.Frames {
				xs = append(xs, x(f))
			}
			return xs
		}
		for name, want := range map[string][]int{"": {0, 1, 2, 3}, "run": {1, 2, 3}, "back": {2, 1, 0}, "bob": {0, 1, 2, 3, 2, 1}} {
			if c := clips[name]; c == nil || fmt.Sprint(order(c)) != fmt.Sprint(want) {
				t.Errorf("clip %q: %v, want %v", name, c, want)
			}
		}
		if d := clips["run"].Durations; d[0] != 0.05 || d[2] != 0.1 {
			t.Errorf("run's durations %v, want 0.05, 0.05, 0.1 (none given: 100 ms)", d)
		}
		byHash, err := anim.LoadAseprite(sheet, []byte(hash))
		if err != nil || fmt.Sprint(order(byHash[""])) != "[1 0]" || byHash[""].Durations[0] != 0.07 {
			t.Errorf("frames as a hash, in the file's order: %v, %v", err, byHash[""])
		}
		if _, err := anim.LoadAseprite(sheet, []byte(`{"frames": [{"frame": {"x": 40, "y": 0, "w": 8, "h": 8}}]}`)); err == nil {
			t.Errorf("a frame outside the sheet: no error")
		}
	})
}

// LoadSheet reads an Aseprite JSON and the PNG its meta.image names, beside
// it; a missing image is an error that names it.
func TestLoadSheet(t *testing.T) {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 16, 8)))
	js := `{"frames": [{"frame": {"x": 0, "y": 0, "w": 8, "h": 8}}, {"frame": {"x": 8, "y": 0, "w": 8, "h": 8}}],
	 "meta": {"image": "hero.png", "frameTags": [{"name": "walk", "from": 0, "to": 1}]}}`
	fsys := fstest.MapFS{"art/hero.json": {Data: []byte(js)}, "art/hero.png": {Data: b.Bytes()}}
	ebitentest.OnGame(t, func() {
		sh, err := anim.LoadSheet(fsys, "art/hero.json")
		if err != nil {
			t.Fatal(err)
		}
		defer sh.Release()
		if c := sh.Clips["walk"]; c == nil || len(c.Frames) != 2 || c.Frames[1].Bounds().Min.X != 8 {
			t.Errorf("walk: %+v", c)
		}
		delete(fsys, "art/hero.png")
		if _, err := anim.LoadSheet(fsys, "art/hero.json"); err == nil || !strings.Contains(err.Error(), "hero.png") {
			t.Errorf("no image: %v", err)
		}
	})
}

// A tick of the animation system, and of the side-view looks choosing a
// clip, allocates nothing.
func TestAnimAllocatesNothing(t *testing.T) {
	ebitentest.OnGame(t, func() {
		w := donburi.NewWorld()
		animated(w, anim.NewClip(0.05, true, frames(4)...))
		sys := anim.NewSystem()
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
		if n := testing.AllocsPerRun(100, func() { sys.Update(w, ev) }); n != 0 {
			t.Errorf("the animation system allocates %v times a tick", n)
		}
	})
}
