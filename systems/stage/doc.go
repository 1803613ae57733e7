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
// (systems.PlayerControl, Physics.Update, its rules, systems.Render for
// the sprites, [Stage.Text] for words on screen) and runs it: see [Stage]
// for a whole one, and the README's "A game of your own" for a whole game.
package stage
