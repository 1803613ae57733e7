package devtools

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// InspectorLayer is the render layer of a Stage's inspector: above the
// game's, below the overlay's.
const InspectorLayer = OverlayLayer - 1

// InspectorPickRadius is how far from an entity, in screen pixels, a click
// still picks it when it is on no shape.
const InspectorPickRadius = 12

// InspectorOptions configure an [Inspector]. The zero value (or nil) is the
// default everywhere.
type InspectorOptions struct {
	// Face is the font; nil means Go Mono at 12 pixels (the overlay's).
	Face text.Face

	// Visible starts the inspector shown; by default it starts hidden.
	Visible bool
}

// Inspector shows one entity's components while the game runs, paused or
// not: a panel at the top-right corner of the screen, beside the overlay
// (or at the top-left, while at the right it would hide the picked entity
// and at the left it would not), with every component of the picked
// entity and its exported state (the values [state.Hasher.VisitEntity]
// shows, grouped by component, vectors on one line), rebuilt after every
// tick, values that changed in
// the last tick drawn in yellow; and the entity outlined on the screen at its
// interpolated Transform, through the camera (its cp shapes, else its
// sprite's rectangle, else a ring), so that it can be followed. Pause (P) and
// single step (period) work as ever: stepping while paused shows each tick's
// values.
//
// An entity is picked by clicking it (the left button: the cursor is mapped
// through the inverse of the camera's view of the last frame drawn, then the
// physics' point queries find the shape under it, sensors included, or the
// nearest within [InspectorPickRadius] pixels, or else the nearest Transform
// of an entity without a body within that radius; a click on nothing picks
// nothing), or by cycling through every entity in entity order with Tab
// (Shift-Tab backwards). A click on the panel never picks what is behind it:
// on a component's name it folds or unfolds that component; the wheel over
// the panel scrolls it when it is taller than the screen.
//
// Add [Inspector.Input] as an input system (Scheduler.AddInput) and
// [Inspector.Draw] as a render system above the game's (InspectorLayer);
// Stage does both, and its dev keys toggle it with F4 ([Keys]).
//
// It is presentation only: it reads the world and the frame's live input
// (Input events), draws, and never changes game state, so a recording
// replays the same with the inspector open or closed, and its clicks and
// keys reach the game's ticks as any input does (a game that reads the mouse
// sees the clicks that pick).
//
// Its keys and clicks act only while it is shown. Hidden, it costs a branch
// in each of Input and Draw: no work, no allocation
// (BenchmarkInspector/hidden). Shown, a frame between two ticks draws the
// panel laid out at the last tick (one DrawImage) and the outline (one
// DrawTriangles), allocating nothing (BenchmarkInspector/shown/between-ticks);
// each tick's rebuild (the visit, the layout of its text) allocates, and
// is skipped when nothing shown has changed (BenchmarkInspector/shown/after-a-tick).
type Inspector struct {
	loop    *engine.Loop
	sched   *engine.Scheduler
	phys    *physics.Physics
	face    text.Face
	visible bool

	state      *state.Hasher // made at the first build
	cameras    *donburi.Query
	all        *donburi.Query
	loose      *donburi.Query // entities with a Transform and no Body
	transforms *donburi.Query

	sel    donburi.Entity
	hasSel bool

	// the view of the last frame drawn on a screen, world to screen
	view, inv ebiten.GeoM
	viewed    bool
	alpha     float64

	// content: rebuilt at every tick, or when the selection changes
	stale     bool         // rebuild at the next Draw
	ticks     int64        // the groups' tick counts (summed) at the last build
	builds    int          // rebuilds so far, for tests
	values    []shownValue // the picked entity's values, as last visited
	scratch   []byte
	lines     []inspectorLine
	prev      map[string]string // the values before the last tick, by path
	cur       map[string]string // the values at the last build
	prevSel   donburi.Entity
	collapsed map[string]bool // components folded, by name
	text      string
	marked    int // lines marked as changed

	// layout: the panel, redrawn when the content or the scroll changes
	relayout bool
	scroll   int // first value line shown
	maxRows  int // rows that fit on the screen at the last layout
	rows     []int
	cache    *ebiten.Image
	panel    *ebiten.Image
	rect     image.Rectangle // the panel on the screen
	avoid    *Overlay        // a panel to stay clear of (Avoid)
	top      int             // where the panel starts: below avoid's when they would overlap
	screenW  int
	screenH  int
	op       ebiten.DrawImageOptions
	normal   []byte
	heads    []byte
	changed  []byte

	// the outline: loops of points on the screen, stroked as quads
	pose     components.Pose
	sin, cos float64
	pts      [][2]float32
	loops    []int // where each loop ends in pts
	verts    []ebiten.Vertex
	idx      []uint16
	white    *ebiten.Image
	triOp    ebiten.DrawTrianglesOptions
}

var (
	inspectorHeader  = color.RGBA{120, 210, 255, 255}
	inspectorChanged = color.RGBA{255, 215, 80, 255}
	// The panel is darker than the overlay's: it is larger, over the game.
	inspectorBackground = color.RGBA{8, 10, 16, 224} // premultiplied
	inspectorOutline    = color.RGBA{255, 70, 230, 255}
)

// NewInspector returns an inspector (hidden unless opts.Visible) of the
// world its systems are called with. loop gives the tick count and pause shown in its title
// and tells it when a tick has run (nil: it rebuilds every frame); sched's
// groups are the ones counted (nil: the first group only); physics answers
// clicks on shapes (nil: clicks find Transforms only).
func NewInspector(loop *engine.Loop, sched *engine.Scheduler, physics *physics.Physics, opts *InspectorOptions) *Inspector {
	if opts == nil {
		opts = &InspectorOptions{}
	}
	i := &Inspector{
		loop:    loop,
		sched:   sched,
		phys:    physics,
		face:    opts.Face,
		visible: opts.Visible,
		cameras: donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC)),
		all:     donburi.NewQuery(filter.Contains()),
		// A camera is no thing in the world to click on (Tab still visits it).
		loose: donburi.NewQuery(filter.And(filter.Contains(components.TransformC),
			filter.Not(filter.Contains(components.BodyC)), filter.Not(filter.Contains(components.CameraC)))),
		transforms: donburi.NewQuery(filter.And(filter.Contains(components.TransformC), filter.Not(filter.Contains(components.CameraC)))),
		stale:      true,
	}
	if i.face == nil {
		i.face = &text.GoTextFace{Source: defaultFaceSource(), Size: 12}
	}
	return i
}

// Visible reports whether the inspector is shown.
func (i *Inspector) Visible() bool { return i.visible }

// SetVisible shows or hides the inspector. Shown, it rebuilds its panel at
// the next frame.
func (i *Inspector) SetVisible(v bool) {
	if v && !i.visible {
		i.stale = true
	}
	i.visible = v
}

// Toggle shows the inspector if hidden, hides it if shown.
func (i *Inspector) Toggle() { i.SetVisible(!i.visible) }

// Selected returns the picked entity and true, or donburi.Null and false
// when none is. The entity may have been removed since it was picked (the
// panel then says so).
func (i *Inspector) Selected() (donburi.Entity, bool) { return i.sel, i.hasSel }

// Select picks entity e (donburi.Null: none), as a click on it would.
func (i *Inspector) Select(e donburi.Entity) {
	if e != i.sel || i.hasSel != (e != donburi.Null) {
		i.scroll = 0
	}
	i.sel, i.hasSel = e, e != donburi.Null
	i.stale = true
}

// Text returns the panel's text as last built: a title line naming the
// entity, the tick and whether the game is paused, then for each component
// a line with its name ("[-] Transform", or "[+] Transform (6 values)" when
// folded) and a line per value, indented, the whole panel even where it
// is scrolled off the screen. It is "" before the first frame shown.
func (i *Inspector) Text() string { return i.text }

// Avoid makes the panel keep clear of the overlay's: drawn below it when,
// side by side, the two would overlap. stage.New does it for its overlay.
func (i *Inspector) Avoid(o *Overlay) { i.avoid = o }

// Rect returns where the panel was last drawn on the screen (empty before
// the first frame drawn, or while hidden): clicks inside it never pick.
func (i *Inspector) Rect() image.Rectangle {
	if !i.visible {
		return image.Rectangle{}
	}
	return i.rect
}

// Input picks, cycles, folds and scrolls on the frame's live input: a left
// click on the screen picks what is under it (see [Inspector]), on the panel
// folds a component; Tab and Shift-Tab cycle; the wheel over the panel
// scrolls. It is an engine.System for Input events (Scheduler.AddInput); it
// does nothing while the inspector is hidden, and nothing on other events.
// It does not toggle the inspector: Keys' F4 does, or Toggle.
func (i *Inspector) Input(w donburi.World, ev engine.Event) {
	if !i.visible {
		return
	}
	in := ev.Input
	if ev.Kind != engine.Input || in == nil {
		return
	}
	if in.KeyPressed(input.KeyTab) {
		step := 1
		if in.KeyDown(input.KeyShiftLeft) || in.KeyDown(input.KeyShiftRight) || in.KeyDown(input.KeyShift) {
			step = -1
		}
		i.Cycle(w, step)
	}
	pt := image.Pt(int(math.Floor(in.CursorX)), int(math.Floor(in.CursorY)))
	onPanel := pt.In(i.rect)
	if onPanel && in.WheelY != 0 {
		i.scrollBy(-int(math.Round(in.WheelY * 3)))
	}
	if in.MouseJustPressed(input.MouseButtonLeft) {
		if onPanel {
			i.clickPanel(pt)
		} else {
			e, _ := i.Pick(w, in.CursorX, in.CursorY)
			i.Select(e)
		}
	}
}

// Draw outlines the picked entity and draws the panel on the event's screen, after
// rebuilding the panel if a tick has run since the last frame. It is an
// engine.System for the render phase (InspectorLayer). Hidden, it returns
// at once. Headless (no screen) it keeps its text up to date and draws
// nothing.
func (i *Inspector) Draw(w donburi.World, ev engine.Event) {
	if !i.visible {
		return
	}
	if t := i.tickCount(); i.stale || t != i.ticks || i.loop == nil {
		ticked := t != i.ticks || i.loop == nil
		i.ticks = t
		i.build(w, ticked)
	}
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	i.updateView(w, ev, screen)
	b := screen.Bounds()
	selX := math.NaN() // the picked entity's x on the screen, if it has a Transform
	if i.hasSel && w.Valid(i.sel) {
		i.outline(w, ev, screen)
		if w.Entry(i.sel).HasComponent(components.TransformC) { // outline took its pose
			x, _ := i.view.Apply(i.pose.X, i.pose.Y)
			selX = x - float64(b.Min.X)
		}
	}
	top := 0
	if i.avoid != nil { // below the overlay's panel when side by side they would overlap
		x0 := i.panelX(selX, b.Dx())
		if r := i.avoid.Rect(); !r.Empty() && r.Min.X < x0+i.rect.Dx() && r.Max.X > x0 {
			top = r.Max.Y
		}
	}
	if i.relayout || b.Dx() != i.screenW || b.Dy() != i.screenH || top != i.top {
		i.screenW, i.screenH, i.top = b.Dx(), b.Dy(), top
		i.layout()
	}
	i.rect = i.rect.Add(image.Pt(i.panelX(selX, b.Dx())-i.rect.Min.X, 0))
	if i.panel != nil {
		i.op.GeoM.Reset()
		i.op.GeoM.Translate(float64(i.rect.Min.X), float64(i.rect.Min.Y))
		screen.DrawImage(i.panel, &i.op)
	}
}

// panelX returns the panel's left edge on a screen w pixels wide: the
// right edge's (the panel cut on the right when the screen is narrower),
// or 0 while at the right the panel would hide the picked entity, at x on
// the screen, and at the left it would not (x is NaN with none shown).
func (i *Inspector) panelX(x float64, w int) int {
	pw := i.rect.Dx()
	if x >= float64(w-pw) && x >= float64(pw) {
		return 0
	}
	return max(0, w-pw)
}

// tickCount sums the ticks run by the groups counted.
func (i *Inspector) tickCount() int64 {
	if i.loop == nil {
		return 0
	}
	n := 1
	if i.sched != nil {
		n = len(i.sched.Groups())
	}
	var t int64
	for g := range n {
		t += i.loop.Ticks(g)
	}
	return t
}
