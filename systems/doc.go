// Package systems holds the gameplay systems a game can take as they are,
// one file each, with its tests and benchmark beside it: [PlayerControl]
// (a player's body driven by keys or a stick), [AI] (agents' state
// machines, seeing the player through the physics space, and the steering
// behaviours they are made of). It links no graphics library: a server runs
// them.
//
// Beside it, one job each:
//
//   - systems/physics: a world's cp space kept in step with the world,
//     the spawn helpers, queries, contact handlers and steering;
//   - systems/devtools: the overlay (F3), the inspector (F4) and the dev
//     keys;
//   - systems/render: sprites drawn interpolated, culled, batched, through
//     a camera;
//   - systems/path: grids, A* paths and flow fields, and the Router an
//     AI follows them with (AI.Router);
//   - systems/stage: the kit a scene is built on (world, scheduler,
//     assets, physics, dev tools), released when the scene ends, and
//     systems/stage/core, its simulation alone.
package systems
