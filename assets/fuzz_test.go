package assets_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/assets"
)

// The fuzz targets below give [assets.Decode] one file of arbitrary bytes
// and two good ones, and check its promise: no panic, and either decoded
// data that keeps the documented bounds or an error that starts with
// "assets: <the file>: ". The fuzz workers do not need a display: run
// them with DISPLAY unset (make fuzz does), so that TestMain does not open
// a window in every worker.

// embeddedFile returns one of the embedded files.
func embeddedFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := fs.ReadFile(assets.Embedded(), path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// encodePNG returns img as a PNG file.
func encodePNG(tb testing.TB, img image.Image) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// decodeWith decodes the default manifest's files from fsys, where path
// holds the fuzzed bytes. An error must name path and must not claim the
// file is missing.
func decodeWith(t *testing.T, fsys fstest.MapFS, path string) *assets.Data {
	t.Helper()
	d, err := assets.Decode(fsys, assets.DefaultManifest())
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, "assets: "+path+": ") || errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("error %q does not start with \"assets: %s: \", or says the file is missing", msg, path)
		}
		return nil
	}
	return d
}

// FuzzDecodeAtlas decodes arbitrary bytes as the atlas PNG (with an empty
// index and the real font). An atlas accepted is non-empty, at most
// MaxAtlasSize on a side, and has its corner at the origin.
func FuzzDecodeAtlas(f *testing.F) {
	m := assets.DefaultManifest()
	real := embeddedFile(f, m.Atlas)
	font := embeddedFile(f, m.Font)
	f.Add(real)
	for _, n := range []int{0, 8, 33, 100, len(real) / 2, len(real) - 1} {
		f.Add(real[:n])
	}
	f.Add(flipByte(real, len(real)/2))
	r1 := image.Rect(0, 0, 1, 1)
	pal := image.NewPaletted(image.Rect(0, 0, 3, 2), color.Palette{color.Black, color.White})
	f.Add(encodePNG(f, pal))
	f.Add(encodePNG(f, image.NewGray16(r1)))
	f.Add(encodePNG(f, image.NewNRGBA64(image.Rect(0, 0, 2, 5))))
	f.Add(encodePNG(f, image.NewGray(image.Rect(0, 0, assets.MaxAtlasSize+1, 1))))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{
			m.Atlas: {Data: data},
			m.Index: {Data: []byte("{}")},
			m.Font:  {Data: font},
		}
		d := decodeWith(t, fsys, m.Atlas)
		if d == nil {
			return
		}
		b := d.Atlas().Bounds()
		if b.Min != (image.Point{}) || b.Empty() || b.Dx() > assets.MaxAtlasSize || b.Dy() > assets.MaxAtlasSize {
			t.Fatalf("accepted an atlas with bounds %v", b)
		}
		if len(d.Names()) != 0 {
			t.Fatalf("the empty index gave sprites %q", d.Names())
		}
	})
}

// FuzzDecodeIndex decodes arbitrary bytes as the atlas index (with a blank
// 256x256 atlas, the size of the real one, and the real font). An index
// accepted has sorted names, each with a non-empty rectangle inside the atlas
// that Rect finds.
func FuzzDecodeIndex(f *testing.F) {
	m := assets.DefaultManifest()
	real := embeddedFile(f, m.Index)
	atlas := encodePNG(f, image.NewGray(image.Rect(0, 0, 256, 256)))
	font := embeddedFile(f, m.Font)
	f.Add(real)
	f.Add(real[:len(real)/2])
	for _, s := range []string{
		``, `null`, `{}`, `[]`, `{"a": {"x": 0, "y": 0, "w": 256, "h": 256}}`,
		`{"a": {"x": 0.5, "y": 0, "w": 1, "h": 1}}`, `{"a": {"x": 0, "y": 0, "w": 1}}`,
		`{"a": {"x": 9223372036854775807, "y": 0, "w": 2, "h": 2}}`, `{"": {"x": 0, "y": 0, "w": 1, "h": 1}}`,
		`{"a": {"x": 0, "y": 0, "w": 1, "h": 1}, "a": {"x": 1, "y": 1, "w": 1, "h": 1}}`,
		`{"a": {"x": 0, "y": 0, "w": 1, "h": 1, "z": 3}} {}`, `{"\u00e9\ud800": {"x": 1e2, "y": -0, "w": 1, "h": 1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{
			m.Atlas: {Data: atlas},
			m.Index: {Data: data},
			m.Font:  {Data: font},
		}
		d := decodeWith(t, fsys, m.Index)
		if d == nil {
			return
		}
		names := d.Names()
		if !slices.IsSorted(names) {
			t.Fatalf("names %q not sorted", names)
		}
		for _, name := range names {
			r, ok := d.Rect(name)
			if name == "" || !ok || r.Empty() || !r.In(d.Atlas().Bounds()) {
				t.Fatalf("sprite %q: rectangle %v (found %v) is empty or outside the atlas", name, r, ok)
			}
		}
	})
}

// FuzzDecodeFont decodes as the font (with a 1x1 atlas and an empty index)
// the real font with patch written over it at offset at (modulo its length),
// then cut to cut bytes (modulo its length plus one; 0 keeps it whole). So
// the fuzzer's inputs stay small while it corrupts the table directory and
// the tables of a real font, and a patch at 0 cut to its own length is any
// short file. The font parser must not panic, and a font it refuses is an
// error naming the font file.
func FuzzDecodeFont(f *testing.F) {
	m := assets.DefaultManifest()
	real := embeddedFile(f, m.Font)
	atlas := encodePNG(f, image.NewGray(image.Rect(0, 0, 1, 1)))
	n := uint32(len(real))
	f.Add(uint32(0), []byte(nil), uint32(0)) // the real font
	for _, cut := range []uint32{1, 4, 12, 12 + 16*4, 1000, n / 2, n - 1} {
		f.Add(uint32(0), []byte(nil), cut)
	}
	for _, at := range []uint32{4, 12 + 8, 12 + 12, n / 3} {
		f.Add(at, []byte{0xff, 0xff}, uint32(0)) // table count, a table's offset and length, its data
	}
	short := []byte("this is not a font")
	f.Add(uint32(0), short, uint32(len(short)))
	ttc := []byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x10")
	f.Add(uint32(0), ttc, uint32(len(ttc)))
	f.Fuzz(func(t *testing.T, at uint32, patch []byte, cut uint32) {
		data := slices.Clone(real)
		copy(data[at%n:], patch)
		if cut != 0 {
			data = data[:cut%(n+1)]
		}
		fsys := fstest.MapFS{
			m.Atlas: {Data: atlas},
			m.Index: {Data: []byte("{}")},
			m.Font:  {Data: data},
		}
		decodeWith(t, fsys, m.Font)
	})
}
