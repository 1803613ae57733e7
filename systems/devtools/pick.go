package devtools

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Picking: which entity a click or Tab picks, through the camera's view of
// the last frame drawn.

// Cycle picks the entity step places after the picked one in entity order
// (by id; a negative step goes back), wrapping around at either end: from
// none (or a removed entity), step 1 picks the first entity after its id;
// from none once a frame has been drawn, the first entity (by id) whose
// Transform is on the screen, rather than a level's wall far off it.
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
	if !i.hasSel && next && i.viewed {
		if e, ok := i.firstOnScreen(w); ok {
			return e
		}
	}
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

// firstOnScreen returns the entity of lowest id whose Transform the last
// frame drew on the screen (a camera is not in the picture).
func (i *Inspector) firstOnScreen(w donburi.World) (donburi.Entity, bool) {
	best, found := donburi.Null, false
	for entry := range i.transforms.Iter(w) {
		pos := components.TransformC.Get(entry).At(i.alpha)
		x, y := i.view.Apply(pos.X, pos.Y)
		if x < 0 || y < 0 || x >= float64(i.screenW) || y >= float64(i.screenH) {
			continue
		}
		if e := entry.Entity(); !found || e.Id() < best.Id() {
			best, found = e, true
		}
	}
	return best, found
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
	filter := &physics.QueryFilter{Sensors: true}
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

// updateView keeps the camera's view of this frame, for the outline and
// for mapping the next clicks into the world.
func (i *Inspector) updateView(w donburi.World, ev engine.Event, screen *ebiten.Image) {
	i.alpha = ev.Alpha
	i.view.Reset()
	b := screen.Bounds()
	i.view.Translate(float64(b.Min.X), float64(b.Min.Y))
	if e, ok := i.cameras.First(w); ok {
		i.view = gfx.View(components.CameraC.Get(e), components.TransformC.Get(e).At(ev.Alpha), b)
	}
	i.inv = i.view
	i.inv.Invert()
	i.viewed = i.view.IsInvertible()
}
