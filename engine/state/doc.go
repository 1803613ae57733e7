// Package state reads the simulation state of a donburi world as data:
// [Hasher] hashes every component of every entity with no code per
// component (the state checksum that recordings store and replays
// compare, per component type too), [Hasher.Visit] shows the same state
// value by value as structured [Value]s, and [Dump] writes it as text to
// diff. What is read of a value is planned once per type from its exported
// fields; a type says what its state is with [Summarizer], a library's
// type with [Summarize].
//
// It imports no graphics library and nothing of the engine but donburi,
// cp and xxhash: a server, a bot or a verifier of recordings hashes worlds
// with it as a game does.
//
// # Outline
//
//   - [Hasher]: [Hasher.Sum] (allocation-free after the first call),
//     [Hasher.ComponentSums], [Hasher.Ignore]; [Checksum] for a one-off.
//   - [Hasher.Visit] and [Hasher.VisitEntity]: the state as [Value]s, for
//     an inspector or a tool; [Dump], [Hasher.Dump] and
//     [Hasher.DumpEntity]: the same as lines of text.
//   - [Summarizer] and [Writer]: a type's own account of its state;
//     [Summarize] for a type of another package; [KnownAs] for a type
//     that moved to another package and keeps the checksums it had.
package state
