package assets

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io/fs"
	"slices"
	"sort"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// MaxAtlasSize is the largest atlas width and height, in pixels, that
// [Decode] accepts: a texture size GPUs commonly support, and a bound on the
// memory a decoded atlas takes (64 MiB). ebiten.MaxImageSize reports the
// device's real limit once the game runs.
const MaxAtlasSize = 4096

// Data is a bundle's files read, decoded and checked, in CPU memory: the
// atlas's pixels, its sprite rectangles and the font's bytes. Making it needs
// no GPU and no display. A Data is never modified after [Decode] returns it,
// so it is safe for concurrent use, and it can be uploaded any number of
// times (for example on every entry to a scene, after decoding it once).
type Data struct {
	manifest Manifest
	atlas    *image.RGBA
	rects    map[string]image.Rectangle
	names    []string // sorted
	font     []byte
}

// Decode reads the files that m names from fsys and checks them: the atlas
// must be a PNG no larger than [MaxAtlasSize] on each side, the index valid
// JSON whose every rectangle is non-empty and inside the atlas, and the font
// a TrueType or OpenType (or WOFF) font whose tables lie inside the file and
// that parses. It allocates the decoded image (4 bytes a pixel), the index
// and a copy of the font file. It never panics on bad bytes, even where the
// font parser would (see parseFont).
//
// Every error starts with "assets: " and names the file at fault; a missing
// file wraps [io/fs.ErrNotExist] (check with errors.Is). An empty path in m
// is an error naming the field.
func Decode(fsys fs.FS, m Manifest) (*Data, error) {
	for _, f := range []struct{ field, path string }{
		{"Atlas", m.Atlas}, {"Index", m.Index}, {"Font", m.Font},
	} {
		if f.path == "" {
			return nil, fmt.Errorf("assets: manifest: no %s file given", f.field)
		}
	}

	atlas, err := decodeAtlas(fsys, m.Atlas)
	if err != nil {
		return nil, err
	}
	rects, err := decodeIndex(fsys, m.Index, m.Atlas, atlas.Bounds())
	if err != nil {
		return nil, err
	}
	font, err := fs.ReadFile(fsys, m.Font)
	if err != nil {
		return nil, fileError(m.Font, err)
	}
	if _, err := parseFont(font); err != nil {
		return nil, fmt.Errorf("assets: %s: not a valid TrueType or OpenType font: %w", m.Font, err)
	}

	names := make([]string, 0, len(rects))
	for name := range rects {
		names = append(names, name)
	}
	sort.Strings(names)
	return &Data{manifest: m, atlas: atlas, rects: rects, names: names, font: font}, nil
}

// fileError reports a failure to read path. fs.FS implementations put the
// path in a *fs.PathError already, so unwrap that instead of naming the path
// twice, and keep the sentinel (fs.ErrNotExist, ...) reachable by errors.Is.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("assets: %s: %w", path, err)
}

func decodeAtlas(fsys fs.FS, path string) (*image.RGBA, error) {
	raw, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fileError(path, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("assets: %s: not a valid PNG: %w", path, err)
	}
	if cfg.Width > MaxAtlasSize || cfg.Height > MaxAtlasSize {
		return nil, fmt.Errorf("assets: %s: atlas is %dx%d pixels, more than %d on a side",
			path, cfg.Width, cfg.Height, MaxAtlasSize)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("assets: %s: not a valid PNG: %w", path, err)
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, fmt.Errorf("assets: %s: atlas is empty (%dx%d pixels)", path, b.Dx(), b.Dy())
	}
	// ebiten uploads *image.RGBA (premultiplied) without converting it.
	if rgba, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) {
		return rgba, nil
	}
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return rgba, nil
}

func decodeIndex(fsys fs.FS, path, atlasPath string, atlas image.Rectangle) (map[string]image.Rectangle, error) {
	raw, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fileError(path, err)
	}
	var index map[string]struct {
		X *int `json:"x"`
		Y *int `json:"y"`
		W *int `json:"w"`
		H *int `json:"h"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&index); err != nil {
		return nil, fmt.Errorf("assets: %s: not a valid atlas index: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("assets: %s: not a valid atlas index: data after the JSON object", path)
	}
	if index == nil { // the file was "null"
		return nil, fmt.Errorf("assets: %s: not a valid atlas index: want a JSON object", path)
	}
	rects := make(map[string]image.Rectangle, len(index))
	for name, e := range index {
		if name == "" {
			return nil, fmt.Errorf("assets: %s: a sprite has an empty name", path)
		}
		if e.X == nil || e.Y == nil || e.W == nil || e.H == nil {
			return nil, fmt.Errorf("assets: %s: sprite %q: want all of x, y, w and h", path, name)
		}
		x, y, w, h := *e.X, *e.Y, *e.W, *e.H
		// Compared this way round, nothing overflows.
		if x < 0 || y < 0 || w <= 0 || h <= 0 || x > atlas.Dx()-w || y > atlas.Dy()-h {
			return nil, fmt.Errorf("assets: %s: sprite %q: rectangle x=%d y=%d w=%d h=%d is not inside the %dx%d atlas %s",
				path, name, x, y, w, h, atlas.Dx(), atlas.Dy(), atlasPath)
		}
		rects[name] = image.Rect(x, y, x+w, y+h)
	}
	return rects, nil
}

// parseFont parses a TrueType or OpenType font (or WOFF, which text/v2 also
// reads). Two failings of the parser, go-text/typesetting v0.3.5 under
// text/v2, both found by FuzzDecodeFont, are handled here, because Decode
// promises an error for a bad file:
//
//   - It trusts the lengths in the table directory and allocates them before
//     reading: a corrupt length made it allocate up to 4 GiB per table read
//     and take seconds. checkFontTables refuses such a file first.
//   - It panics on some files instead of returning an error, for example a
//     'loca' table with no 'glyf' table. The panic becomes an error; parsing
//     touches nothing but the bytes and what it allocates, so nothing is left
//     half-changed.
func parseFont(ttf []byte) (src *text.GoTextFaceSource, err error) {
	if err := checkFontTables(ttf); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			src, err = nil, fmt.Errorf("the font parser panicked: %v", r)
		}
	}()
	return text.NewGoTextFaceSource(bytes.NewReader(ttf))
}

// maxFontTable bounds the uncompressed size of one table of a WOFF font.
const maxFontTable = 64 << 20

// checkFontTables checks that every table in the table directory of an
// sfnt (TrueType, OpenType) or WOFF font lies inside the file, and that no
// WOFF table claims to uncompress to more than maxFontTable bytes. Other
// formats are left to the parser, which refuses them.
func checkFontTables(b []byte) error {
	if len(b) < 4 {
		return nil
	}
	be := binary.BigEndian
	dirStart, recSize := 12, 16 // sfnt: tag, checksum, offset, length
	woff := string(b[:4]) == "wOFF"
	switch {
	case woff:
		dirStart, recSize = 44, 20 // tag, offset, compressed length, length, checksum
	case string(b[:4]) == "\x00\x01\x00\x00", string(b[:4]) == "true", string(b[:4]) == "typ1", string(b[:4]) == "OTTO":
	default:
		return nil
	}
	if len(b) < dirStart {
		return fmt.Errorf("the %d-byte file ends inside its header", len(b))
	}
	n := int(be.Uint16(b[4:]))
	if woff {
		n = int(be.Uint16(b[12:]))
	}
	if len(b) < dirStart+n*recSize {
		return fmt.Errorf("the table directory (%d tables) ends past the end of the %d-byte file", n, len(b))
	}
	for i := range n {
		r := b[dirStart+i*recSize:]
		offset, length := uint64(be.Uint32(r[8:])), uint64(be.Uint32(r[12:]))
		if woff {
			offset, length = uint64(be.Uint32(r[4:])), uint64(be.Uint32(r[8:]))
			if size := be.Uint32(r[12:]); size > maxFontTable {
				return fmt.Errorf("table %q claims %d bytes uncompressed, more than %d", r[:4], size, maxFontTable)
			}
		}
		if offset+length > uint64(len(b)) {
			return fmt.Errorf("table %q (%d bytes at offset %d) ends past the end of the %d-byte file",
				r[:4], length, offset, len(b))
		}
	}
	return nil
}

// Manifest returns the manifest the data was decoded from.
func (d *Data) Manifest() Manifest { return d.manifest }

// Atlas returns the decoded atlas, with its upper-left corner at (0, 0).
// It is shared: callers must not modify it.
func (d *Data) Atlas() *image.RGBA { return d.atlas }

// Rect returns the rectangle, in atlas pixels, of the sprite called name,
// and whether the atlas has it. It does not allocate.
func (d *Data) Rect(name string) (image.Rectangle, bool) {
	r, ok := d.rects[name]
	return r, ok
}

// Names returns the names of the atlas's sprites in sorted order, in a new
// slice the caller may keep and modify.
func (d *Data) Names() []string { return slices.Clone(d.names) }
