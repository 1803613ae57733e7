package systems

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/engine/window"
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
// not: a panel at the top-right corner of the screen, beside the overlay,
// with every component of the picked entity and its exported state (the
// values [state.Hasher.VisitEntity] shows, grouped by component,
// vectors on one line), rebuilt after every tick, values that changed in
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
// Stage does both, and its dev keys toggle it with F4 ([DevKeys]).
//
// It is presentation only: it reads the world and the frame's live input
// (Input events), draws, and never changes game state, so a recording
// replays the same with the inspector open or closed, and its clicks and
// keys reach the game's ticks as any input does (a game that reads the mouse
// sees the clicks that pick).
//
// Its keys and clicks act only while it is shown. Hidden, it costs a branch
// in each of Input and Draw: no work, no allocation (about 4 ns a frame,
// BenchmarkInspector/hidden). Shown, a frame between two ticks draws the
// panel laid out at the last tick (one DrawImage) and the outline (one
// DrawTriangles), allocating nothing (about 25 µs on a 2-core VM with
// Mesa's software renderer); each tick's rebuild (the visit, the layout of
// its text) costs some 0.65 ms and 410 allocations there, and is skipped
// when nothing shown has changed.
type Inspector struct {
	loop    *engine.Loop
	sched   *engine.Scheduler
	phys    *Physics
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

type lineKind uint8

const (
	lineTitle lineKind = iota
	lineHeader
	lineValue
	lineNote
)

// inspectorLine is one line of the panel.
type inspectorLine struct {
	kind    lineKind
	text    string
	comp    string // the component's name (headers and values)
	changed bool   // a value that differs from the last tick's
}

var (
	inspectorHeader  = color.RGBA{120, 210, 255, 255}
	inspectorChanged = color.RGBA{255, 215, 80, 255}
	// The panel is darker than the overlay's: it is larger, over the game.
	inspectorBackground = color.RGBA{8, 10, 16, 224} // premultiplied
	inspectorOutline    = color.RGBA{255, 70, 230, 255}
)

// inspectorMaxColumns cuts longer lines (a long string value).
const inspectorMaxColumns = 72

// NewInspector returns an inspector (hidden unless opts.Visible) of the
// world its systems are called with. loop gives the tick count and pause shown in its title
// and tells it when a tick has run (nil: it rebuilds every frame); sched's
// groups are the ones counted (nil: the first group only); physics answers
// clicks on shapes (nil: clicks find Transforms only).
func NewInspector(loop *engine.Loop, sched *engine.Scheduler, physics *Physics, opts *InspectorOptions) *Inspector {
	if opts == nil {
		opts = &InspectorOptions{}
	}
	i := &Inspector{
		loop:       loop,
		sched:      sched,
		phys:       physics,
		face:       opts.Face,
		visible:    opts.Visible,
		cameras:    donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC)),
		all:        donburi.NewQuery(filter.Contains()),
		loose:      donburi.NewQuery(filter.And(filter.Contains(components.TransformC), filter.Not(filter.Contains(components.BodyC)))),
		transforms: donburi.NewQuery(filter.Contains(components.TransformC)),
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
// It does not toggle the inspector: DevKeys' F4 does, or Toggle.
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

// Cycle picks the entity step places after the picked one in entity order
// (by id; a negative step goes back), wrapping around at either end: from
// none (or a removed entity), step 1 picks the first entity after its id.
// Repeated, it visits every entity of the world in turn, in the same order
// every time. An empty world picks none.
func (i *Inspector) Cycle(w donburi.World, step int) {
	for ; step > 0; step-- {
		i.Select(i.neighbour(w, true))
	}
	for ; step < 0; step++ {
		i.Select(i.neighbour(w, false))
	}
}

// neighbour returns the entity whose id follows (or precedes) the picked
// one's, wrapping around; donburi.Null in an empty world.
func (i *Inspector) neighbour(w donburi.World, next bool) donburi.Entity {
	var cur donburi.Entity
	if i.hasSel {
		cur = i.sel
	}
	var best, wrap donburi.Entity
	for entry := range i.all.Iter(w) {
		e := entry.Entity()
		id := e.Id()
		if next {
			if i.hasSel && id > cur.Id() || !i.hasSel {
				if best == donburi.Null || id < best.Id() {
					best = e
				}
			}
			if wrap == donburi.Null || id < wrap.Id() {
				wrap = e
			}
		} else {
			if i.hasSel && id < cur.Id() || !i.hasSel {
				if best == donburi.Null || id > best.Id() {
					best = e
				}
			}
			if wrap == donburi.Null || id > wrap.Id() {
				wrap = e
			}
		}
	}
	if best == donburi.Null {
		return wrap
	}
	return best
}

// Pick returns the entity at screen point x, y, as a click there finds it
// (see [Inspector]), and true; or donburi.Null and false. The point is
// mapped into the world through the camera's view of the last frame drawn
// (before any, or headless, screen points are world points). It selects
// nothing.
func (i *Inspector) Pick(w donburi.World, x, y float64) (donburi.Entity, bool) {
	wx, wy := x, y
	scale := 1.0
	if i.viewed {
		wx, wy = i.inv.Apply(x, y)
		scale = viewScale(&i.view)
	}
	if math.IsNaN(wx) || math.IsNaN(wy) || math.IsInf(wx, 0) || math.IsInf(wy, 0) || scale == 0 {
		return donburi.Null, false
	}
	p := cp.Vector{X: wx, Y: wy}
	radius := InspectorPickRadius / scale
	filter := &QueryFilter{Sensors: true}
	best, bestD := donburi.Null, math.Inf(1)
	if i.phys != nil {
		// The shape containing the point, deepest first; else the nearest
		// surface within the radius.
		if h, ok := i.phys.QueryNearest(p, radius, filter); ok && h.Entity != donburi.Null && w.Valid(h.Entity) {
			best, bestD = h.Entity, h.Distance
			if bestD <= 0 {
				return best, true
			}
		}
	}
	q := i.loose
	if i.phys == nil {
		q = i.transforms
	}
	for entry := range q.Iter(w) {
		pos := components.TransformC.Get(entry).At(i.alpha)
		if d := math.Hypot(pos.X-wx, pos.Y-wy); d <= radius && d < bestD {
			best, bestD = entry.Entity(), d
		}
	}
	return best, best != donburi.Null
}

// viewScale returns how many screen pixels a world unit spans under g.
func viewScale(g *ebiten.GeoM) float64 {
	a, c := g.Element(0, 0), g.Element(1, 0)
	return math.Hypot(a, c)
}

func (i *Inspector) scrollBy(n int) {
	s := max(0, min(i.scroll+n, len(i.lines)-1))
	if s != i.scroll {
		i.scroll = s
		i.relayout = true
	}
}

// clickPanel folds or unfolds the component whose name is at pt.
func (i *Inspector) clickPanel(pt image.Point) {
	lineH := i.lineHeight()
	row := int(float64(pt.Y-i.rect.Min.Y-overlayPad) / lineH)
	if row < 0 || row >= len(i.rows) || i.rows[row] < 0 {
		return
	}
	l := i.lines[i.rows[row]]
	if l.kind != lineHeader {
		return
	}
	if i.collapsed == nil {
		i.collapsed = map[string]bool{}
	}
	i.collapsed[l.comp] = !i.collapsed[l.comp]
	i.stale = true
}

func (i *Inspector) lineHeight() float64 {
	m := i.face.Metrics()
	return math.Ceil(m.HAscent + m.HDescent + m.HLineGap)
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
	if i.hasSel && w.Valid(i.sel) {
		i.outline(w, ev, screen)
	}
	b := screen.Bounds()
	if i.relayout || b.Dx() != i.screenW || b.Dy() != i.screenH {
		i.screenW, i.screenH = b.Dx(), b.Dy()
		i.layout()
	}
	if i.panel != nil {
		i.op.GeoM.Reset()
		i.op.GeoM.Translate(float64(i.rect.Min.X), float64(i.rect.Min.Y))
		screen.DrawImage(i.panel, &i.op)
	}
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

// updateView keeps the camera's view of this frame, for the outline and
// for mapping the next clicks into the world.
func (i *Inspector) updateView(w donburi.World, ev engine.Event, screen *ebiten.Image) {
	i.alpha = ev.Alpha
	i.view.Reset()
	b := screen.Bounds()
	i.view.Translate(float64(b.Min.X), float64(b.Min.Y))
	if e, ok := i.cameras.First(w); ok {
		i.view = components.CameraC.Get(e).View(components.TransformC.Get(e).At(ev.Alpha), b)
	}
	i.inv = i.view
	i.inv.Invert()
	i.viewed = i.view.IsInvertible()
}

// outline draws the picked entity's outline at its interpolated pose.
func (i *Inspector) outline(w donburi.World, ev engine.Event, screen *ebiten.Image) {
	entry := w.Entry(i.sel)
	if !entry.HasComponent(components.TransformC) {
		return
	}
	pose := components.TransformC.Get(entry).At(ev.Alpha)
	i.pose = pose
	i.sin, i.cos = math.Sincos(pose.Angle)
	scale := viewScale(&i.view)
	const pad = 3 // pixels between the shape and its outline
	i.loops = i.loops[:0]
	i.pts = i.pts[:0]
	if entry.HasComponent(components.ShapeC) {
		for _, s := range components.ShapeC.Get(entry).Shapes {
			if s == nil {
				continue
			}
			switch c := s.Class.(type) {
			case *cp.Circle:
				i.circle(s.CenterOfGravity(), c.Radius()*scale+pad)
			case *cp.Segment:
				i.capsule(c.A(), c.B(), c.Radius()+pad/scale)
			case *cp.PolyShape:
				// Each vertex pushed out from the centroid, past the
				// rounding and the padding: the outline stays clear of the
				// shape.
				n := c.Count()
				var cx, cy float64
				for k := range n {
					v := c.Vert(k)
					cx, cy = cx+v.X/float64(n), cy+v.Y/float64(n)
				}
				grow := (c.Radius() + pad/scale) * math.Sqrt2
				for k := range n {
					v := c.Vert(k)
					dx, dy := v.X-cx, v.Y-cy
					if l := math.Hypot(dx, dy); l > 0 {
						dx, dy = dx/l*grow, dy/l*grow
					}
					i.point(v.X+dx, v.Y+dy)
				}
				i.closeLoop()
			}
		}
	}
	if len(i.loops) == 0 && entry.HasComponent(components.SpriteC) {
		if sp := components.SpriteC.Get(entry); sp.Image != nil {
			sx, sy := sp.ScaleX, sp.ScaleY
			if sx == 0 {
				sx = 1
			}
			if sy == 0 {
				sy = 1
			}
			b := sp.Image.Bounds()
			x0, y0 := -sp.OriginX*sx, -sp.OriginY*sy
			x1, y1 := x0+float64(b.Dx())*sx, y0+float64(b.Dy())*sy
			i.point(x0, y0)
			i.point(x1, y0)
			i.point(x1, y1)
			i.point(x0, y1)
			i.closeLoop()
		}
	}
	if len(i.loops) == 0 { // a ring of fixed size on the screen
		i.circle(cp.Vector{}, 10)
	}
	if i.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		i.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	// A dark border under a bright line: visible on light and dark ground.
	i.verts, i.idx = i.verts[:0], i.idx[:0]
	i.strokeLoops(4, color.RGBA{0, 0, 0, 255})
	i.strokeLoops(2, inspectorOutline)
	screen.DrawTriangles(i.verts, i.idx, i.white, &i.triOp)
}

// point adds a point, in the picked entity's frame, to the loop being made,
// mapped to the screen.
func (i *Inspector) point(x, y float64) {
	sx, sy := i.view.Apply(i.pose.X+x*i.cos-y*i.sin, i.pose.Y+x*i.sin+y*i.cos)
	i.pts = append(i.pts, [2]float32{float32(sx), float32(sy)})
}

// closeLoop ends the loop being made.
func (i *Inspector) closeLoop() { i.loops = append(i.loops, len(i.pts)) }

// circle adds a circle about centre (in the entity's frame) of radius r
// screen pixels.
func (i *Inspector) circle(centre cp.Vector, r float64) {
	i.point(centre.X, centre.Y)
	c := i.pts[len(i.pts)-1]
	i.pts = i.pts[:len(i.pts)-1]
	const n = 40
	for k := range n {
		sin, cos := math.Sincos(2 * math.Pi * float64(k) / n)
		i.pts = append(i.pts, [2]float32{c[0] + float32(r*cos), c[1] + float32(r*sin)})
	}
	i.closeLoop()
}

// capsule adds a hexagon around a segment from a to b of radius r (the
// entity's units): enough to see which wall is picked.
func (i *Inspector) capsule(a, b cp.Vector, r float64) {
	d := b.Sub(a)
	l := d.Length()
	if l == 0 {
		d, l = cp.Vector{X: 1}, 1
	}
	n := cp.Vector{X: -d.Y / l * r, Y: d.X / l * r}
	along := d.Mult(r / l)
	for _, p := range [...]cp.Vector{a.Add(n), b.Add(n), b.Add(along), b.Sub(n), a.Sub(n), a.Sub(along)} {
		i.point(p.X, p.Y)
	}
	i.closeLoop()
}

// strokeLoops adds the loops' edges as quads of width w pixels in colour c,
// each edge lengthened by w/2 at both ends so that corners close.
func (i *Inspector) strokeLoops(w float32, c color.RGBA) {
	r, g, b, a := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	start := 0
	for _, end := range i.loops {
		loop := i.pts[start:end]
		start = end
		for k := range loop {
			p, q := loop[k], loop[(k+1)%len(loop)]
			dx, dy := q[0]-p[0], q[1]-p[1]
			l := float32(math.Hypot(float64(dx), float64(dy)))
			if l == 0 || len(i.verts)+4 > math.MaxUint16 {
				continue
			}
			ex, ey := dx/l*w/2, dy/l*w/2 // along the edge
			nx, ny := -ey, ex            // across it
			base := uint16(len(i.verts))
			for _, v := range [...][2]float32{
				{p[0] - ex + nx, p[1] - ey + ny}, {q[0] + ex + nx, q[1] + ey + ny},
				{q[0] + ex - nx, q[1] + ey - ny}, {p[0] - ex - nx, p[1] - ey - ny},
			} {
				i.verts = append(i.verts, ebiten.Vertex{DstX: v[0], DstY: v[1], SrcX: 1, SrcY: 1,
					ColorR: r, ColorG: g, ColorB: b, ColorA: a})
			}
			i.idx = append(i.idx, base, base+1, base+2, base, base+2, base+3)
		}
	}
}

// build rebuilds the panel's lines from the picked entity's values. After a
// tick (ticked), the values it shows before are those to compare with.
func (i *Inspector) build(w donburi.World, ticked bool) {
	i.stale = false
	i.builds++
	if i.state == nil {
		i.state = state.NewHasher(nil)
		i.prev, i.cur = map[string]string{}, map[string]string{}
	}
	switch {
	case i.prevSel != i.sel || !i.hasSel:
		clear(i.prev) // nothing has changed for a newly picked entity
		clear(i.cur)
		i.prevSel = i.sel
	case ticked:
		i.prev, i.cur = i.cur, i.prev
		clear(i.cur)
	}
	i.lines = i.lines[:0]
	title := i.title(w)
	i.lines = append(i.lines, inspectorLine{kind: lineTitle, text: title})
	switch {
	case !i.hasSel:
		i.note("click an entity, or Tab to cycle")
	case !w.Valid(i.sel):
		i.note("removed from the world")
	default:
		i.values = i.values[:0]
		if err := i.state.VisitEntity(w, i.sel, i.keep); err != nil {
			i.note(err.Error())
			break
		}
		i.addComponents(w)
	}
	var b strings.Builder
	marked := 0
	for k, l := range i.lines {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
		if l.changed {
			marked++
		}
	}
	// The same text with nothing marked, before and now (an entity at
	// rest): the panel drawn stays as it is.
	if t := b.String(); t != i.text || marked > 0 || i.marked > 0 || i.panel == nil {
		i.text, i.marked = t, marked
		i.relayout = true
	}
}

func (i *Inspector) note(s string) {
	i.lines = append(i.lines, inspectorLine{kind: lineNote, text: "  " + s})
}

// title names the entity, the tick and the pause.
func (i *Inspector) title(w donburi.World) string {
	b := []byte("inspector")
	if i.hasSel {
		b = append(b, "  "...)
		b = appendEntityName(b, i.sel)
		if w.Valid(i.sel) {
			b = append(b, "  "...)
			b = strconv.AppendInt(b, int64(len(w.Entry(i.sel).Archetype().ComponentTypes())), 10)
			b = append(b, " components"...)
		}
	}
	if i.loop != nil {
		b = append(b, "  tick "...)
		b = strconv.AppendInt(b, i.loop.Ticks(0), 10)
		if i.loop.Paused() {
			b = append(b, "  PAUSED"...)
		}
	}
	return string(b)
}

// appendEntityName writes e as the dumps do: e<id>v<version>.
func appendEntityName(b []byte, e donburi.Entity) []byte {
	b = append(b, 'e')
	b = strconv.AppendUint(b, uint64(e.Id()), 10)
	b = append(b, 'v')
	return strconv.AppendUint(b, uint64(e.Version()), 10)
}

// shownValue is one value of the picked entity: its component, its path
// below it, and its text as the dump writes it and as the panel shows it.
type shownValue struct {
	comp, path, value, short string
	number                   bool // a number, shown on one line with its siblings
}

// keep keeps a value of the picked entity's visit. A value with nothing to
// show is left out: its component is listed without values.
func (i *Inspector) keep(v *state.Value) {
	if v.Kind == state.Empty {
		return
	}
	i.scratch = v.AppendText(i.scratch[:0])
	sv := shownValue{comp: v.Component, path: strings.TrimPrefix(string(v.Path), "."), value: string(i.scratch)}
	sv.short = sv.value
	switch v.Kind {
	case state.Float:
		sv.number = v.Named == "" && !math.IsNaN(v.Float)
		// Many digits are shown as seven significant ones (474.5000000000153 is 474.5).
		if sv.number && len(sv.value) > 9 && strings.ContainsAny(sv.value, ".eE") {
			sv.short = strconv.FormatFloat(v.Float, 'g', 7, 64)
		}
	case state.Int, state.Uint, state.Len:
		sv.number = v.Named == ""
	}
	i.values = append(i.values, sv)
}

// addComponents turns the values into one block per component, in the
// visit's order (by name), with the entity's components that have no
// exported state listed too.
func (i *Inspector) addComponents(w donburi.World) {
	values := i.values
	var names []string
	for _, ct := range w.Entry(i.sel).Archetype().ComponentTypes() {
		names = append(names, ct.Name())
	}
	for _, v := range values {
		names = append(names, v.comp)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		start := slices.IndexFunc(values, func(v shownValue) bool { return v.comp == name })
		end := start
		for end >= 0 && end < len(values) && values[end].comp == name {
			end++
		}
		var block []shownValue
		if start >= 0 {
			block = values[start:end]
		}
		i.addComponent(name, block)
	}
}

// addComponent adds a component's header and its values, runs of two to
// four short-named siblings (X and Y, R G B A) on one line.
func (i *Inspector) addComponent(name string, vals []shownValue) {
	folded := i.collapsed[name]
	head := "[-] " + name
	if folded {
		head = "[+] " + name + " (" + strconv.Itoa(len(vals)) + " values)"
	}
	i.lines = append(i.lines, inspectorLine{kind: lineHeader, text: head, comp: name})
	if len(vals) == 0 {
		i.lines = append(i.lines, inspectorLine{kind: lineNote, text: "    (no exported state)", comp: name})
		return
	}
	type row struct {
		label, value string
		changed      bool
	}
	var rows []row
	for k := 0; k < len(vals); {
		n, merge := siblings(vals[k:])
		if !merge {
			for _, v := range vals[k : k+n] {
				rows = append(rows, row{label: v.path, value: v.short, changed: i.compare(name, v)})
			}
			k += n
			continue
		}
		changed := false
		var b []byte
		for m, v := range vals[k : k+n] {
			changed = i.compare(name, v) || changed
			if m > 0 {
				b = append(b, "  "...)
			}
			_, l := splitPath(v.path)
			b = append(b, l...)
			b = append(b, '=')
			b = append(b, v.short...)
		}
		parent, _ := splitPath(vals[k].path)
		rows = append(rows, row{label: parent, value: string(b), changed: changed})
		k += n
	}
	if folded {
		return
	}
	width := 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.label))
	}
	width = min(width, 28)
	for _, r := range rows {
		b := []byte("    ")
		b = appendLeft(b, r.label, width)
		b = append(b, "  "...)
		b = append(b, r.value...)
		i.lines = append(i.lines, inspectorLine{kind: lineValue, text: cutColumns(string(b), inspectorMaxColumns),
			comp: name, changed: r.changed})
	}
}

// compare notes v's value for the next tick and reports whether it differs
// from the last tick's.
func (i *Inspector) compare(comp string, v shownValue) bool {
	key := comp + "." + v.path
	old, ok := i.prev[key]
	i.cur[key] = v.value
	return ok && old != v.value
}

// siblings returns how many values from vals[0] on share its parent, and
// whether they go on one line: all the fields of a small struct of numbers
// (a vector, a colour, a rectangle's corner: two to four fields of short
// names, the line short enough). The caller starts at a struct's first
// field, so a run is always a whole struct.
func siblings(vals []shownValue) (n int, merge bool) {
	parent, _ := splitPath(vals[0].path)
	merge = parent != ""
	width := 0
	for n < len(vals) {
		p, leaf := splitPath(vals[n].path)
		if p != parent {
			break
		}
		if !vals[n].number || len(leaf) > 6 {
			merge = false
		}
		width += len(leaf) + 1 + len(vals[n].short) + 2
		n++
	}
	return n, merge && n >= 2 && n <= 4 && width <= 44
}

// splitPath splits a path at its last dot: "Body.Position.X" is
// "Body.Position" and "X".
func splitPath(p string) (parent, leaf string) {
	k := strings.LastIndexByte(p, '.')
	if k < 0 {
		return "", p
	}
	return p[:k], p[k+1:]
}

// cutColumns cuts s to n runes, the last one an ellipsis.
func cutColumns(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	k := 0
	for j := range s {
		if k == n-1 {
			return s[:j] + "…"
		}
		k++
	}
	return s
}

// layout draws the lines that fit on the screen into the panel image, at
// the screen's top-right corner: the title, then from the scroll position
// on, and a last line saying what is cut off. Headers, changed values and
// the rest are drawn in their colours, changed values over a faint bar.
func (i *Inspector) layout() {
	i.relayout = false
	lineH := i.lineHeight()
	i.maxRows = max(3, int((float64(i.screenH)-2*overlayPad)/lineH))
	body := len(i.lines) - 1     // the lines below the title
	footed := body > i.maxRows-1 // they do not all fit: a last line says so
	avail := i.maxRows - 1
	if footed {
		avail--
	}
	i.scroll = max(0, min(i.scroll, body-avail))
	shown := min(body-i.scroll, avail)
	i.rows = append(i.rows[:0], 0)
	for k := range shown {
		i.rows = append(i.rows, 1+i.scroll+k)
	}
	var footer string
	if footed {
		footer = "  … " + strconv.Itoa(i.scroll) + " lines above, " + strconv.Itoa(body-i.scroll-shown) + " below (wheel)"
	}
	i.normal, i.heads, i.changed = i.normal[:0], i.heads[:0], i.changed[:0]
	cols := 0
	put := func(s string, kind lineKind, changed bool) {
		cols = max(cols, utf8.RuneCountInString(s))
		switch {
		case kind == lineHeader || kind == lineTitle:
			i.heads = append(i.heads, s...)
		case changed:
			i.changed = append(i.changed, s...)
		default:
			i.normal = append(i.normal, s...)
		}
		i.normal = append(i.normal, '\n')
		i.heads = append(i.heads, '\n')
		i.changed = append(i.changed, '\n')
	}
	for _, k := range i.rows {
		l := &i.lines[k]
		put(l.text, l.kind, l.changed)
	}
	if footer != "" {
		put(footer, lineNote, false)
		i.rows = append(i.rows, -1)
	}
	adv := text.Advance("0", i.face)
	pw := int(math.Ceil(float64(cols)*adv)) + 2*overlayPad
	ph := int(math.Ceil(float64(len(i.rows))*lineH)) + 2*overlayPad
	if i.cache == nil || i.cache.Bounds().Dx() < pw || i.cache.Bounds().Dy() < ph {
		if i.cache != nil {
			i.cache.Deallocate()
		}
		i.cache = ebiten.NewImage((pw+63)&^63, (ph+63)&^63)
	}
	i.cache.Clear()
	vector.FillRect(i.cache, 0, 0, float32(pw), float32(ph), inspectorBackground, false)
	for r, k := range i.rows {
		if k >= 0 && i.lines[k].changed {
			vector.FillRect(i.cache, 0, float32(overlayPad+float64(r)*lineH), float32(pw), float32(lineH),
				color.RGBA{60, 50, 10, 110}, false)
		}
	}
	for _, t := range [...]struct {
		s []byte
		c color.RGBA
	}{{i.normal, overlayForeground}, {i.heads, inspectorHeader}, {i.changed, inspectorChanged}} {
		op := &text.DrawOptions{}
		op.LineSpacing = lineH
		op.GeoM.Translate(overlayPad, overlayPad)
		op.ColorScale.ScaleWithColor(t.c)
		text.Draw(i.cache, string(t.s), i.face, op)
	}
	i.panel = i.cache.SubImage(image.Rect(0, 0, pw, ph)).(*ebiten.Image)
	x0 := max(0, i.screenW-pw) // on a narrow screen, cut on the right
	i.rect = image.Rect(x0, 0, x0+pw, ph)
}
