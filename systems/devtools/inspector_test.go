package devtools_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/devtools"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// inspectorLineHeight is the height of a row of the panel in the default
// face, Go Mono at 12 pixels: its ascent, descent and gap, rounded up.
func inspectorLineHeight(t *testing.T) int {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gomono.TTF))
	if err != nil {
		t.Fatal(err)
	}
	m := (&text.GoTextFace{Source: src, Size: 12}).Metrics()
	return int(math.Ceil(m.HAscent + m.HDescent + m.HLineGap))
}

// keyEvent is an Input event with keys pressed (edges) and held.
func keyEvent(pressed []input.Key, held ...input.Key) engine.Event {
	in := &input.State{}
	for _, k := range pressed {
		in.KeysPressed[k/64] |= 1 << (k % 64)
		in.SetKey(k, true)
	}
	for _, k := range held {
		in.SetKey(k, true)
	}
	return engine.Event{Kind: engine.Input, Input: in}
}

// clickEvent is an Input event with the left button pressed at x, y.
func clickEvent(x, y float64) engine.Event {
	in := &input.State{CursorX: x, CursorY: y}
	in.SetMouseButton(input.MouseButtonLeft, true)
	in.MousePressed = 1 << input.MouseButtonLeft
	return engine.Event{Kind: engine.Input, Input: in}
}

// Tab visits every entity of the world once, in id order, then starts over;
// Shift-Tab goes the other way. Removed entities drop out, reused ids come in
// at their place.
func TestInspectorCycleVisitsEveryEntity(t *testing.T) {
	w := donburi.NewWorld()
	var made []donburi.Entity
	for k := range 8 {
		if k%3 == 0 {
			made = append(made, w.Create(components.TransformC))
		} else {
			made = append(made, w.Create(components.TransformC, gfx.SpriteC))
		}
	}
	w.Remove(made[2])
	w.Remove(made[5])
	reused := w.Create(components.CameraC) // takes a freed id, a new version
	var want []donburi.Entity
	for _, e := range append(made, reused) {
		if w.Valid(e) {
			want = append(want, e)
		}
	}
	slices.SortFunc(want, func(a, b donburi.Entity) int { return int(a.Id()) - int(b.Id()) })

	in := devtools.NewInspector(nil, nil, nil, &devtools.InspectorOptions{Visible: true})
	tab := keyEvent([]input.Key{input.KeyTab})
	var got []donburi.Entity
	for range 2 * len(want) {
		in.Input(w, tab)
		e, ok := in.Selected()
		if !ok {
			t.Fatal("Tab picked nothing")
		}
		got = append(got, e)
	}
	if !slices.Equal(got[:len(want)], want) || !slices.Equal(got[len(want):], want) {
		t.Fatalf("Tab visited %v, want %v twice", got, want)
	}
	back := keyEvent([]input.Key{input.KeyTab}, input.KeyShiftLeft)
	got = got[:0]
	for range len(want) {
		in.Input(w, back)
		e, _ := in.Selected()
		got = append(got, e)
	}
	rev := slices.Clone(want)
	slices.Reverse(rev)
	// From the last entity, backwards: the one before it first.
	if wantBack := append(rev[1:], rev[0]); !slices.Equal(got, wantBack) {
		t.Fatalf("Shift-Tab visited %v, want %v", got, wantBack)
	}

	in.Select(donburi.Null)
	in.Cycle(donburi.NewWorld(), 1)
	if e, ok := in.Selected(); ok {
		t.Errorf("an empty world: picked %v", e)
	}
	hidden := devtools.NewInspector(nil, nil, nil, nil)
	hidden.Input(w, tab)
	if _, ok := hidden.Selected(); ok {
		t.Error("a hidden inspector picked on Tab")
	}
}

var positionX = regexp.MustCompile(`Body\.Position +X=(\S+)`)

// A Stage's inspector, shown with F4 and pointed with Tab, follows the
// picked body tick by tick; paused, the values hold; each single step
// (period) shows the next tick's values, marked as changed, and the tick in
// the title moves by one.
func TestInspectorStepsWhilePaused(t *testing.T) {
	keys := map[int64]input.Key{2: input.KeyF4, 4: input.KeyTab, 10: input.KeyP, 15: input.KeyPeriod, 20: input.KeyPeriod}
	input := engine.InputFunc(func(frame int64, in *input.State) {
		if k, ok := keys[frame]; ok {
			in.SetKey(k, true)
		}
	})
	type seen struct {
		text    string
		changed []string
		ticks   int64
	}
	var frames []seen
	var body donburi.Entity
	var picked donburi.Entity
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Physics: &physics.Config{}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		body = st.Physics.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: 10, Y: 20}, Velocity: cp.Vector{X: 60}})
		st.Sched.AddUpdate(0, "physics", st.Physics.Update)
		st.Sched.AddRender(devtools.InspectorLayer+1, "watch", func(_ donburi.World, ev engine.Event) {
			frames = append(frames, seen{st.Inspector.Text(), devtools.InspectorChanged(st.Inspector), loop.Ticks(0)})
			picked, _ = st.Inspector.Selected()
		})
		return st.Run()
	})
	if err := engine.Run(play, &engine.Options{Headless: &engine.Headless{FPS: 60, Frames: 24}, Input: input}); err != nil {
		t.Fatal(err)
	}
	if picked != body {
		t.Fatalf("Tab picked %v, want the body %v (the first entity)", picked, body)
	}
	f := func(n int) seen { return frames[n-1] }
	x := func(n int) string {
		m := positionX.FindStringSubmatch(f(n).text)
		if m == nil {
			t.Fatalf("frame %d: no Body.Position in the panel:\n%s", n, f(n).text)
		}
		return m[1]
	}
	t.Logf("frame 16:\n%s", f(16).text)
	if f(1).text != "" || f(2).text == "" {
		t.Errorf("before F4 the text is %q; after, %q", f(1).text, f(2).text)
	}
	for _, want := range []string{"e1v0", "[-] Body", "Body.Type", `"dynamic"`, "[-] Shape", `"circle"`, "Radius",
		"[-] Transform", "Cur", "Angle=", "PAUSED"} {
		if !strings.Contains(f(16).text, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}
	if x(5) == x(6) || len(f(6).changed) == 0 {
		t.Errorf("running: X %s then %s, changed lines %q", x(5), x(6), f(6).changed)
	}
	for n := 12; n < 15; n++ {
		if f(n).text != f(n+1).text {
			t.Errorf("paused: the panel changed between frames %d and %d", n, n+1)
		}
	}
	// The step asked for in frame 15 runs in frame 16 (see TestDevKeys).
	if x(16) == x(15) || f(16).ticks != f(15).ticks+1 || x(17) != x(16) || x(21) == x(20) {
		t.Errorf("stepping: X %s, %s, %s; %s, %s; ticks %d, %d", x(15), x(16), x(17), x(20), x(21), f(15).ticks, f(16).ticks)
	}
	if !slices.ContainsFunc(f(16).changed, func(s string) bool { return strings.Contains(s, "Body.Position") }) {
		t.Errorf("after a step the changed lines are %q, want the position among them", f(16).changed)
	}
	if !strings.Contains(f(16).text, "tick "+strconv.FormatInt(f(16).ticks, 10)) {
		t.Errorf("the title does not say tick %d:\n%s", f(16).ticks, firstLine(f(16).text))
	}
}

// Hidden, the inspector does nothing: Input and Draw return at once, with
// an entity picked and ticks running, allocate nothing and build nothing,
// headless or drawing on a screen.
func TestInspectorHiddenCostsNothing(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{Hidden: true})
	in := devtools.NewInspector(r.loop, r.sched, nil, nil)
	r.sched.AddInput("inspector", in.Input).AddRender(devtools.InspectorLayer, "inspector", in.Draw)
	in.Select(donburi.Entity(1))
	r.frames(t, 30)
	if n := devtools.InspectorBuilds(in); n != 0 || in.Text() != "" {
		t.Fatalf("hidden over 30 frames: %d builds, text %q", n, in.Text())
	}
	inputs := []engine.Event{keyEvent([]input.Key{input.KeyTab}), clickEvent(10, 10)}
	render := engine.Event{Kind: engine.Render, Alpha: 0.5}
	frame := func() {
		for _, ev := range inputs {
			in.Input(r.world, ev)
		}
		in.Draw(r.world, render)
	}
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Errorf("hidden, headless: %v allocations a frame", n)
	}
	// A whole frame of the scene (the loop, the scheduler, the overlay and the
	// inspector, all hidden) allocates nothing either.
	if n := testing.AllocsPerRun(100, func() { r.frames(t, 1) }); n != 0 {
		t.Errorf("hidden, a frame of the loop: %v allocations", n)
	}
	var drawing float64
	ebitentest.OnGame(t, func() {
		render.Screen = ebiten.NewImage(200, 100)
		drawing = testing.AllocsPerRun(100, frame)
	})
	if drawing != 0 {
		t.Errorf("hidden, drawing on a screen: %v allocations a frame", drawing)
	}
	if e, _ := in.Selected(); e != donburi.Entity(1) || devtools.InspectorBuilds(in) != 0 {
		t.Errorf("hidden: the input changed the pick to %v, or it built (%d)", e, devtools.InspectorBuilds(in))
	}
	// Shown, a frame between ticks draws the panel laid out at the last tick.
	in.Toggle()
	r.frames(t, 2)
	builds := devtools.InspectorBuilds(in)
	if builds == 0 || in.Text() == "" {
		t.Fatalf("shown: %d builds, text %q", builds, in.Text())
	}
	var shown float64
	render.Screen = nil
	ebitentest.OnGame(t, func() {
		render.Screen = ebiten.NewImage(200, 100)
		in.Draw(r.world, render)
		shown = testing.AllocsPerRun(50, func() { in.Draw(r.world, render) })
	})
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a shown frame not checked (ebiten's sync.Pool)", shown)
	} else if shown != 0 {
		t.Errorf("shown, a frame between ticks: %v allocations", shown)
	}
}

// pickRig is a world seen through a turned, zoomed camera: a circle and a
// box with bodies, a sensor, and an entity with a Transform only.
type pickRig struct {
	sw, sh                          int // the screen's size
	w                               donburi.World
	phys                            *physics.Physics
	ins                             *devtools.Inspector
	circle, box, sensor, loose, cam donburi.Entity
}

func newPickRig(sw, sh int) *pickRig {
	r := &pickRig{sw: sw, sh: sh, w: donburi.NewWorld()}
	r.phys = physics.New(r.w, physics.Config{})
	r.circle = r.phys.SpawnCircle(10, &physics.BodyOptions{Position: cp.Vector{X: 40, Y: 10}})
	r.box = r.phys.SpawnBox(20, 12, &physics.BodyOptions{Position: cp.Vector{X: -30, Y: -10}, Angle: 0.4})
	r.sensor = r.phys.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 0, Y: 30}})
	r.loose = r.w.Create(components.TransformC)
	components.TransformC.SetValue(r.w.Entry(r.loose), components.NewTransform(components.Pose{X: -20, Y: 35}))
	r.cam = r.w.Create(components.TransformC, components.CameraC)
	cam := r.w.Entry(r.cam)
	components.TransformC.SetValue(cam, components.NewTransform(components.Pose{X: 5, Y: 8, Angle: 0.3}))
	components.CameraC.SetValue(cam, components.Camera{Zoom: 1.5})
	r.ins = devtools.NewInspector(nil, nil, r.phys, &devtools.InspectorOptions{Visible: true})
	return r
}

// screenOf returns where world point x, y is drawn.
func (r *pickRig) screenOf(x, y float64) (float64, float64) {
	view := r.view()
	return view.Apply(x, y)
}

// view is the camera's view of the world on the screen.
func (r *pickRig) view() ebiten.GeoM {
	cam := r.w.Entry(r.cam)
	return gfx.View(components.CameraC.Get(cam), components.TransformC.Get(cam).Cur, image.Rect(0, 0, r.sw, r.sh))
}

// Once a frame is drawn, the first Tab picks the first entity on the
// screen, not a wall off it; the next ones go on in entity order.
func TestInspectorTabStartsOnScreen(t *testing.T) {
	r := newPickRig(480, 240)
	first := r.w.Entry(r.circle)
	components.TransformC.Get(first).Cur = components.Pose{X: -9000, Y: 0} // the first entity, far off screen
	components.TransformC.Get(first).Prev = components.TransformC.Get(first).Cur
	ebitentest.OnGame(t, func() {
		r.ins.Draw(r.w, engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(r.sw, r.sh)})
	})
	r.ins.Input(r.w, keyEvent([]input.Key{input.KeyTab}))
	if e, ok := r.ins.Selected(); !ok || e != r.box {
		t.Fatalf("the first Tab picked %v, want the box, the first entity on the screen", e)
	}
	r.ins.Input(r.w, keyEvent([]input.Key{input.KeyTab}))
	if e, _ := r.ins.Selected(); e != r.sensor {
		t.Fatalf("the second Tab picked %v, want the next in entity order, the sensor", e)
	}
}

// A click is mapped through the camera's view of the last frame: it picks
// the body whose shape is under it (sensors too), the entity without a body
// whose Transform is within the pick radius (not the camera, which is not
// in the picture), or nothing on empty ground. A click on the panel picks
// nothing behind it.
func TestInspectorPicksThroughTheCamera(t *testing.T) {
	r := newPickRig(480, 240)
	ebitentest.OnGame(t, func() {
		r.ins.Draw(r.w, engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(r.sw, r.sh)})
	})
	for _, c := range []struct {
		name   string
		x, y   float64 // world
		want   donburi.Entity
		wantOK bool
	}{
		{"circle's centre", 40, 10, r.circle, true},
		{"circle's rim", 40, 19, r.circle, true},
		{"box's corner, turned", -30 + 9*0.92 - 5*0.39, -10 + 9*0.39 + 5*0.92, r.box, true},
		{"sensor", 1, 31, r.sensor, true},
		{"near the loose Transform", -17, 36, r.loose, true},
		{"the camera's own Transform: empty sky", 5, 8, donburi.Null, false},
		{"empty ground", -70, 20, donburi.Null, false},
	} {
		sx, sy := r.screenOf(c.x, c.y)
		got, ok := r.ins.Pick(r.w, sx, sy)
		if got != c.want || ok != c.wantOK {
			t.Errorf("%s: world %.1f,%.1f (screen %.1f,%.1f) picked %v %v, want %v", c.name, c.x, c.y, sx, sy, got, ok, c.want)
		}
	}
	sx, sy := r.screenOf(40, 10)
	r.ins.Input(r.w, clickEvent(sx, sy))
	if e, _ := r.ins.Selected(); e != r.circle {
		t.Fatalf("a click on the circle picked %v", e)
	}
	ebitentest.OnGame(t, func() { // lays the panel out with the circle's components
		r.ins.Draw(r.w, engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(r.sw, r.sh)})
	})
	panel := r.ins.Rect()
	if panel.Empty() || panel.Max.X != r.sw || panel.Min.Y != 0 {
		t.Fatalf("panel at %v, want the top-right corner of %dx%d", panel, r.sw, r.sh)
	}
	r.ins.Input(r.w, clickEvent(float64(panel.Max.X-3), float64(panel.Max.Y-3)))
	if e, _ := r.ins.Selected(); e != r.circle {
		t.Errorf("a click on the panel picked %v behind it", e)
	}
	sx, sy = r.screenOf(-70, 20)
	if p := image.Pt(int(sx), int(sy)); p.In(panel) {
		t.Fatalf("empty ground at %v is under the panel %v: move it", p, panel)
	}
	r.ins.Input(r.w, clickEvent(sx, sy))
	if e, ok := r.ins.Selected(); ok {
		t.Errorf("a click on empty ground kept %v picked", e)
	}

	// Picked and moved under the panel, near the right edge, the circle
	// sends the panel to the top-left corner, clear of it; back where both
	// corners' panels would hide it, the panel is at the top-right again.
	r.ins.Select(r.circle)
	inv := r.view()
	inv.Invert()
	for _, c := range []struct {
		sx, sy float64
		left   bool
	}{{float64(r.sw - 20), 120, true}, {float64(r.sw) / 2, 120, false}} {
		x, y := inv.Apply(c.sx, c.sy)
		*components.TransformC.Get(r.w.Entry(r.circle)) = components.NewTransform(components.Pose{X: x, Y: y}) // there at any alpha
		ebitentest.OnGame(t, func() {
			r.ins.Draw(r.w, engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(r.sw, r.sh)})
		})
		panel, p := r.ins.Rect(), image.Pt(int(c.sx), int(c.sy))
		switch {
		case c.left && (panel.Min.X != 0 || p.In(panel)):
			t.Errorf("circle at %v: panel at %v, want the top-left corner, clear of it", p, panel)
		case !c.left && panel.Max.X != r.sw:
			t.Errorf("circle at %v: panel at %v, want the top-right corner", p, panel)
		}
	}
}

// A click on a component's name folds it, another unfolds it; the wheel
// over the panel scrolls it when it is taller than the screen (here a
// 100-pixel screen: a title and a few rows).
func TestInspectorFoldsAndScrolls(t *testing.T) {
	r := newPickRig(480, 100)
	r.ins.Select(r.circle)
	draw := func() {
		t.Helper()
		ebitentest.OnGame(t, func() {
			r.ins.Draw(r.w, engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(r.sw, r.sh)})
		})
		if p := r.ins.Rect(); p.Dy() > r.sh {
			t.Errorf("the panel %v is taller than the screen (%d)", p, r.sh)
		}
	}
	draw()
	lines := strings.Split(r.ins.Text(), "\n")
	header := slices.Index(lines, "[-] Shape")
	if header < 0 {
		t.Fatalf("no Shape header:\n%s", r.ins.Text())
	}
	panel := r.ins.Rect()
	if panel.Dy() < r.sh-15 {
		t.Fatalf("panel %v: want it cut at the screen's height", panel)
	}
	const lineH = 15.0       // Go Mono 12: ceil(ascent + descent + gap)
	click := func(row int) { // row 0 is the title; the rest follow the scroll position
		panel := r.ins.Rect()
		r.ins.Input(r.w, clickEvent(float64(panel.Min.X+20), float64(panel.Min.Y)+4+(float64(row)+0.5)*lineH))
		draw()
	}
	wheel := func(notches float64) {
		in := &input.State{CursorX: float64(panel.Min.X + 5), CursorY: float64(panel.Min.Y + 5), WheelY: notches}
		r.ins.Input(r.w, engine.Event{Kind: engine.Input, Input: in})
	}
	// Three lines a notch: scroll until the Shape header is among the first rows.
	notches := (header - 1) / 3
	for range notches {
		wheel(-1)
	}
	draw()
	click(header - 3*notches)
	if !strings.Contains(r.ins.Text(), "[+] Shape (") || strings.Contains(r.ins.Text(), `"circle"`) {
		t.Fatalf("after a click on the Shape header (scrolled by %d lines):\n%s", 3*notches, r.ins.Text())
	}
	if e, _ := r.ins.Selected(); e != r.circle {
		t.Fatalf("the click on the panel picked %v", e)
	}
	wheel(100) // back to the top, then down again to the same place
	draw()
	if strings.Contains(r.ins.Text(), "[-] Shape") {
		t.Fatal("scrolling unfolded Shape")
	}
	for range notches {
		wheel(-1)
	}
	draw()
	click(header - 3*notches)
	if !strings.Contains(r.ins.Text(), `"circle"`) {
		t.Errorf("a second click did not unfold Shape:\n%s", r.ins.Text())
	}
}

// The panel is drawn at the top-right corner and the picked entity outlined
// at its interpolated pose; hidden, the inspector draws nothing.
func TestInspectorDraws(t *testing.T) {
	grey := color.RGBA{100, 100, 100, 255}
	const screenW, screenH = 480, 200
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	e := phys.SpawnCircle(8, &physics.BodyOptions{Position: cp.Vector{X: 60, Y: 50}})
	tr := components.TransformC.Get(w.Entry(e))
	tr.Prev.X = 20 // drawn at alpha 0.5: x = 40
	ins := devtools.NewInspector(nil, nil, phys, &devtools.InspectorOptions{Visible: true})
	ins.Select(e)
	var shown, hidden ebitentest.Frame
	var panel image.Rectangle
	ebitentest.OnGame(t, func() {
		dst := ebiten.NewImage(screenW, screenH)
		draw := func() ebitentest.Frame {
			dst.Fill(grey)
			ins.Draw(w, engine.Event{Kind: engine.Render, Alpha: 0.5, Screen: dst})
			f := ebitentest.Frame{Pix: make([]byte, 4*screenW*screenH), W: screenW, H: screenH}
			dst.ReadPixels(f.Pix)
			return f
		}
		shown = draw()
		panel = ins.Rect()
		ins.Toggle()
		hidden = draw()
	})
	if os.Getenv("INSPECTOR_DEBUG") != "" {
		img := image.NewRGBA(image.Rect(0, 0, screenW, screenH))
		copy(img.Pix, shown.Pix)
		out, _ := os.Create("/tmp/inspector-draws.png")
		png.Encode(out, img)
		out.Close()
	}
	var magenta, elsewhere int
	for y := range screenH {
		for x := range screenW {
			c := shown.At(x, y)
			if c.R > 200 && c.G < 120 && c.B > 180 {
				if d2 := (x-40)*(x-40) + (y-50)*(y-50); d2 >= 8*8 && d2 <= 14*14 {
					magenta++
				} else {
					elsewhere++
				}
			}
			if hidden.At(x, y) != grey {
				t.Fatalf("hidden, the inspector drew at %d,%d", x, y)
			}
		}
	}
	if magenta < 40 || elsewhere > 0 {
		t.Errorf("outline: %d magenta pixels in a ring about (40, 50), %d elsewhere", magenta, elsewhere)
	}
	t.Logf("panel at %v", panel)
	if panel.Empty() || panel.Max.X != screenW {
		t.Fatalf("panel at %v", panel)
	}
	var dark int
	for y := panel.Min.Y; y < panel.Max.Y; y++ {
		for x := panel.Min.X; x < panel.Max.X; x++ {
			if c := shown.At(x, y); c.R < 40 && c.G < 40 && c.B < 40 {
				dark++
			}
		}
	}
	if dark < panel.Dx()*panel.Dy()/2 {
		t.Errorf("panel %v: %d dark pixels", panel, dark)
	}
}

// BenchmarkInspector measures a shown inspector's frame on a picked body
// with a shape and a sprite (the demo's kind of entity), drawn on a screen:
// between ticks (the panel laid out at the last tick, drawn with one
// DrawImage, and the outline), and after a tick (the entity visited, the
// panel's lines rebuilt and laid out). Hidden is the branch alone.
// ebiten's queue is flushed between frames, untimed (one pixel read back),
// as in BenchmarkRender.
func BenchmarkInspector(b *testing.B) {
	clock := engine.NewManualClock(0)
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60, Clock: clock}, nil)
	if err != nil {
		b.Fatal(err)
	}
	w := donburi.NewWorld()
	sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60})
	phys := physics.New(w, physics.Config{})
	sched.AddUpdate(0, "physics", phys.Update)
	if err := loop.Start(sched.Groups()...); err != nil {
		b.Fatal(err)
	}
	tick := func() { // runs frames until a tick has run
		for t := loop.Ticks(0); loop.Ticks(0) == t; {
			loop.Next()
			sched.Handle(loop.Event())
		}
	}
	for _, c := range []struct {
		name          string
		visible, tick bool
	}{{"hidden", false, false}, {"shown/between-ticks", true, false}, {"shown/after-a-tick", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			if testing.Short() && c.visible && !c.tick {
				// Each iteration flushes ebiten's queue untimed (about a
				// millisecond), 100 times the draw: a timed second takes
				// over a minute.
				b.Skip("not under -short (make bench-full runs it)")
			}
			ebitentest.OnGame(b, func() {
				img := ebiten.NewImage(32, 32)
				e := phys.SpawnCircle(14, &physics.BodyOptions{Position: cp.Vector{X: 200, Y: 100}, Velocity: cp.Vector{X: 30},
					Sprite: &gfx.Sprite{Image: img}})
				defer w.Remove(e)
				ins := devtools.NewInspector(loop, sched, phys, &devtools.InspectorOptions{Visible: c.visible})
				ins.Select(e)
				ev := engine.Event{Kind: engine.Render, Alpha: 0.5, Screen: ebiten.NewImage(960, 540)}
				ins.Draw(w, ev)
				pixel := make([]byte, 4)
				flush := window.Screen(ev).SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image)
				b.ReportAllocs()
				for b.Loop() {
					if c.tick {
						b.StopTimer()
						tick()
						b.StartTimer()
					}
					ins.Draw(w, ev)
					if c.visible {
						b.StopTimer()
						flush.ReadPixels(pixel)
						b.StartTimer()
					}
				}
			})
		})
	}
}
