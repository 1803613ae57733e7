package engine

import "fmt"

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

// checkDeterminism refuses a recording (or a save's) made with another
// arithmetic than this engine's; one that names none (0) is replayed, and
// says so if it diverges (DivergenceError.Unversioned).
func checkDeterminism(what string, lg *InputLog) error {
	if d := lg.determinism; d != 0 && d != Determinism {
		return fmt.Errorf("engine: Run: the %s was made with determinism version %d; this engine computes with %d: "+
			"its states would not be this engine's (replay it with the engine that made it)", what, d, Determinism)
	}
	return nil
}
