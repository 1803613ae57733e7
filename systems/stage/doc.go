// Package stage is the kit a game's scenes are built on: a [Stage] is a
// scene's world, scheduler, asset bundle, physics, overlay, inspector and
// dev keys, made when the scene starts and released when it ends, with a
// check of what was left; [Stage.End] hands on the next scene from an
// update system, on a tick, so that replays end it where it ended.
//
// # A scene
//
// A scene makes a Stage, spawns its entities (their sprites from
// [Stage.Sprite] and [Stage.Rect]; with a body through the physics spawn
// helpers, without one through [Stage.SpawnSprite]), adds its systems
// (systems.PlayerControl, Physics.Update, its rules, render.Sprites for
// the sprites, [Stage.Text] for words on screen) and runs it: see [Stage]
// for a whole one, and the README's "A short game" for a whole game.
//
// # Its simulation alone
//
// A Stage's simulation is a [core.Stage] (package systems/stage/core),
// embedded: its World, Sched, Physics, End and Run are the Stage's. A game
// that builds its simulation on the *core.Stage (st.Stage) and only its
// drawing on the Stage runs the same simulation where there is no window,
// as a server's authoritative match: package core links no graphics
// library.
package stage
