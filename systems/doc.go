// Package systems holds the engine's systems (physics, AI, rendering,
// overlay, the inspector), one file each, with its tests and benchmark
// beside it, and the kit a game's scenes are built on: [Stage] (a scene's
// world, scheduler, assets, overlay and dev keys, released at the end; End
// hands on the next scene) and [DevKeys].
//
// # A scene
//
// A scene makes a Stage, spawns its entities (their sprites from
// [Stage.Sprite] and [Stage.Rect]; with a body through the Physics spawn
// helpers, without one through [Stage.SpawnSprite]), adds its systems
// (PlayerControl, Physics.Update, its rules, [Render] for the sprites,
// [Stage.Text] for words on screen) and runs it: see [Stage] for a whole
// one, and the README's "A game of your own" for a whole game.
//
// # Physics
//
// [Physics] owns a world's cp space and keeps it in step with the world. A
// game spawns bodies with [Physics.SpawnCircle], [Physics.SpawnBox],
// [Physics.SpawnPolygon], [Physics.SpawnSegment] and [Physics.SpawnWalls]
// ([BodyOptions]; [BodyKind] says what collides with what), finds entities
// with [Physics.QueryNearest], [Physics.QueryPoint],
// [Physics.QuerySegmentFirst], [Physics.QuerySegment] and [Physics.QueryBox]
// ([Hit]), reacts to contacts between entities with given components with
// [Physics.OnCollide] and [Physics.OnSeparate] ([Contact]), and lets
// [PlayerControl] drive the [components.Player] from the tick's input.
//
// A spawn helper's last arguments are the entity's own component types,
// added at their zero values; list every type the game sets on it
// afterwards, since donburi panics on a SetValue of a type the entity lacks:
//
//	ship := st.Physics.SpawnCircle(14, opts, components.PlayerC, ShipC)
//	components.PlayerC.SetValue(st.World.Entry(ship), components.Player{Speed: 250})
//
// # Seeing inside
//
// A Stage comes with an [Overlay] (F3: frames and ticks per second, alpha,
// dropped time, per-system timings) and an [Inspector] (F4: pick an entity
// by clicking it or with Tab, and see its components live, outlined on
// screen). Both are presentation only, and cost nothing while hidden.
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
// Physics itself allocates nothing per step beyond what cp does.
package systems
