// Package state reads the simulation state of a donburi world as data:
// [Hasher] hashes every component of every entity with no code per
// component (the state checksum that recordings store and replays
// compare, per component type too), [Hasher.Visit] shows the same state
// value by value as structured [Value]s, and [Dump] writes it as text to
// diff. What is read of a value is planned once per type from its exported
// fields; a type says what its state is with [Summarizer], a library's
// type with [Summarize].
//
// It imports no graphics library, no physics library and nothing of the
// engine but donburi and xxhash: a server, a bot or a verifier of
// recordings hashes worlds with it as a game does. The summaries of cp's
// values are registered by package systems/physics, those of ebiten's by
// package components/gfx.
//
// # Names
//
// The checksum, the dump, [Hasher.ComponentSums] and with them the desync
// report name every type by a name it declares, never by its Go package
// path, so that a type moves to another package and recordings of worlds
// that hold it keep replaying:
//
//   - A component type by its donburi name: its Go type's name
//     ("Transform"), or the name given with SetName
//     (donburi.NewComponentType[Pos]().SetName("Position"),
//     donburi.NewTag("ball"), events.EventType.SetName), or by [Name]. A
//     generic type's arguments are written without package paths
//     ("Box[Item]"); an unnamed type is written in Go syntax.
//   - A type met as the dynamic type of an interface (and so written in
//     the hash before its value, and in the dump as ".(name)") by the
//     name given to [Name] or [Summarize], else by its Go name without
//     package qualifiers ("Item", "*Item"). A library's types are named as
//     its users write them: "cp.Body", "rand.PCG", "ebiten.Image".
//
// A game declares nothing for a component type whose name is its own in
// its worlds. Two component types of one name in one world (two unnamed
// tags, both "Tag"; two event types of one Go type; two Follow types of
// two packages), or two types of one name met in interfaces, are a panic
// at the first hash that meets both, naming both Go types: give one a
// name. A name is part of every checksum of a world that holds its type:
// keep it once recorded.
//
// Recordings made before input log format 5 named types by their Go
// package paths (and the project's types by where they were then); their
// replays hash so again, with [Options.PathNames], which package
// systems/stage sets from engine.Recording.PathNames.
//
// # Outline
//
//   - [Hasher]: [Hasher.Sum] (allocation-free after the first call),
//     [Hasher.ComponentSums], [Hasher.Ignore]; [Checksum] for a one-off.
//   - [Hasher.Visit] and [Hasher.VisitEntity]: the state as [Value]s, for
//     an inspector or a tool; [Dump], [Hasher.Dump] and
//     [Hasher.DumpEntity]: the same as lines of text.
//   - [Summarizer] and [Writer]: a type's own account of its state;
//     [Summarize] for a type of another package; [Name] for a type's
//     name.
//   - [AppendWorld] and [ReadWorld]: a world's whole state as bytes, the
//     same on every CPU, read into a world of another process (a save that
//     loads at once, a snapshot sent to a peer); [AppendValue] and
//     [ReadValue] for one value; [Refs] for the pointers a component holds
//     to objects that are not the world's (a cp body).
package state
