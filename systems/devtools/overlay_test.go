package devtools_test

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/devtools"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// overlayRig is a headless scene with two rate groups, three systems and an
// overlay, on a manual clock at 60 frames per second: deterministic figures,
// no display needed.
type overlayRig struct {
	clock *engine.ManualClock
	loop  *engine.Loop
	sched *engine.Scheduler
	world donburi.World
	ov    *devtools.Overlay
}

func newOverlayRig(t *testing.T, input engine.InputSource, opts devtools.OverlayOptions) *overlayRig {
	t.Helper()
	r := &overlayRig{clock: engine.NewManualClock(0), world: donburi.NewWorld()}
	var err error
	r.loop, err = engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60, Clock: r.clock},
		&engine.Options{Input: input})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		r.world.Create(components.BodyC, components.TransformC)
	}
	for range 2 {
		r.world.Create(components.TransformC)
	}
	r.sched = engine.NewScheduler(r.world, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10})
	nothing := func(donburi.World, engine.Event) {}
	r.sched.AddUpdate(0, "step bodies", nothing)
	r.sched.AddUpdate(1, "think", nothing)
	r.sched.AddRender(0, "sprites", nothing)
	r.sched.AddRender(devtools.BackgroundLayer, "backdrop", nothing)
	r.sched.AddRender(math.MinInt, "under all", nothing)
	r.sched.AddRender(devtools.InspectorLayer, "inspect", nothing)
	opts.Clock = r.clock
	r.ov = devtools.NewOverlay(r.loop, r.sched, &opts)
	r.sched.AddUpdate(0, "overlay keys", r.ov.Input)
	r.sched.AddRender(100, "overlay", r.ov.Draw)
	if err := r.loop.Start(r.sched.Groups()...); err != nil {
		t.Fatal(err)
	}
	return r
}

// frames runs n frames.
func (r *overlayRig) frames(t *testing.T, n int) {
	t.Helper()
	for n > 0 {
		if !r.loop.Next() {
			t.Fatalf("the loop stopped: %v", r.loop.Err())
		}
		ev := r.loop.Event()
		r.sched.Handle(ev)
		if ev.Kind == engine.Render {
			n--
		}
	}
}

// The text holds the rates measured over the last window, the loop's
// figures, the counts and the scheduler's table with every system and group.
func TestOverlayText(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{})
	r.frames(t, 1)
	if txt := r.ov.Text(); !strings.HasPrefix(txt, "FPS --") {
		t.Errorf("first frame: text starts %q, want FPS -- (no window measured yet)", firstLine(txt))
	}
	r.frames(t, 120) // two seconds
	txt := r.ov.Text()
	t.Logf("overlay text:\n%s", txt)
	for _, want := range []string{
		"FPS 60.0", "alpha 0.", "game 2.0 s",
		"ticks/s  physics 60.0/60  ai 10.0/10",
		"dropped 0.0 ms  clamped 0.0 ms  owed 0.0 ms",
		"entities 5  bodies 3",
		"system", "group", "calls", "mean µs", "p99 µs", "max µs", "last µs",
		"step bodies", "think", "sprites", "overlay keys", "overlay",
		"physics", "ai", "render 0", "render 100", "render background", "render first",
		"render inspector",
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if strings.Contains(txt, "-9223372036854775808") || strings.Contains(txt, "-1048576") || strings.Contains(txt, "1048575") {
		t.Error("a layer is printed as a number where it has a name")
	}
	// Columns line up: every table row is as long as the header.
	lines := strings.Split(txt, "\n")
	var header int
	for i, l := range lines {
		if strings.HasPrefix(l, "system") {
			header = i
		}
	}
	for _, l := range lines[header+1:] {
		if got, want := len([]rune(l)), len([]rune(lines[header])); got != want {
			t.Errorf("table row %q is %d columns wide, header %d", l, got, want)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Toggle and SetVisible flip Visible; the toggle key does it once a press;
// a hidden overlay builds no text.
func TestOverlayToggle(t *testing.T) {
	hidden := newOverlayRig(t, nil, devtools.OverlayOptions{Hidden: true})
	if hidden.ov.Visible() {
		t.Fatal("Hidden: true, yet Visible")
	}
	hidden.frames(t, 40)
	if txt := hidden.ov.Text(); txt != "" {
		t.Errorf("a hidden overlay built its text: %q", txt)
	}
	hidden.ov.Toggle()
	if !hidden.ov.Visible() {
		t.Fatal("Toggle did not show it")
	}
	hidden.frames(t, 1)
	if hidden.ov.Text() == "" {
		t.Error("shown, the overlay has no text after a frame")
	}
	hidden.ov.SetVisible(false)
	if hidden.ov.Visible() {
		t.Fatal("SetVisible(false) left it visible")
	}

	// F3 held over frames 10-14 and 40-41: two presses, two toggles.
	press := engine.InputFunc(func(frame int64, in *input.State) {
		in.SetKey(input.KeyF3, (frame >= 10 && frame < 15) || (frame >= 40 && frame < 42))
	})
	r := newOverlayRig(t, press, devtools.OverlayOptions{})
	if !r.ov.Visible() {
		t.Fatal("a new overlay is hidden")
	}
	r.frames(t, 30)
	if r.ov.Visible() {
		t.Error("after the first F3 press the overlay is still visible")
	}
	r.frames(t, 30)
	if !r.ov.Visible() {
		t.Error("after the second F3 press the overlay is still hidden")
	}
}

// Between refreshes, a frame allocates nothing, headless or drawing (the
// latter not checked under -race: see raceEnabled); a refresh allocates
// (logged).
func TestOverlayAllocatesNothing(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{})
	r.frames(t, 40) // past the first refresh
	ev := engine.Event{Kind: engine.Render, Frame: 41, Alpha: 0.25}
	if n := testing.AllocsPerRun(100, func() { r.ov.Draw(r.world, ev) }); n != 0 {
		t.Errorf("headless overlay frame: %v allocations", n)
	}
	refresh := testing.AllocsPerRun(20, func() {
		r.clock.Advance(devtools.DefaultOverlayRefresh)
		r.ov.Draw(r.world, ev)
	})
	t.Logf("a headless refresh allocates %v times", refresh)

	var drawing, drawnRefresh float64
	ebitentest.OnGame(t, func() {
		dst := ebiten.NewImage(screenW, screenH)
		ev.Screen = dst
		r.ov.Draw(r.world, ev) // lays the panel out
		drawing = testing.AllocsPerRun(100, func() { r.ov.Draw(r.world, ev) })
		drawnRefresh = testing.AllocsPerRun(10, func() {
			r.clock.Advance(devtools.DefaultOverlayRefresh)
			r.ov.Draw(r.world, ev)
		})
	})
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a frame drawn on a screen not checked (ebiten's sync.Pool)", drawing)
	} else if drawing != 0 {
		t.Errorf("overlay frame drawn on a screen: %v allocations", drawing)
	}
	t.Logf("a refresh drawn on a screen allocates %v times", drawnRefresh)
}

// The visible overlay draws its panel in its corner; hidden, it draws nothing.
func TestOverlayDraws(t *testing.T) {
	grey := color.RGBA{100, 100, 100, 255}
	r := newOverlayRig(t, nil, devtools.OverlayOptions{X: 10, Y: 20})
	r.frames(t, 40)
	var shown, hidden ebitentest.Frame
	ebitentest.OnGame(t, func() {
		dst := ebiten.NewImage(screenW, screenH)
		draw := func() ebitentest.Frame {
			dst.Fill(grey)
			r.ov.Draw(r.world, engine.Event{Kind: engine.Render, Frame: 41, Screen: dst})
			f := ebitentest.Frame{Pix: make([]byte, 4*screenW*screenH), W: screenW, H: screenH}
			dst.ReadPixels(f.Pix)
			return f
		}
		shown = draw()
		r.ov.Toggle()
		hidden = draw()
	})
	count := func(f ebitentest.Frame, x0, y0, x1, y1 int) (changed, bright int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				c := f.At(x, y)
				if c != grey {
					changed++
				}
				if c.R > 180 && c.G > 180 {
					bright++
				}
			}
		}
		return changed, bright
	}
	if changed, bright := count(shown, 10, 20, 110, 60); changed < 1000 || bright < 20 {
		t.Errorf("visible overlay: %d pixels changed, %d bright (text) in its corner; want a dark panel with text", changed, bright)
	}
	if changed, _ := count(shown, 0, 0, 10, 20); changed != 0 {
		t.Errorf("visible overlay at (10, 20) changed %d pixels above and left of it", changed)
	}
	if changed, _ := count(hidden, 0, 0, screenW, screenH); changed != 0 {
		t.Errorf("hidden overlay changed %d pixels", changed)
	}
}

// A refresh window's length is respected: the text is rebuilt only when
// Refresh has passed on the overlay's clock.
func TestOverlayRefreshWindow(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{Refresh: time.Second})
	r.frames(t, 1)
	first := r.ov.Text()
	r.frames(t, 59) // 59/60 s later: not yet
	if r.ov.Text() != first {
		t.Error("the text changed before a second had passed")
	}
	r.frames(t, 1)
	if r.ov.Text() == first || !strings.HasPrefix(r.ov.Text(), "FPS 60.0") {
		t.Errorf("after a second the text starts %q, want FPS 60.0", firstLine(r.ov.Text()))
	}
}

// Lines of the game's own come after the counts and before the table, in
// the order added, rebuilt at each refresh (so they show live figures); a
// missing final newline is added.
func TestOverlayAddLines(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{})
	refreshes := 0
	r.ov.AddLines(func(b []byte) []byte {
		refreshes++
		return append(b, "space: hash 14 px  sleep 0.5 s\n"...)
	})
	r.ov.AddLines(func(b []byte) []byte {
		return fmt.Appendf(b, "asleep %d", refreshes) // no newline
	})
	r.frames(t, 1)
	r.frames(t, 60) // two refreshes of half a second
	lines := strings.Split(r.ov.Text(), "\n")
	at := slices.Index(lines, "space: hash 14 px  sleep 0.5 s")
	if at < 0 || at+2 >= len(lines) || !strings.HasPrefix(lines[at-1], "entities ") ||
		lines[at+1] != fmt.Sprintf("asleep %d", refreshes) || !strings.HasPrefix(lines[at+2], "system") {
		t.Fatalf("the game's lines are not between the counts and the table:\n%s", r.ov.Text())
	}
	if refreshes != 3 {
		t.Errorf("the lines were built %d times in 61 frames, want 3 (the first frame and two refreshes)", refreshes)
	}
	defer func() {
		if recover() == nil {
			t.Error("AddLines(nil) did not panic")
		}
	}()
	r.ov.AddLines(nil)
}

// Every system has a row with a p99 (from its histogram) that is never
// above its max.
func TestOverlayShowsP99(t *testing.T) {
	r := newOverlayRig(t, nil, devtools.OverlayOptions{})
	r.frames(t, 61)
	lines := strings.Split(r.ov.Text(), "\n")
	rows := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "system") {
			continue
		}
		for _, row := range lines[i+1:] {
			f := strings.Fields(row)
			num := func(k int) float64 { // k-th number from the end
				v, err := strconv.ParseFloat(f[len(f)-k], 64)
				if err != nil {
					t.Fatalf("row %q: %v", row, err)
				}
				return v
			}
			p99, maxUs := num(3), num(2)
			var st *engine.SystemStats
			for j := range r.sched.Stats() {
				if strings.HasPrefix(row, r.sched.Stats()[j].Name+" ") {
					st = &r.sched.Stats()[j]
				}
			}
			if st == nil || p99 > maxUs {
				t.Errorf("row %q: p99 %v above max %v", row, p99, maxUs)
			}
			rows++
		}
	}
	if rows != len(r.sched.Stats()) {
		t.Fatalf("%d table rows, want %d", rows, len(r.sched.Stats()))
	}
}

// The size of the screens the overlay's tests draw on.
const screenW, screenH = 200, 100

// Shown together on a screen too narrow for both side by side, the
// inspector's panel goes below the overlay's instead of over it; on a wide
// screen it stays at the top right.
func TestInspectorKeepsClearOfTheOverlay(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		below bool
	}{{520, 600, true}, {2000, 600, false}} {
		r := newOverlayRig(t, nil, devtools.OverlayOptions{})
		ins := devtools.NewInspector(r.loop, r.sched, nil, &devtools.InspectorOptions{Visible: true})
		ins.Avoid(r.ov)
		ins.Select(r.world.Create(components.TransformC))
		ebitentest.OnGame(t, func() {
			screen := ebiten.NewImage(c.w, c.h)
			for range 3 {
				ev := engine.Event{Kind: engine.Render, Screen: screen}
				r.ov.Draw(r.world, ev)
				ins.Draw(r.world, ev)
			}
		})
		ov, in := r.ov.Rect(), ins.Rect()
		if ov.Empty() || in.Empty() || ov.Overlaps(in) || (in.Min.Y >= ov.Max.Y) != c.below {
			t.Errorf("%dx%d screen: overlay at %v, inspector at %v (below it: want %v)", c.w, c.h, ov, in, c.below)
		}
	}
}
