package engine

// Determinism is the version of the engine's arithmetic: what makes a run's
// states the same bits on every CPU (every float product of the
// simulation rounded where a compiler could fuse it into a multiply-add,
// package engine/detmath's functions in place of math's, fixed-width
// integers in the state hasher and the physics). Two builds of one game
// whose Determinism differs may compute different states from the same
// input: netplay peers and online clients of another Determinism are
// refused by name, and a recording or a save says which it was made with.
//
// Version 1: products rounded, engine/detmath, 64-bit words hashed and
// cp's masks and hashes 64-bit. Builds before it (version 0, recorded as
// none) computed the same bits only on amd64 without GOAMD64=v3 and on
// WebAssembly, which is what version 1 computes everywhere.
const Determinism = 1
