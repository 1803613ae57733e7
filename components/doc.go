// Package components holds the component types games are made of
// (Transform with interpolation, Body and Shape, Sprite, Camera, Player,
// Agent) and their small helpers, and reads a world's state as data: a
// StateHasher hashes every component of every entity (the state checksum
// that recordings store and replays compare), per component type too, and
// DumpWorld writes the same state as text to diff.
package components
