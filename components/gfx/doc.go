// Package gfx holds what the drawing side of a game adds to its entities:
// the [Sprite] component, which the render system (systems/render) draws,
// and [View], the camera's transform from world to screen. It is the part
// of the components that links ebiten; package components, which the
// simulation is made of, links no graphics library, so that a server or a
// bot runs a game's simulation without it.
//
// A body's segments and boxes (walls, platforms) are drawn by a [Fill]
// of their own entity, a colour or a nine-slice image, where one sprite at
// the body's origin could not draw them.
//
// A sprite is fitted to a box with [Sprite.FitBox] (its origin and scale
// derived from the box: stretched over it, contained in it, or standing on
// its bottom edge, [Fit]), and to its body's box when spawned with
// [Sprite.Fitted], given as physics.BodyOptions.Sprite.
//
// The state hasher (package engine/state) reads a Sprite as it reads any
// component; this package tells it how to read the ebiten values a Sprite
// holds (an image by its bounds, a colour scale by its four scales, a
// matrix by its six elements). Sprites and fills are components like any
// other, so they are in the checksum: a change of look alone (a sprite
// fitted anew, walls drawn by a Fill instead of sprite entities) changes a
// game's checksums and its recordings' replays, though not its play. A
// game whose looks must stay out leaves SpriteC and FillC to
// state.Options.Ignore (a server's does).
package gfx
