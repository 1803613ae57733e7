// Package systems holds the engine's systems (physics, AI, rendering,
// overlay), one file each, with its tests and benchmark beside it.
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
package systems
