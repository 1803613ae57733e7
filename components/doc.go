// Package components holds the component types a game's simulation is
// made of (Transform with interpolation, Body and Shape, Camera, Player,
// Agent, Seat) and their small helpers. It links no graphics library: what
// is drawn (the Sprite component, the camera's view) is in package
// components/gfx, so that a server runs a game's simulation on these alone.
//
// A component type's package path is part of the state checksum: these
// types stay here, so that recordings of worlds that hold them keep
// replaying (a type that moves says where it was: state.KnownAs).
package components
