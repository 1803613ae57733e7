package physics_test

import (
	"math"
	"math/rand/v2"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// terrainVertices is the terrain of Chipmunk2D's SimpleTerrain bench scenes
// (shared/data/chipmunk-simple-terrain.md), each offset by (-320, -240).
var terrainVertices = []cp.Vector{{X: 350.00, Y: 425.07}, {X: 336.00, Y: 436.55}, {X: 272.00, Y: 435.39}, {X: 258.00, Y: 427.63}, {X: 225.28, Y: 420.00}, {X: 202.82, Y: 396.00}, {X: 191.81, Y: 388.00}, {X: 189.00, Y: 381.89}, {X: 173.00, Y: 380.39}, {X: 162.59, Y: 368.00}, {X: 150.47, Y: 319.00}, {X: 128.00, Y: 311.55}, {X: 119.14, Y: 286.00}, {X: 126.84, Y: 263.00}, {X: 120.56, Y: 227.00}, {X: 141.14, Y: 178.00}, {X: 137.52, Y: 162.00}, {X: 146.51, Y: 142.00}, {X: 156.23, Y: 136.00}, {X: 158.00, Y: 118.27}, {X: 170.00, Y: 100.77}, {X: 208.43, Y: 84.00}, {X: 224.00, Y: 69.65}, {X: 249.30, Y: 68.00}, {X: 257.00, Y: 54.77}, {X: 363.00, Y: 45.94}, {X: 374.15, Y: 54.00}, {X: 386.00, Y: 69.60}, {X: 413.00, Y: 70.73}, {X: 456.00, Y: 84.89}, {X: 468.09, Y: 99.00}, {X: 467.09, Y: 123.00}, {X: 464.92, Y: 135.00}, {X: 469.00, Y: 141.03}, {X: 497.00, Y: 148.67}, {X: 513.85, Y: 180.00}, {X: 509.56, Y: 223.00}, {X: 523.51, Y: 247.00}, {X: 523.00, Y: 277.00}, {X: 497.79, Y: 311.00}, {X: 478.67, Y: 348.00}, {X: 467.90, Y: 360.00}, {X: 456.76, Y: 382.00}, {X: 432.95, Y: 389.00}, {X: 417.00, Y: 411.32}, {X: 373.00, Y: 433.19}, {X: 361.00, Y: 430.02}, {X: 350.00, Y: 425.07}}

// terrainScene builds Chipmunk's SimpleTerrainCircles_N scene: static terrain
// segments in space, and n circles of radius 5 at seeded random points of a
// disc of radius 180, handed to add (which puts them in a space, straight or
// through the physics system).
func terrainScene(space *cp.Space, n int, seed uint64, add func(body *cp.Body, shape *cp.Shape)) {
	space.Iterations = 10
	space.SetGravity(cp.Vector{X: 0, Y: -100})
	space.SetCollisionSlop(0.5)
	off := cp.Vector{X: -320, Y: -240}
	for i := 0; i+1 < len(terrainVertices); i++ {
		a, b := terrainVertices[i].Add(off), terrainVertices[i+1].Add(off)
		s := space.AddShape(cp.NewSegment(space.StaticBody, a, b, 0))
		s.SetFriction(1)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	const r = 5.0
	for range n {
		mass := r * r / 25
		body := cp.NewBody(mass, cp.MomentForCircle(mass, 0, r, cp.Vector{}))
		// a random point in the unit disc, times 180
		a, d := rng.Float64()*2*math.Pi, math.Sqrt(rng.Float64())
		body.SetPosition(cp.Vector{X: math.Cos(a) * d * 180, Y: math.Sin(a) * d * 180})
		shape := cp.NewCircle(body, r, cp.Vector{})
		shape.SetElasticity(0)
		shape.SetFriction(0.9)
		add(body, shape)
	}
}
