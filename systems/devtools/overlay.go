package devtools

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"golang.org/x/image/font/gofont/gomono"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// DefaultOverlayRefresh is how often the overlay rebuilds its text when
// OverlayOptions.Refresh is 0.
const DefaultOverlayRefresh = 500 * time.Millisecond

// OverlayOptions configure an [Overlay]. The zero value (or nil) is the
// default everywhere.
type OverlayOptions struct {
	// Face is the font; nil means Go Mono at 12 pixels. A monospaced face
	// keeps the table's columns aligned.
	Face text.Face

	// X, Y is where the panel's top-left corner goes on the screen, in
	// pixels. The panel pads its text by a few pixels.
	X, Y float64

	// Refresh is how often the figures are measured and the text rebuilt;
	// 0 means DefaultOverlayRefresh (twice a second). Rates are averaged over
	// this window.
	Refresh time.Duration

	// Clock is the real clock that frames and ticks are counted against;
	// nil means a new engine.RealClock. Tests pass a manual clock.
	Clock engine.Clock

	// Hidden starts the overlay hidden.
	Hidden bool
}

// Overlay is a debugging panel drawn over the game: frames per second of
// real time, ticks per second of real time of each rate group beside its
// rate, the render alpha, the loop's dropped, clamped and owed time, pause
// and time scale, entity and body counts, lines of the game's own
// ([Overlay.AddLines]), and the scheduler's table of system timings (calls,
// mean, p99, max and last, in microseconds; the p99 from each system's
// histogram, see engine.SystemStats.Quantile, over every call since the
// scheduler's stats were last reset).
//
// Add [Overlay.Draw] as the last render system (the highest layer), and
// [Overlay.Input] to one update group (or call it on Input events) for the
// toggle key. It is toggled at run time with [Overlay.Toggle] or the key.
//
// Figures are measured over windows of Refresh (half a second) of real time,
// and the text is rebuilt and laid out only then, into an image of its own; a
// frame in between draws that image with one DrawImage call and allocates
// nothing. A refresh allocates: the new string and ebiten's text layout.
// While hidden, the overlay costs nothing and measures nothing.
type Overlay struct {
	// ToggleKey is the key that [Overlay.Input] toggles the overlay with;
	// NewOverlay sets it to F3.
	ToggleKey input.Key

	loop    *engine.Loop
	sched   *engine.Scheduler
	face    text.Face
	x, y    float64
	refresh time.Duration
	clock   engine.Clock
	bodies  *donburi.Query
	visible bool
	lines   []func(b []byte) []byte // AddLines

	// the measuring window
	started     bool
	windowStart time.Duration
	frame0      int64
	ticks0      []int64
	fps         float64
	tps         []float64
	measured    bool // fps and tps hold a window's figures

	// the text, rebuilt at each refresh
	buf, num []byte
	text     string
	dirty    bool // text changed since the panel was drawn

	// the panel
	cache *ebiten.Image // grows, never shrinks
	panel *ebiten.Image // the sub-image of cache that holds the current text
	op    ebiten.DrawImageOptions
}

// OverlayLayer is the render layer of a Stage's overlay: above the game's.
// BackgroundLayer is its background's: below the game's. The overlay's
// table names both, and math.MinInt and math.MaxInt, by what they are.
const (
	OverlayLayer    = 1 << 20
	BackgroundLayer = -(1 << 20)
)

// overlayPad is the panel's margin around its text, in pixels.
const overlayPad = 4

var (
	overlayBackground = color.RGBA{0, 0, 0, 176} // premultiplied
	overlayForeground = color.RGBA{230, 240, 255, 255}
)

// defaultFaceSource is Go Mono, parsed once per process.
var defaultFaceSource = sync.OnceValue(func() *text.GoTextFaceSource {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gomono.TTF))
	if err != nil { // the font is compiled in: this is a broken build
		panic(fmt.Sprintf("systems: parse Go Mono: %v", err))
	}
	return src
})

// NewOverlay returns an overlay showing the figures of loop and sched. Either
// may be nil: its lines are left out. The world it counts entities and bodies
// of (entities with a [components.Body]) is the one Draw is called with.
func NewOverlay(loop *engine.Loop, sched *engine.Scheduler, opts *OverlayOptions) *Overlay {
	if opts == nil {
		opts = &OverlayOptions{}
	}
	o := &Overlay{
		ToggleKey: input.KeyF3,
		loop:      loop,
		sched:     sched,
		face:      opts.Face,
		x:         opts.X,
		y:         opts.Y,
		refresh:   opts.Refresh,
		clock:     opts.Clock,
		bodies:    donburi.NewQuery(filter.Contains(components.BodyC)),
		visible:   !opts.Hidden,
	}
	if o.face == nil {
		o.face = &text.GoTextFace{Source: defaultFaceSource(), Size: 12}
	}
	if o.refresh <= 0 {
		o.refresh = DefaultOverlayRefresh
	}
	if o.clock == nil {
		o.clock = engine.NewRealClock()
	}
	if sched != nil {
		n := len(sched.Groups())
		o.ticks0, o.tps = make([]int64, n), make([]float64, n)
	}
	return o
}

// AddLines adds lines of the game's own to the panel, after the entity and
// body counts and before the table of systems: at every refresh (see
// OverlayOptions.Refresh) while the overlay is visible, f is called with the
// text built so far and returns it with its lines appended (a final newline
// is added if missing). The text is built then, not every frame, so f may
// read live figures (bodies asleep, a setting). Sources are called in the
// order added; call AddLines while building the scene, not from f.
func (o *Overlay) AddLines(f func(b []byte) []byte) {
	if f == nil {
		panic("systems: Overlay.AddLines(nil)")
	}
	o.lines = append(o.lines, f)
}

// Visible reports whether the overlay is shown.
func (o *Overlay) Visible() bool { return o.visible }

// Rect returns where the panel was last drawn on the screen (empty before
// the first frame drawn, or while hidden).
func (o *Overlay) Rect() image.Rectangle {
	if !o.visible || o.panel == nil {
		return image.Rectangle{}
	}
	return o.panel.Bounds().Sub(o.panel.Bounds().Min).Add(image.Pt(int(o.x), int(o.y)))
}

// SetVisible shows or hides the overlay. Shown again, it starts a new
// measuring window and shows its text at once.
func (o *Overlay) SetVisible(v bool) {
	if v && !o.visible {
		o.started = false
	}
	o.visible = v
}

// Toggle shows the overlay if hidden, hides it if shown.
func (o *Overlay) Toggle() { o.SetVisible(!o.visible) }

// Text returns the overlay's text as last built ("" before the first visible
// frame). It does not allocate.
func (o *Overlay) Text() string { return o.text }

// Input toggles the overlay when ev's input has ToggleKey pressed (an edge,
// so one press toggles once). It is an [engine.System] for one update group,
// and may also be called with the loop's Input events; not both, or a press
// toggles twice.
func (o *Overlay) Input(_ donburi.World, ev engine.Event) {
	if ev.Input != nil && ev.Input.KeyPressed(o.ToggleKey) {
		o.Toggle()
	}
}

// Draw measures the frame and draws the panel on the event's screen. It is an
// [engine.System] for the render phase; put it in the highest layer. Hidden,
// it returns at once. Headless (no screen) it keeps its text up to date and
// draws nothing.
func (o *Overlay) Draw(w donburi.World, ev engine.Event) {
	if !o.visible {
		return
	}
	now := o.clock.Now()
	switch {
	case !o.started:
		o.startWindow(now, ev.Frame)
		o.measured = false
		o.build(w, ev)
	case now-o.windowStart >= o.refresh:
		o.measure(now, ev.Frame)
		o.startWindow(now, ev.Frame)
		o.build(w, ev)
	}
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	if o.dirty {
		o.layout()
	}
	if o.panel == nil {
		return
	}
	o.op.GeoM.Reset()
	o.op.GeoM.Translate(o.x, o.y)
	screen.DrawImage(o.panel, &o.op)
}

func (o *Overlay) startWindow(now time.Duration, frame int64) {
	o.started = true
	o.windowStart, o.frame0 = now, frame
	for g := range o.ticks0 {
		o.ticks0[g] = o.ticks(g)
	}
}

// measure computes the rates over the window that ends now.
func (o *Overlay) measure(now time.Duration, frame int64) {
	secs := (now - o.windowStart).Seconds()
	if secs <= 0 {
		return
	}
	o.measured = true
	o.fps = float64(frame-o.frame0) / secs
	for g := range o.tps {
		d := o.ticks(g) - o.ticks0[g]
		if d < 0 { // a new timeline began: count from its start
			d = o.ticks(g)
		}
		o.tps[g] = float64(d) / secs
	}
}

func (o *Overlay) ticks(g int) int64 {
	if o.loop == nil {
		return 0
	}
	return o.loop.Ticks(g)
}

// build rebuilds the text into buf, then into a new string.
func (o *Overlay) build(w donburi.World, ev engine.Event) {
	b := o.buf[:0]

	b = append(b, "FPS "...)
	b = o.appendRate(b, o.fps)
	b = append(b, "  alpha "...)
	b = strconv.AppendFloat(b, ev.Alpha, 'f', 2, 64)
	if o.loop != nil {
		b = append(b, "  game "...)
		b = strconv.AppendFloat(b, o.loop.GameTime().Seconds(), 'f', 1, 64)
		b = append(b, " s"...)
		if o.loop.Paused() {
			b = append(b, "  PAUSED"...)
		}
		if s := o.loop.TimeScale(); s != 1 {
			b = append(b, "  scale "...)
			b = strconv.AppendFloat(b, s, 'f', 2, 64)
		}
	}
	b = append(b, '\n')

	if o.sched != nil {
		b = append(b, "ticks/s"...)
		for g, gr := range o.sched.Groups() {
			b = append(b, "  "...)
			b = append(b, gr.Name...)
			b = append(b, ' ')
			b = o.appendRate(b, o.tps[g])
			b = append(b, '/')
			b = strconv.AppendFloat(b, gr.Hz, 'g', 6, 64)
		}
		b = append(b, '\n')
	}

	if o.loop != nil {
		st := o.loop.Stats()
		b = append(b, "dropped "...)
		b = appendMillis(b, st.Dropped)
		b = append(b, "  clamped "...)
		b = appendMillis(b, st.Clamped)
		b = append(b, "  owed "...)
		b = appendMillis(b, st.Owed)
		if st.ClockBackwards > 0 {
			b = append(b, "  clock back "...)
			b = strconv.AppendInt(b, st.ClockBackwards, 10)
		}
		b = append(b, '\n')
	}

	if w != nil {
		b = append(b, "entities "...)
		b = strconv.AppendInt(b, int64(w.Len()), 10)
		b = append(b, "  bodies "...)
		b = strconv.AppendInt(b, int64(o.bodies.Count(w)), 10)
		b = append(b, '\n')
	}

	for _, f := range o.lines {
		if b = f(b); len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
	}

	if o.sched != nil {
		b = o.appendSystems(b)
	}
	o.buf = bytes.TrimRight(b, "\n")
	o.text = string(o.buf)
	o.dirty = true
}

// appendRate appends a rate with one decimal, or "--" before the first
// window has been measured.
func (o *Overlay) appendRate(b []byte, r float64) []byte {
	if !o.measured {
		return append(b, "--"...)
	}
	return strconv.AppendFloat(b, r, 'f', 1, 64)
}

func appendMillis(b []byte, d time.Duration) []byte {
	b = strconv.AppendFloat(b, float64(d)/float64(time.Millisecond), 'f', 1, 64)
	return append(b, " ms"...)
}

// appendSystems appends the scheduler's table, one system a line.
func (o *Overlay) appendSystems(b []byte) []byte {
	stats := o.sched.Stats()
	groups := o.sched.Groups()
	nameW, groupW := len("system"), len("group")
	for i := range stats {
		st := &stats[i]
		nameW = max(nameW, len(st.Name))
		o.num = appendPhase(o.num[:0], st, groups)
		groupW = max(groupW, len(o.num))
	}
	const numW = 10
	b = appendLeft(b, "system", nameW)
	b = append(b, "  "...)
	b = appendLeft(b, "group", groupW)
	for _, h := range [...]string{"calls", "mean µs", "p99 µs", "max µs", "last µs"} {
		b = appendRight(b, h, numW)
	}
	b = append(b, '\n')
	for i := range stats {
		st := &stats[i]
		b = appendLeft(b, st.Name, nameW)
		b = append(b, "  "...)
		o.num = appendPhase(o.num[:0], st, groups)
		b = appendLeftBytes(b, o.num, groupW)
		o.num = strconv.AppendInt(o.num[:0], st.Count, 10)
		b = appendRightBytes(b, o.num, numW)
		for _, d := range [...]time.Duration{st.Mean(), st.Quantile(0.99), st.Max, st.Last} {
			o.num = strconv.AppendFloat(o.num[:0], float64(d)/float64(time.Microsecond), 'f', 1, 64)
			b = appendRightBytes(b, o.num, numW)
		}
		b = append(b, '\n')
	}
	return b
}

// appendPhase appends when a system runs: its group's name, "render" and
// its layer, or "input".
func appendPhase(b []byte, st *engine.SystemStats, groups []engine.Group) []byte {
	switch {
	case st.Group >= 0:
		return append(b, groups[st.Group].Name...)
	case st.Group == engine.InputPhase:
		return append(b, "input"...)
	}
	b = append(b, "render "...)
	switch st.Layer {
	case BackgroundLayer:
		return append(b, "background"...)
	case OverlayLayer:
		return append(b, "overlay"...)
	case InspectorLayer:
		return append(b, "inspector"...)
	case math.MinInt:
		return append(b, "first"...)
	case math.MaxInt:
		return append(b, "last"...)
	}
	return strconv.AppendInt(b, int64(st.Layer), 10)
}

// utf8Len counts the runes of s: a column's width in a monospaced face
// ("µ" is two bytes, one column).
func utf8Len(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}

func appendLeft(b []byte, s string, width int) []byte {
	b = append(b, s...)
	return appendSpaces(b, width-utf8Len(s))
}

func appendLeftBytes(b, s []byte, width int) []byte {
	b = append(b, s...)
	return appendSpaces(b, width-len(s))
}

func appendRight(b []byte, s string, width int) []byte {
	return append(appendSpaces(b, width-utf8Len(s)), s...)
}

func appendRightBytes(b, s []byte, width int) []byte {
	return append(appendSpaces(b, width-len(s)), s...)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// layout draws the text into the panel image, growing it if needed.
func (o *Overlay) layout() {
	o.dirty = false
	m := o.face.Metrics()
	lineH := math.Ceil(m.HAscent + m.HDescent + m.HLineGap)
	tw, th := text.Measure(o.text, o.face, lineH)
	pw, ph := int(math.Ceil(tw))+2*overlayPad, int(math.Ceil(th))+2*overlayPad
	if o.cache == nil || o.cache.Bounds().Dx() < pw || o.cache.Bounds().Dy() < ph {
		if o.cache != nil {
			o.cache.Deallocate()
		}
		// Round up, so that a text that grows by a little does not
		// reallocate at every refresh.
		o.cache = ebiten.NewImage((pw+63)&^63, (ph+63)&^63)
	}
	o.cache.Clear()
	vector.FillRect(o.cache, 0, 0, float32(pw), float32(ph), overlayBackground, false)
	op := &text.DrawOptions{}
	op.LineSpacing = lineH
	op.GeoM.Translate(overlayPad, overlayPad)
	op.ColorScale.ScaleWithColor(overlayForeground)
	text.Draw(o.cache, o.text, o.face, op)
	o.panel = o.cache.SubImage(image.Rect(0, 0, pw, ph)).(*ebiten.Image)
}
