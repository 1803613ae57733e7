// Package cp is the project's copy of Chipmunk2D for Go,
// github.com/jakecoffman/cp/v2 at v2.4.0 (MIT licence, in LICENSE), kept
// here so that the engine can save and restore a space exactly, which
// upstream cannot: Space.Snapshot and Space.Restore (snapshot.go). Games
// import it by this path, so a game in its own module gets it with the
// engine, without a replace directive.
//
// The changes from upstream, each tested (FORK.md lists them):
//   - Space.Snapshot and Space.Restore, with a Snapshot type, and a mark
//     field in the objects a snapshot may reach twice;
//   - free arbiters and spatial hash handles are kept in slices, not in
//     sync.Pools: a pool could hand out an object a restored space uses
//     again, and a slice is part of the state a snapshot restores;
//   - a step allocates nothing once warm (upstream's allocates for every
//     colliding pair): Collide calls the pair's function directly, and
//     LookupHandler's key is kept in the space; the builtin min and max
//     replace math.Min and math.Max;
//   - every CPU computes the same space: each float product is rounded by
//     a conversion, float64(a*b), so that no compiler fuses it into a
//     multiply-add, and the trigonometry, Exp and Pow are detmath's
//     (cmd/detcheck -fix made the change; detcheck finds nothing here).
//
// Where the compiler fuses nothing (amd64 with GOAMD64 v1 or v2, 386,
// wasm) a step gives bit for bit what upstream's gives (upstream_test.go
// steps Chipmunk's own bench scenes through both and compares every body
// after every step); on every CPU, those fusing too, it gives what it
// gives on amd64 v1 (stephash_test.go).
package cp
