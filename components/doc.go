// Package components holds the component types a game's simulation is
// made of (Transform with interpolation, Body and Shape, Camera, Player,
// Agent, Seat) and their small helpers. It links no graphics library: what
// is drawn (the Sprite component, the camera's view) is in package
// components/gfx, so that a server runs a game's simulation on these alone.
//
// # Names
//
// The state checksum, the dump and the desync report (package
// engine/state) name a component type by the name it declares: its donburi
// name, which is its Go type's name unless set (SetName,
// donburi.NewTag("ball"), events.EventType.SetName), never its package
// path. A plain component type of a unique name declares nothing more: its
// type may move to another package and recordings of worlds that hold it
// keep replaying. Two component types of one name in one world (two
// unnamed tags, both named Tag; two Follow types of two packages) are a
// panic at their first hash that names both Go types: give one a name of
// its own. Keep a name once recorded: renaming a type, or its SetName,
// changes the checksums of every recording of a world that holds it.
package components
