// Package render is the render system of sprites ([Sprites]): every entity
// with a components.Transform and a gfx.Sprite drawn at its pose
// interpolated at the frame's alpha, through the camera, culled when off
// the screen, batched into one DrawTriangles32 call per source image. It
// is a game's drawing side: the simulation (package systems and the
// others) links no graphics library.
package render
