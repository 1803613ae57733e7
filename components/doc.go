// Package components holds the component types games are made of
// (Transform with interpolation, Body and Shape, Sprite, Camera, Player,
// Agent) and their small helpers. The state hasher (package engine/state)
// reads them as it reads any component; this package tells it how to read
// the ebiten values a Sprite holds.
//
// A component type's package path is part of the state checksum: these
// types stay here, so that recordings of worlds that hold them keep
// replaying.
package components
