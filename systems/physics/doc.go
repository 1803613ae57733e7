// Package physics keeps a world's cp space (Chipmunk2D) in step with the
// world: [Physics] puts the bodies and shapes of spawned entities in the
// space and takes them out with their entities, steps it at the group's
// fixed rate, moves every Transform to its body's pose, and reports
// collisions in an order that depends only on the simulation.
//
// A game spawns bodies with [Physics.SpawnCircle], [Physics.SpawnBox],
// [Physics.SpawnPolygon], [Physics.SpawnSegment] and [Physics.SpawnWalls]
// ([BodyOptions]; [BodyKind] says what collides with what), finds entities
// with [Physics.QueryNearest], [Physics.QueryPoint],
// [Physics.QuerySegmentFirst], [Physics.QuerySegment] and
// [Physics.QueryBox] ([Hit]), reacts to contacts between entities with
// given components with [Physics.OnCollide] (a touch begins),
// [Physics.OnTouch] (every step it lasts) and [Physics.OnSeparate] (it
// ends), or asks which pairs touch now with [Physics.Touching] ([Contact]),
// and steers AI agents with [Physics.Steer]. [Config] sets up
// the space (gravity, solver iterations, sleeping, the spatial hash).
//
// A spawn helper's last arguments are the entity's own component types,
// added at their zero values; list every type the game sets on it
// afterwards, since donburi panics on a SetValue of a type the entity lacks:
//
//	ship := st.Physics.SpawnCircle(14, opts, components.PlayerC, ShipC)
//	components.PlayerC.SetValue(st.World.Entry(ship), components.Player{Speed: 250})
//
// # Speed
//
// cp finds a contact only once two shapes overlap at the end of a step: a
// body that moves farther in a step than the thinner of the two shapes
// (its radius, or a wall's) can pass through, or end up deep inside what it
// hit. At 60 Hz a ball of radius 8 must stay under 8 x 60 = 480 units a
// second against a thin wall; [BodyOptions.MaxSpeed] bounds a body's speed
// every step, and thicker walls (a larger SpawnWalls radius) help. cp's
// solver also pushes overlapping shapes apart, which adds speed: a bounce
// off a kinematic body (a paddle) or into a corner can leave a body faster
// than it came, even with Elasticity 1 and no friction. A game that wants a
// ball at a constant speed sets it after every step (a system after
// Physics.Update that scales its velocity).
//
// # Cost
//
// cp allocates for every pair of shapes whose bounding boxes overlap in a
// step (its arbiters), touching or not: a ball resting a hair above a
// paddle costs about 10 allocations a step; kept a few units clear, none.
// Physics itself allocates nothing per step beyond what cp does
// (BenchmarkPhysicsOverhead measures it beside a bare cp space).
package physics
