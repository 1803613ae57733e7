package assets

import (
	"errors"
	"fmt"
	"io/fs"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// ErrUnknownSprite is wrapped by the error [Bundle.Sprite] returns for a
// name the atlas does not have.
var ErrUnknownSprite = errors.New("unknown sprite")

// Bundle is one scene's assets on the GPU: the atlas as one [*ebiten.Image],
// each sprite as a sub-image of it, and a font. A scene loads its bundle on
// entry ([Load], [LoadDefault] or [Data.Upload]) and releases it on exit
// ([Bundle.Deallocate]).
//
// A Bundle is meant for the game's goroutine and is not safe for concurrent
// use. Once released, every method other than Deallocate and Released
// panics.
type Bundle struct {
	manifest Manifest
	data     *Data
	atlas    *ebiten.Image
	sprites  map[string]*ebiten.Image
	source   *text.GoTextFaceSource
	faces    map[float64]*text.GoTextFace
	layouts  []layout // the strings Glyphs laid out last
	calls    uint64   // Glyphs' calls, for layout.used
	released bool
}

// Load decodes the files that m names from fsys, as [Decode] does, and
// uploads them, as [Data.Upload] does. Its errors are Decode's: each names
// the file at fault. It panics, as ebiten does, if ebiten.RunGame has
// already returned.
func Load(fsys fs.FS, m Manifest) (*Bundle, error) {
	d, err := Decode(fsys, m)
	if err != nil {
		return nil, err
	}
	return d.Upload(), nil
}

// LoadDefault loads the embedded files: Load(Embedded(), DefaultManifest()).
// It decodes them on every call (about a millisecond); to upload the same
// files many times, keep the [Data] from [Decode] and call [Data.Upload].
func LoadDefault() (*Bundle, error) {
	return Load(Embedded(), DefaultManifest())
}

// Upload creates a new [Bundle] from d: one ebiten image holding the atlas
// (the GPU copy of its pixels), a sub-image of it per sprite, and a font
// source of its own, so that the glyphs the bundle's faces cache go when the
// bundle goes. Each call makes a new, independent Bundle; d is unchanged.
//
// Upload may be called before ebiten.RunGame: ebiten queues the image's
// creation and its pixels until the first frame. It panics, as ebiten does,
// if RunGame has already returned.
func (d *Data) Upload() *Bundle {
	src, err := parseFont(d.font)
	if err != nil {
		// Decode parsed these same bytes without error.
		panic(fmt.Sprintf("assets: %s: font no longer parses: %v", d.manifest.Font, err))
	}
	atlas := ebiten.NewImageFromImage(d.atlas)
	sprites := make(map[string]*ebiten.Image, len(d.rects))
	for name, r := range d.rects {
		sprites[name] = atlas.SubImage(r).(*ebiten.Image)
	}
	return &Bundle{
		manifest: d.manifest,
		data:     d,
		atlas:    atlas,
		sprites:  sprites,
		source:   src,
		faces:    make(map[float64]*text.GoTextFace),
	}
}

// use panics if the bundle has been released.
func (b *Bundle) use() {
	if b.released {
		panic("assets: Bundle used after Deallocate (atlas " + b.manifest.Atlas + ")")
	}
}

// Atlas returns the atlas image that every sprite of the bundle is a
// sub-image of: the Atlas to give each gfx.Sprite drawn from the
// bundle, so that the render system draws them in one batch.
func (b *Bundle) Atlas() *ebiten.Image {
	b.use()
	return b.atlas
}

// Sprite returns the sprite called name: a sub-image of the bundle's one
// atlas image, with the bounds of its rectangle in the atlas, so that draws
// of different sprites batch. The same name always gives the same image.
// Sprite does not allocate when the name is known; an unknown name gives an
// error, naming the sprite and the index file, that wraps [ErrUnknownSprite].
//
// Look sprites up once (on entering a scene, or when creating an entity)
// rather than every frame.
func (b *Bundle) Sprite(name string) (*ebiten.Image, error) {
	b.use()
	if img, ok := b.sprites[name]; ok {
		return img, nil
	}
	return nil, fmt.Errorf("assets: %s: sprite %q: %w", b.manifest.Index, name, ErrUnknownSprite)
}

// MustSprite is [Bundle.Sprite] for names the program knows to be there,
// such as the Sprite constants with the default atlas: it panics, with
// Sprite's error, when the name is unknown.
func (b *Bundle) MustSprite(name string) *ebiten.Image {
	img, err := b.Sprite(name)
	if err != nil {
		panic(err)
	}
	return img
}

// Names returns the names of the bundle's sprites in sorted order, in a new
// slice the caller may keep and modify.
func (b *Bundle) Names() []string {
	b.use()
	return b.data.Names()
}

// Data returns the decoded files the bundle was uploaded from. It is
// shared and must not be modified.
func (b *Bundle) Data() *Data {
	b.use()
	return b.data
}

// Face returns the bundle's font at size pixels (text/v2's Size: the em
// size in pixels), for text.Draw and text.Measure. Faces are cached by
// size: the first call with a size allocates the face, later calls with the
// same size return the same face and do not allocate. The face is shared:
// do not change its fields; copy the struct to vary them.
//
// A size that is not positive and finite (0, negative, NaN, ±Inf) panics.
// Ask for few distinct sizes: text/v2 keeps glyph images per size.
func (b *Bundle) Face(size float64) *text.GoTextFace {
	b.use()
	if f, ok := b.faces[size]; ok {
		return f
	}
	if !(size > 0) || math.IsInf(size, 1) {
		panic(fmt.Sprintf("assets: Face size %v is not positive and finite", size))
	}
	f := &text.GoTextFace{Source: b.source, Size: size}
	b.faces[size] = f
	return f
}

// FaceSource returns the bundle's font source, for faces that [Bundle.Face]
// does not make (another direction, language or variation).
func (b *Bundle) FaceSource() *text.GoTextFaceSource {
	b.use()
	return b.source
}

// Deallocate releases the atlas's GPU memory now, rather than whenever the
// garbage collector finds it, and marks the bundle released: from then on
// its methods panic, except Deallocate, which does nothing (it is
// idempotent, and does nothing on a nil Bundle), and Released.
//
// Sprites, the atlas and faces obtained earlier must not be drawn after
// Deallocate: ebiten would allocate the atlas again, empty, and they would
// draw nothing. The glyph images the faces cached are released by the
// garbage collector once the bundle and its faces are unreachable.
func (b *Bundle) Deallocate() {
	if b == nil || b.released {
		return
	}
	b.released = true
	b.atlas.Deallocate()
	b.atlas, b.sprites, b.source, b.faces, b.data, b.layouts = nil, nil, nil, nil, nil, nil
}

// maxLayouts is how many laid-out strings a Bundle keeps (see Glyphs).
const maxLayouts = 32

// layout is one string Glyphs laid out.
type layout struct {
	str    string
	size   float64
	align  text.Align
	glyphs []text.Glyph
	used   uint64 // the Glyphs call that last returned it
}

// Glyphs returns the glyphs of str in the bundle's font at size pixels
// (as [Bundle.Face]), laid out as text.AppendGlyphs lays them out with its
// lines aligned by align (text.AlignStart, text.AlignCenter or
// text.AlignEnd; the top of the first line at y 0) and lines the face's
// line height apart: each glyph with its image, placed relative to the
// text's position. Draw each Image with a translation by (X, Y), then the
// text's own, and the pixels are text.Draw's (it draws those images so).
//
// The bundle keeps the last 32 strings it laid out, so that a string drawn
// at every frame is laid out once: text.Draw lays it out again at every
// call (shaping, a cache lookup per glyph), which in a browser costs many
// times the drawing of its glyphs. A string not kept costs what
// text.AppendGlyphs does, and the first time a glyph is met, its image.
// The slice is the bundle's: do not change it; it is valid until the
// bundle lays out 32 other strings.
func (b *Bundle) Glyphs(str string, size float64, align text.Align) []text.Glyph {
	b.use()
	b.calls++
	oldest := 0
	for i := range b.layouts {
		l := &b.layouts[i]
		if l.size == size && l.align == align && l.str == str {
			l.used = b.calls
			return l.glyphs
		}
		if l.used < b.layouts[oldest].used {
			oldest = i
		}
	}
	var l *layout
	if len(b.layouts) < maxLayouts {
		b.layouts = append(b.layouts, layout{})
		l = &b.layouts[len(b.layouts)-1]
	} else {
		l = &b.layouts[oldest]
	}
	face := b.Face(size)
	m := face.Metrics()
	opts := text.LayoutOptions{PrimaryAlign: align, LineSpacing: m.HAscent + m.HDescent + m.HLineGap}
	*l = layout{str: str, size: size, align: align, used: b.calls,
		glyphs: text.AppendGlyphs(l.glyphs[:0], str, face, &opts)}
	return l.glyphs
}

// Released reports whether [Bundle.Deallocate] has been called.
func (b *Bundle) Released() bool { return b.released }
