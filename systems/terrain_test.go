package systems_test

import (
	"math"
	"math/rand/v2"

	"github.com/jakecoffman/cp/v2"
)

// terrainVertices is the terrain of Chipmunk2D's SimpleTerrain bench scenes
// (shared/data/chipmunk-simple-terrain.md), each offset by (-320, -240).
var terrainVertices = []cp.Vector{{350.00, 425.07}, {336.00, 436.55}, {272.00, 435.39}, {258.00, 427.63}, {225.28, 420.00}, {202.82, 396.00}, {191.81, 388.00}, {189.00, 381.89}, {173.00, 380.39}, {162.59, 368.00}, {150.47, 319.00}, {128.00, 311.55}, {119.14, 286.00}, {126.84, 263.00}, {120.56, 227.00}, {141.14, 178.00}, {137.52, 162.00}, {146.51, 142.00}, {156.23, 136.00}, {158.00, 118.27}, {170.00, 100.77}, {208.43, 84.00}, {224.00, 69.65}, {249.30, 68.00}, {257.00, 54.77}, {363.00, 45.94}, {374.15, 54.00}, {386.00, 69.60}, {413.00, 70.73}, {456.00, 84.89}, {468.09, 99.00}, {467.09, 123.00}, {464.92, 135.00}, {469.00, 141.03}, {497.00, 148.67}, {513.85, 180.00}, {509.56, 223.00}, {523.51, 247.00}, {523.00, 277.00}, {497.79, 311.00}, {478.67, 348.00}, {467.90, 360.00}, {456.76, 382.00}, {432.95, 389.00}, {417.00, 411.32}, {373.00, 433.19}, {361.00, 430.02}, {350.00, 425.07}}

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
