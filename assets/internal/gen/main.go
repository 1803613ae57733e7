// Command gen draws the sprite atlas of package assets and writes it, its
// index and the font the package embeds:
//
//	go run ./assets/internal/gen            # from the module root
//	go generate ./assets                    # the same, through doc.go
//
// It writes <out>/images/atlas.png (256x256 RGBA, 32x32 cells),
// <out>/images/atlas.json (sprite name -> {x, y, w, h}) and
// <out>/fonts/Go-Regular.ttf (the Go Regular font from golang.org/x/image).
// The output is deterministic: running it twice gives identical files.
// The font's license, <out>/fonts/README, is a copy of
// golang.org/x/image/font/gofont/ttfs/README kept beside it by hand.
//
// Every shape is drawn from a signed distance function, one pixel sample
// each, with coverage clamp(0.5-d, 0, 1): anti-aliased edges from the
// standard library alone. Sprites face +x (angle 0 points right) and are
// meant to be rotated about the centre of their cell.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"

	"golang.org/x/image/font/gofont/goregular"
)

const (
	atlasSize = 256
	cell      = 32
)

// rect is one entry of atlas.json.
type rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// sprite is a cell of the atlas and the function that paints it, given the
// cell-local pixel centre (x, y) in [0, 32) and returning a premultiplied
// colour.
type sprite struct {
	name     string
	col, row int
	paint    func(x, y float64) rgba
	// frame, if not zero, is the sprite's rectangle inside its cell
	// (default: the whole cell).
	frame image.Rectangle
}

func main() {
	out := flag.String("out", "assets", "directory that receives images/ and fonts/")
	flag.Parse()
	if err := run(*out); err != nil {
		log.Fatal(err)
	}
}

func run(out string) error {
	sprites := []sprite{
		{name: "player", col: 0, row: 0, paint: player},
		{name: "agent", col: 1, row: 0, paint: agent(false)},
		{name: "agent_hurt", col: 2, row: 0, paint: agent(true)},
		{name: "prop_box", col: 3, row: 0, paint: crate},
		{name: "prop_ball", col: 4, row: 0, paint: ball},
		{name: "goal", col: 5, row: 0, paint: star},
		{name: "particle", col: 6, row: 0, paint: particle},
		{name: "wall", col: 7, row: 0, paint: wall},
		// pixel: a white cell whose frame is its centre pixel, so that
		// scaling it by (w, h) draws a w x h rectangle with any filter.
		{name: "pixel", col: 0, row: 1, paint: white, frame: image.Rect(15, 15, 16, 16)},
	}

	img := image.NewRGBA(image.Rect(0, 0, atlasSize, atlasSize))
	index := make(map[string]rect, len(sprites))
	for _, s := range sprites {
		ox, oy := s.col*cell, s.row*cell
		for y := range cell {
			for x := range cell {
				c := s.paint(float64(x)+0.5, float64(y)+0.5)
				img.SetRGBA(ox+x, oy+y, c.toRGBA())
			}
		}
		f := s.frame
		if f.Empty() {
			f = image.Rect(0, 0, cell, cell)
		}
		f = f.Add(image.Pt(ox, oy))
		index[s.name] = rect{X: f.Min.X, Y: f.Min.Y, W: f.Dx(), H: f.Dy()}
	}

	var pngBuf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&pngBuf, img); err != nil {
		return err
	}
	js, err := json.MarshalIndent(index, "", "\t") // map keys come out sorted
	if err != nil {
		return err
	}
	js = append(js, '\n')

	files := []struct {
		path string
		data []byte
	}{
		{filepath.Join(out, "images", "atlas.png"), pngBuf.Bytes()},
		{filepath.Join(out, "images", "atlas.json"), js},
		{filepath.Join(out, "fonts", "Go-Regular.ttf"), goregular.TTF},
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d bytes)\n", f.path, len(f.data))
	}
	return nil
}

// ---- colour -------------------------------------------------------------

// rgba is a premultiplied colour with components in [0, 1].
type rgba struct{ r, g, b, a float64 }

// rgb returns an opaque colour from 0..255 components.
func rgb(r, g, b uint8) rgba {
	return rgba{float64(r) / 255, float64(g) / 255, float64(b) / 255, 1}
}

// times scales the colour's alpha by k (premultiplied, so all components).
func (c rgba) times(k float64) rgba { return rgba{c.r * k, c.g * k, c.b * k, c.a * k} }

// over composites c over the background.
func (c rgba) over(bg rgba) rgba {
	k := 1 - c.a
	return rgba{c.r + bg.r*k, c.g + bg.g*k, c.b + bg.b*k, c.a + bg.a*k}
}

// mix blends two opaque colours: t=0 gives c, t=1 gives d.
func (c rgba) mix(d rgba, t float64) rgba {
	t = clamp01(t)
	return rgba{c.r + (d.r-c.r)*t, c.g + (d.g-c.g)*t, c.b + (d.b-c.b)*t, c.a + (d.a-c.a)*t}
}

// shade multiplies the colour's rgb by k (k > 1 lightens), keeping alpha.
func (c rgba) shade(k float64) rgba {
	return rgba{math.Min(c.r*k, c.a), math.Min(c.g*k, c.a), math.Min(c.b*k, c.a), c.a}
}

func (c rgba) toRGBA() color.RGBA {
	q := func(v float64) uint8 { return uint8(math.Round(clamp01(v) * 255)) }
	a := q(c.a)
	// Keep premultiplied components no larger than alpha after rounding.
	r, g, b := min(q(c.r), a), min(q(c.g), a), min(q(c.b), a)
	return color.RGBA{r, g, b, a}
}

var transparent = rgba{}

// ---- signed distance functions (negative inside, in pixels) -------------

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// cover turns a signed distance into anti-aliased coverage.
func cover(d float64) float64 { return clamp01(0.5 - d) }

// smoothstep is the usual cubic ramp from 0 at e0 to 1 at e1.
func smoothstep(e0, e1, x float64) float64 {
	t := clamp01((x - e0) / (e1 - e0))
	return t * t * (3 - 2*t)
}

func circle(x, y, cx, cy, r float64) float64 { return math.Hypot(x-cx, y-cy) - r }

func ellipse(x, y, cx, cy, rx, ry float64) float64 {
	// A good enough approximation near the boundary for small ellipses.
	dx, dy := (x-cx)/rx, (y-cy)/ry
	k := math.Hypot(dx, dy)
	return (k - 1) * math.Min(rx, ry)
}

// box is a rectangle centred at (cx, cy) with half sizes (hx, hy) and
// corner radius r.
func box(x, y, cx, cy, hx, hy, r float64) float64 {
	qx := math.Abs(x-cx) - hx + r
	qy := math.Abs(y-cy) - hy + r
	return math.Hypot(math.Max(qx, 0), math.Max(qy, 0)) + math.Min(math.Max(qx, qy), 0) - r
}

// segment is the distance to the segment a-b minus r (a capsule).
func segment(x, y, ax, ay, bx, by, r float64) float64 {
	px, py := x-ax, y-ay
	dx, dy := bx-ax, by-ay
	t := clamp01((px*dx + py*dy) / (dx*dx + dy*dy))
	return math.Hypot(px-dx*t, py-dy*t) - r
}

// polygon is the signed distance to a closed polygon (any winding).
func polygon(x, y float64, pts [][2]float64) float64 {
	d := math.Inf(1)
	inside := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		ax, ay := pts[j][0], pts[j][1]
		bx, by := pts[i][0], pts[i][1]
		d = math.Min(d, segment(x, y, ax, ay, bx, by, 0))
		if (ay > y) != (by > y) && x < (bx-ax)*(y-ay)/(by-ay)+ax {
			inside = !inside
		}
	}
	if inside {
		return -d
	}
	return d
}

// ---- sprites -------------------------------------------------------------

// player: a rounded arrowhead ship pointing right, bright cyan, with a
// darker rim, a lit upper half and a cockpit.
func player(x, y float64) rgba {
	hull := [][2]float64{{28, 16}, {6, 5}, {10.5, 16}, {6, 27}}
	const round = 2.0
	d := polygon(x, y, hull) - round
	if d > 1 {
		return transparent
	}
	body := rgb(0, 225, 255)
	// Light from the upper left: brighter towards y<16, darker below.
	body = body.mix(rgb(190, 250, 255), smoothstep(18, 6, y)*0.55)
	body = body.mix(rgb(0, 120, 170), smoothstep(17, 27, y)*0.6)
	c := body
	// Rim.
	rim := rgb(0, 80, 120)
	c = rim.mix(c, smoothstep(-0.5, -2.2, d))
	// Centre ridge: a faint line from nose to tail notch.
	ridge := segment(x, y, 11.5, 16, 25, 16, 0.6)
	c = rgb(230, 255, 255).times(cover(ridge) * 0.45).over(c)
	// Cockpit: dark glass with a highlight.
	cp := ellipse(x, y, 17, 16, 3.6, 2.6)
	c = rgb(10, 40, 80).times(cover(cp)).over(c)
	hl := circle(x, y, 17.8, 15.1, 1.0)
	c = rgba{1, 1, 1, 1}.times(cover(hl) * 0.85).over(c)
	// Engine glow at the tail notch.
	glow := circle(x, y, 9.5, 16, 2.0)
	c = rgb(255, 230, 120).times(cover(glow) * 0.9).over(c)
	return c.times(cover(d))
}

// agent returns the painter of the arena's creatures: a round red-orange
// body, facing right, with two eyes; hurt agents are pale.
func agent(hurt bool) func(x, y float64) rgba {
	body, dark, light := rgb(240, 90, 40), rgb(150, 30, 20), rgb(255, 180, 90)
	if hurt {
		body, dark, light = rgb(245, 190, 175), rgb(190, 130, 125), rgb(255, 235, 225)
	}
	return func(x, y float64) rgba {
		const cx, cy, r = 15.0, 16.0, 12.5
		// Little feet/spikes around the body, drawn first (under it).
		c := transparent
		for i := range 6 {
			a := float64(i)*math.Pi/3 + math.Pi/6
			fx, fy := cx+math.Cos(a)*(r-1), cy+math.Sin(a)*(r-1)
			f := circle(x, y, fx, fy, 3)
			c = dark.times(cover(f)).over(c)
		}
		d := circle(x, y, cx, cy, r)
		if d < 1 {
			// Sphere-ish shading lit from the upper left.
			nx, ny := (x-cx)/r, (y-cy)/r
			l := clamp01(0.55 - 0.5*(nx*0.6+ny*0.8))
			fill := body.mix(dark, smoothstep(0.5, 1.0, math.Hypot(nx, ny))*0.6)
			fill = fill.mix(light, l*0.6)
			fill = dark.mix(fill, smoothstep(-0.3, -1.8, d))
			c = fill.times(cover(d)).over(c)
		}
		// Eyes, looking right.
		for _, ey := range []float64{11.5, 20.5} {
			const ex = 20.0
			white := ellipse(x, y, ex, ey, 3.6, 3.2)
			c = rgb(250, 250, 245).times(cover(white)).over(c)
			pr := 1.8
			if hurt {
				pr = 1.1
			}
			pupil := circle(x, y, ex+1.3, ey, pr)
			c = rgb(25, 15, 20).times(cover(pupil)).over(c)
			glint := circle(x, y, ex+0.6, ey-1.0, 0.6)
			c = rgba{1, 1, 1, 1}.times(cover(glint) * 0.9).over(c)
		}
		if hurt {
			// A small worried mouth.
			m := segment(x, y, 25, 14, 25, 18, 0.7)
			c = rgb(120, 60, 60).times(cover(m)).over(c)
		}
		return c
	}
}

// crate: a wooden box with a frame, planks and a diagonal brace.
func crate(x, y float64) rgba {
	d := box(x, y, 16, 16, 13, 13, 2)
	if d > 1 {
		return transparent
	}
	wood := rgb(196, 136, 72)
	// Plank grain: horizontal planks with slight tone differences.
	plank := math.Floor((y - 3) / 6.5)
	wood = wood.shade(1 + 0.06*math.Sin(plank*2.3+0.7))
	// Grain streaks.
	g := math.Sin(x*0.9+plank*3.1) * math.Sin(x*0.23+y*0.11+plank)
	wood = wood.shade(1 + 0.05*g)
	c := wood
	seam := rgb(110, 68, 32)
	// Plank seams.
	for _, sy := range []float64{9.5, 16, 22.5} {
		s := math.Abs(y-sy) - 0.35
		c = seam.times(cover(s) * 0.8).over(c)
	}
	frameCol := rgb(150, 96, 46)
	// Frame: an inner border band.
	inner := box(x, y, 16, 16, 9.5, 9.5, 1)
	band := math.Max(d, -inner)
	c = frameCol.times(cover(band)).over(c)
	// Diagonal brace inside the frame.
	brace := math.Max(segment(x, y, 7, 25, 25, 7, 1.8), inner)
	c = frameCol.times(cover(brace)).over(c)
	braceEdge := math.Max(math.Abs(segment(x, y, 7, 25, 25, 7, 1.8))-0.35, inner)
	c = seam.times(cover(braceEdge) * 0.8).over(c)
	innerEdge := math.Abs(inner) - 0.35
	c = seam.times(cover(innerEdge) * 0.9).over(c)
	// Nails in the corners.
	for _, p := range [][2]float64{{6, 6}, {26, 6}, {6, 26}, {26, 26}} {
		n := circle(x, y, p[0], p[1], 1.1)
		c = rgb(70, 60, 55).times(cover(n)).over(c)
	}
	// Outer outline and a light top-left bevel.
	c = rgb(255, 220, 160).times(cover(math.Abs(d+1.5)-0.5) * 0.35 * smoothstep(20, 4, x+y-12)).over(c)
	c = rgb(80, 45, 20).mix(c, smoothstep(-0.4, -1.4, d))
	return c.times(cover(d))
}

// ball: a shaded grey sphere lit from the upper left, with a specular spot.
func ball(x, y float64) rgba {
	const cx, cy, r = 16.0, 16.0, 12.5
	d := circle(x, y, cx, cy, r)
	if d > 1 {
		return transparent
	}
	nx, ny := (x-cx)/r, (y-cy)/r
	nz := math.Sqrt(math.Max(0, 1-nx*nx-ny*ny))
	lx, ly, lz := -0.45, -0.55, 0.70
	ln := math.Sqrt(lx*lx + ly*ly + lz*lz)
	lx, ly, lz = lx/ln, ly/ln, lz/ln
	diff := math.Max(0, nx*lx+ny*ly+nz*lz)
	// Specular (Blinn, view along +z).
	hx, hy, hz := lx, ly, lz+1
	hn := math.Sqrt(hx*hx + hy*hy + hz*hz)
	spec := math.Pow(math.Max(0, (nx*hx+ny*hy+nz*hz)/hn), 40)
	v := 0.18 + 0.62*diff + 0.55*spec
	// Bounce light from below right.
	v += 0.10 * clamp01(nx*0.5+ny*0.7)
	c := rgba{v * 0.92, v * 0.94, v, 1}
	c = rgba{math.Min(c.r, 1), math.Min(c.g, 1), math.Min(c.b, 1), 1}
	c = rgb(40, 42, 48).mix(c, smoothstep(-0.3, -1.5, d))
	return c.times(cover(d))
}

// star: a yellow five-pointed star with an orange rim and a soft glow.
func star(x, y float64) rgba {
	const cx, cy = 16.0, 16.5
	pts := make([][2]float64, 10)
	for i := range pts {
		r := 12.8
		if i%2 == 1 {
			r = 5.5
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts[i] = [2]float64{cx + r*math.Cos(a), cy + r*math.Sin(a)}
	}
	d := polygon(x, y, pts) - 0.8
	glow := rgb(255, 230, 90).times(0.35 * math.Exp(-math.Max(d, 0)/1.6) * smoothstep(4, 0, d))
	if d > 1 {
		return glow
	}
	fill := rgb(255, 220, 40)
	// Facets: lighter on the upper-left half of each point.
	ang := math.Atan2(y-cy, x-cx)
	facet := math.Sin(5 * (ang + math.Pi/2)) // alternates across each point
	fill = fill.mix(rgb(255, 250, 170), clamp01(facet)*0.5)
	fill = fill.mix(rgb(240, 170, 0), clamp01(-facet)*0.35)
	c := rgb(205, 110, 0).mix(fill, smoothstep(-0.3, -1.6, d))
	return c.times(cover(d)).over(glow)
}

// particle: a soft white dot that fades to nothing at the cell's edge.
func particle(x, y float64) rgba {
	r := math.Hypot(x-16, y-16)
	a := math.Exp(-r*r/(2*5.0*5.0)) * smoothstep(16, 12, r)
	return rgba{1, 1, 1, 1}.times(a)
}

// wall: an opaque grey stone tile with a bevel, filling its whole cell so
// that walls tile seamlessly.
func wall(x, y float64) rgba {
	base := rgb(118, 122, 130)
	// Gentle deterministic mottling.
	n := math.Sin(x*1.7+y*0.3)*math.Sin(y*1.3-x*0.5) + 0.5*math.Sin(x*0.37+y*0.61)
	c := base.shade(1 + 0.04*n)
	// Bevel: lit top/left edges, shaded bottom/right edges.
	edge := math.Min(math.Min(x, y), math.Min(cell-x, cell-y))
	if edge < 3 {
		k := smoothstep(3, 0.5, edge)
		if x+y < cell { // nearer the top-left corner: light
			c = c.mix(rgb(172, 176, 184), k)
		} else {
			c = c.mix(rgb(70, 72, 80), k)
		}
	}
	// Diagonal corner seams keep the bevel crisp.
	grout := math.Min(math.Abs(x-y), math.Abs(x+y-cell)) - 0.3
	if edge < 3 {
		c = rgb(95, 98, 105).times(cover(grout) * 0.5 * smoothstep(3, 1, edge)).over(c)
	}
	// A thin dark line at the border.
	c = rgb(52, 54, 60).mix(c, smoothstep(0.0, 1.0, edge))
	return c
}

// white is the pixel cell: opaque white.
func white(x, y float64) rgba { return rgba{1, 1, 1, 1} }
