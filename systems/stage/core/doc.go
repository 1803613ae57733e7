// Package core is the part of a stage that runs a scene's simulation: a
// [Stage] is a scene's world, scheduler and physics, its state checksum,
// keyframes and sync test, made when the scene starts and released when it
// ends; [Stage.End] hands on the next scene from an update system, on a
// tick, so that replays end it where it ended; [Keep] adds state a scene
// keeps outside its world.
//
// It links no graphics library: a game server or a bot runs a game's
// simulation on it. A window game builds on package systems/stage, whose
// Stage is this one with the asset bundle, sprites, text, the overlay, the
// inspector and the dev keys. A game whose simulation is built on a
// *core.Stage runs the same in both (a server's match, a player's window).
package core
