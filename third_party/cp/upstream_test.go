package cp_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	upstream "github.com/jakecoffman/cp/v2"

	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/internal/forkcheck"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Every file of upstream cp (the version go.mod pins, from the module
// cache) is in this copy, the same after the rewrites FORK.md describes,
// or named in FORK.md's table as changed or not copied; every file of the
// copy that upstream does not have is named there as new.
func TestFilesAsUpstream(t *testing.T) {
	forkcheck.Test(t, forkcheck.Fork{
		Upstream: "github.com/jakecoffman/cp/v2",
		Version:  "v2.4.0",
		Copy:     "github.com/fixedstep/fixedstep/third_party/cp",
		Dir:      ".",
		Rewrites: forkcheck.Rewrites{Rounding: true, MaxMin: true},
	})
}

// physicsLib is what the comparison needs of a cp: build a scene, step it,
// and read every body.
type physicsLib interface {
	setup(gravityY, slop float64, iterations uint, sleep bool)
	spatialHash(dim float64, cells int) // find pairs with cp's spatial hash instead of its BBTree
	segment(ax, ay, bx, by, friction, elasticity float64)
	circle(x, y, r, friction float64)
	box(x, y, size, friction float64)
	step(dt float64)
	state() []float64 // every body's x, y, vx, vy, angle, spin, in the space's order
}

type forkLib struct{ s *cp.Space }

func (l *forkLib) setup(g, slop float64, it uint, sleep bool) {
	l.s = cp.NewSpace()
	l.s.Iterations = it
	l.s.SetGravity(cp.Vector{Y: g})
	l.s.SetCollisionSlop(slop)
	if sleep {
		l.s.SleepTimeThreshold = 0.5
		l.s.IdleSpeedThreshold = 20 // a pile at rest jitters faster than cp's default threshold
	}
}

func (l *forkLib) spatialHash(dim float64, cells int) { l.s.UseSpatialHash(dim, cells) }

func (l *forkLib) segment(ax, ay, bx, by, f, e float64) {
	s := l.s.AddShape(cp.NewSegment(l.s.StaticBody, cp.Vector{X: ax, Y: ay}, cp.Vector{X: bx, Y: by}, 0))
	s.SetFriction(f)
	s.SetElasticity(e)
}

func (l *forkLib) circle(x, y, r, f float64) {
	m := r * r / 25
	b := l.s.AddBody(cp.NewBody(m, cp.MomentForCircle(m, 0, r, cp.Vector{})))
	b.SetPosition(cp.Vector{X: x, Y: y})
	l.s.AddShape(cp.NewCircle(b, r, cp.Vector{})).SetFriction(f)
}

func (l *forkLib) box(x, y, size, f float64) {
	b := l.s.AddBody(cp.NewBody(1, cp.MomentForBox(1, size, size)))
	b.SetPosition(cp.Vector{X: x, Y: y})
	l.s.AddShape(cp.NewBox(b, size, size, 0.5)).SetFriction(f)
}

func (l *forkLib) step(dt float64) { l.s.Step(dt) }

func (l *forkLib) sleeping() (n int) {
	l.s.EachBody(func(b *cp.Body) {
		if b.IsSleeping() {
			n++
		}
	})
	return n
}

func (l *forkLib) state() (out []float64) {
	l.s.EachBody(func(b *cp.Body) {
		p, v := b.Position(), b.Velocity()
		out = append(out, p.X, p.Y, v.X, v.Y, b.Angle(), b.AngularVelocity())
	})
	return out
}

type upstreamLib struct{ s *upstream.Space }

func (l *upstreamLib) setup(g, slop float64, it uint, sleep bool) {
	l.s = upstream.NewSpace()
	l.s.Iterations = it
	l.s.SetGravity(upstream.Vector{Y: g})
	l.s.SetCollisionSlop(slop)
	if sleep {
		l.s.SleepTimeThreshold = 0.5
		l.s.IdleSpeedThreshold = 20 // a pile at rest jitters faster than cp's default threshold
	}
}

func (l *upstreamLib) spatialHash(dim float64, cells int) { l.s.UseSpatialHash(dim, cells) }

func (l *upstreamLib) segment(ax, ay, bx, by, f, e float64) {
	s := l.s.AddShape(upstream.NewSegment(l.s.StaticBody, upstream.Vector{X: ax, Y: ay}, upstream.Vector{X: bx, Y: by}, 0))
	s.SetFriction(f)
	s.SetElasticity(e)
}

func (l *upstreamLib) circle(x, y, r, f float64) {
	m := r * r / 25
	b := l.s.AddBody(upstream.NewBody(m, upstream.MomentForCircle(m, 0, r, upstream.Vector{})))
	b.SetPosition(upstream.Vector{X: x, Y: y})
	l.s.AddShape(upstream.NewCircle(b, r, upstream.Vector{})).SetFriction(f)
}

func (l *upstreamLib) box(x, y, size, f float64) {
	b := l.s.AddBody(upstream.NewBody(1, upstream.MomentForBox(1, size, size)))
	b.SetPosition(upstream.Vector{X: x, Y: y})
	l.s.AddShape(upstream.NewBox(b, size, size, 0.5)).SetFriction(f)
}

func (l *upstreamLib) step(dt float64) { l.s.Step(dt) }

func (l *upstreamLib) state() (out []float64) {
	l.s.EachBody(func(b *upstream.Body) {
		p, v := b.Position(), b.Velocity()
		out = append(out, p.X, p.Y, v.X, v.Y, b.Angle(), b.AngularVelocity())
	})
	return out
}

// terrainCircles is Chipmunk's SimpleTerrainCircles bench scene in
// outline: n circles of radius 5 at seeded points of a disc, falling into
// a bowl of segments, sleeping on or off. Its products are rounded and
// its trigonometry is detmath's, so that every CPU builds the same scene.
func terrainCircles(l physicsLib, n int, sleep bool) {
	l.setup(-100, 0.5, 10, sleep)
	const sides = 24
	for i := range sides {
		a0, a1 := math.Pi+float64(math.Pi*float64(i))/sides, math.Pi+float64(math.Pi*float64(i+1))/sides
		l.segment(float64(260*detmath.Cos(a0)), float64(260*detmath.Sin(a0)), float64(260*detmath.Cos(a1)), float64(260*detmath.Sin(a1)), 1, 0)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for range n {
		a, d := float64(rng.Float64()*2*math.Pi), math.Sqrt(rng.Float64())
		l.circle(float64(detmath.Cos(a)*d*180), float64(detmath.Sin(a)*d*180), 5, 0.9)
	}
}

// pyramidStack is Chipmunk's PyramidStack demo: rows of boxes on a floor.
func pyramidStack(l physicsLib, rows int) {
	l.setup(-100, 0.5, 30, false)
	l.segment(-2000, -240, 2000, -240, 1, 1)
	top := -240 + 15 + float64(rows-1)*32
	for i := range rows {
		for j := 0; j <= i; j++ {
			l.box(float64(j*32-i*16), top-float64(i*32), 30, 0.8)
		}
	}
}

// hashed builds a scene with cp's spatial hash as the space's index (cells
// of a ball's diameter, 10 cells per body, cp's advice) instead of its
// BBTree: the shapes go into the hash as they are added.
func hashed(build func(physicsLib), bodies int) func(physicsLib) {
	return func(l physicsLib) {
		build(&hashLib{l, bodies})
	}
}

// hashLib is a physicsLib whose setup switches the space to the spatial hash.
type hashLib struct {
	physicsLib
	bodies int
}

func (l *hashLib) setup(g, slop float64, it uint, sleep bool) {
	l.physicsLib.setup(g, slop, it, sleep)
	l.spatialHash(10, 10*l.bodies)
}

// benchScenes are the scenes the comparisons step, 400 steps each.
var benchScenes = []struct {
	name  string
	build func(physicsLib)
}{
	{"circles=300", func(l physicsLib) { terrainCircles(l, 300, false) }},
	{"circles=300/sleeping", func(l physicsLib) { terrainCircles(l, 300, true) }},
	{"pyramid=105", func(l physicsLib) { pyramidStack(l, 14) }},
	{"circles=300/hash", hashed(func(l physicsLib) { terrainCircles(l, 300, false) }, 300)},
	{"circles=300/hash/sleeping", hashed(func(l physicsLib) { terrainCircles(l, 300, true) }, 300)},
	{"pyramid=105/hash", hashed(func(l physicsLib) { pyramidStack(l, 14) }, 105)},
}

// Stepped side by side with upstream cp, this copy gives the same bodies,
// bit for bit, after every step of Chipmunk's bench scenes, where the
// compiler fuses no product (amd64 v1 and v2, 386, wasm): there rounding a
// product changes nothing, and the bench scenes meet no argument for which
// detmath's Pow or Exp gives other bits than math's assembly. On a 32-bit
// CPU the scenes with the spatial hash are not compared: upstream's hash
// values wrap at 32 bits there, and its buckets differ from this copy's.
func TestStepsAsUpstream(t *testing.T) {
	if compilerFuses {
		t.Skip("the compiler fuses for this CPU: upstream's products fuse, this copy's are rounded (TestStepHashes compares with amd64 v1)")
	}
	for _, sc := range benchScenes {
		t.Run(sc.name, func(t *testing.T) {
			if strings.Contains(sc.name, "/hash") && unsafe.Sizeof(uintptr(0)) < 8 {
				t.Skip("a 32-bit CPU: upstream's spatial hash values wrap at 32 bits, this copy's are 64 bits (the same buckets on every CPU)")
			}
			fork, up := &forkLib{}, &upstreamLib{}
			sc.build(fork)
			sc.build(up)
			asleep := 0
			for step := 1; step <= 400; step++ {
				fork.step(1.0 / 60)
				up.step(1.0 / 60)
				asleep = max(asleep, fork.sleeping())
				a, b := fork.state(), up.state()
				if len(a) != len(b) {
					t.Fatalf("step %d: %d bodies, upstream %d", step, len(a)/6, len(b)/6)
				}
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
						t.Fatalf("step %d: body %d's value %d is %v, upstream's %v", step, i/6, i%6, a[i], b[i])
					}
				}
			}
			if strings.HasSuffix(sc.name, "/sleeping") && asleep == 0 {
				t.Fatal("no body fell asleep: the scene does not test sleeping")
			}
			t.Logf("%d bodies asleep at most", asleep)
		})
	}
}

// Once warm, a step of an awake pile allocates nothing (upstream's
// allocates for every colliding pair: its collision info escapes through
// the function table, and each handler lookup builds a key on the heap).
func TestStepAllocatesNothingOnceWarm(t *testing.T) {
	if debugBuild {
		t.Skip("cp's debug asserts allocate (-tags debug)")
	}
	l := &forkLib{}
	terrainCircles(l, 500, false)
	for range 300 {
		l.step(1.0 / 60)
	}
	if n := testing.AllocsPerRun(30, func() { l.step(1.0 / 60) }); n != 0 {
		t.Fatalf("a step of 500 awake balls allocates %v times", n)
	}
}
