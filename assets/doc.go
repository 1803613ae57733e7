// Package assets holds the game's embedded images and font (go:embed) and the
// code that loads them into a [Bundle]: one sprite atlas, its named sprites
// and a font, loaded by a scene on entry and released on exit.
//
//	func (s *Arena) Run(loop *engine.Loop) (engine.Scene, error) {
//		art, err := assets.LoadDefault()
//		if err != nil {
//			return nil, err // "assets: images/atlas.png: not a valid PNG: ..."
//		}
//		defer art.Deallocate()
//
//		ship := art.MustSprite(assets.SpritePlayer) // look up once, draw every frame
//		face := art.Face(16)
//		for ev := range loop.Events() {
//			if screen := window.Screen(ev); screen != nil { // a Render event in a window
//				op := &ebiten.DrawImageOptions{}
//				op.GeoM.Translate(-16, -16) // sprites turn about their centre
//				op.GeoM.Rotate(s.angle)     // and face +x at angle 0
//				op.GeoM.Translate(s.x, s.y)
//				screen.DrawImage(ship, op)
//				text.Draw(screen, "score 3", face, nil)
//			}
//		}
//		return nil, loop.Err()
//	}
//
// # Outline
//
//   - [Embedded] and [DefaultManifest]: the files compiled into the binary
//     (images/atlas.png, images/atlas.json, fonts/Go-Regular.ttf) and where
//     they are.
//   - [Decode] reads and checks a [Manifest]'s files from any [io/fs.FS] into
//     [Data]: pure Go, no GPU, no display, usable in tests and tools.
//   - [Data.Upload] turns Data into a [Bundle]: one [*ebiten.Image] for the
//     atlas, a sub-image of it per sprite, and a font source.
//     [Load] and [LoadDefault] do both steps.
//   - [Bundle.Sprite], [Bundle.MustSprite] and [Bundle.Face] are the lookups a
//     scene makes; [Bundle.Deallocate] releases the atlas's GPU memory.
//
// # Sprites
//
// Every sprite of one bundle is a sub-image of one atlas image, so
// DrawImage calls of different sprites batch when their destination, blend
// and filter match (ebiten's rule; a ColorScale keeps the batch). The
// engine's render system batches itself, one DrawTriangles32 call per run of
// sprites from one source image: give each gfx.Sprite the atlas,
// [Bundle.Atlas], as its Atlas, so that sprites of different names share
// that call. The
// default atlas has 32x32 sprites that face +x at angle 0 and are drawn to
// turn about their centre, and [SpritePixel], a 1x1 white sprite: scale it
// by (w, h) and tint it with a ColorScale to draw a w x h rectangle in the
// same batch. The atlas is drawn by assets/internal/gen, a program of this
// module (run it with go generate ./assets).
//
// # Errors and panics
//
// Bad data returns an error; misuse of the API panics.
//
//   - [Decode], [Load] and [LoadDefault] return an error that names the file
//     at fault (a missing file wraps [io/fs.ErrNotExist]; a file that does
//     not parse says what it is not) or the sprite and index file at fault
//     (a rectangle outside the atlas).
//   - [Bundle.Sprite] returns an error wrapping [ErrUnknownSprite] for a name
//     the atlas does not have; [Bundle.MustSprite] panics with that error.
//   - Any use of a [Bundle] after [Bundle.Deallocate], other than Deallocate
//     and Released, panics, as does [Bundle.Face] with a size that is not
//     positive and finite.
//
// # Images before RunGame
//
// In ebiten v2.10, creating images and drawing to them works before
// ebiten.RunGame: the commands are queued and run on the first frame (ebiten's
// own internal/beforemaintest checks this). So [Load] may be called before
// the game starts, even on a machine without a display. Reading pixels back
// (At, ReadPixels) panics before the game runs ("ui: ReadPixels cannot be
// called before the game starts"). Creating an image after RunGame has
// returned panics ("ebiten: NewImage cannot be called after RunGame
// finishes"), even when RunGame returned an error such as "no window system
// is available": load bundles before RunGame or inside it, never after it.
package assets

//go:generate go run ./internal/gen -out .
