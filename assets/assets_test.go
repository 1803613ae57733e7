package assets_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
)

var allSprites = []string{
	assets.SpritePlayer, assets.SpriteAgent, assets.SpriteAgentHurt,
	assets.SpriteBox, assets.SpriteBall, assets.SpriteGoal,
	assets.SpriteParticle, assets.SpriteWall, assets.SpritePixel,
}

// defaultFS returns a writable copy of the embedded files.
func defaultFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := assets.DefaultManifest()
	fsys := fstest.MapFS{}
	for _, p := range []string{m.Atlas, m.Index, m.Font} {
		b, err := fs.ReadFile(assets.Embedded(), p)
		if err != nil {
			t.Fatal(err)
		}
		fsys[p] = &fstest.MapFile{Data: b}
	}
	return fsys
}

func decodeDefault(t *testing.T) *assets.Data {
	t.Helper()
	d, err := assets.Decode(assets.Embedded(), assets.DefaultManifest())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDecodeDefault(t *testing.T) {
	d := decodeDefault(t)
	atlas := d.Atlas()
	if got := atlas.Bounds(); got != image.Rect(0, 0, 256, 256) {
		t.Fatalf("atlas bounds %v, want 256x256 at the origin", got)
	}
	names := d.Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names() = %q, not sorted", names)
	}
	for _, name := range allSprites {
		if !slices.Contains(names, name) {
			t.Errorf("Names() = %q, missing %q", names, name)
		}
		r, ok := d.Rect(name)
		if !ok {
			t.Errorf("Rect(%q): not found", name)
			continue
		}
		if r.Empty() || !r.In(atlas.Bounds()) {
			t.Errorf("Rect(%q) = %v, not a non-empty rectangle inside the atlas", name, r)
			continue
		}
		opaque := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if atlas.RGBAAt(x, y).A > 0 {
					opaque++
				}
			}
		}
		if opaque == 0 {
			t.Errorf("sprite %q at %v is fully transparent", name, r)
		}
	}
	if _, ok := d.Rect("nope"); ok {
		t.Errorf(`Rect("nope") found`)
	}

	// The pixel sprite is 1x1 opaque white; the wall fills its frame.
	if r, _ := d.Rect(assets.SpritePixel); r.Dx() != 1 || r.Dy() != 1 ||
		atlas.RGBAAt(r.Min.X, r.Min.Y) != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("pixel sprite %v is not one opaque white pixel", r)
	}
	r, _ := d.Rect(assets.SpriteWall)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a := atlas.RGBAAt(x, y).A; a != 255 {
				t.Fatalf("wall pixel (%d, %d) has alpha %d, want 255", x, y, a)
			}
		}
	}
}

func TestDecodeMissingFile(t *testing.T) {
	m := assets.DefaultManifest()
	for _, path := range []string{m.Atlas, m.Index, m.Font} {
		t.Run(path, func(t *testing.T) {
			fsys := defaultFS(t)
			delete(fsys, path)
			_, err := assets.Decode(fsys, m)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("error %q does not wrap fs.ErrNotExist", err)
			}
			if _, err := assets.Load(fsys, m); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("Load: error %v does not name %s", err, path)
			}
		})
	}
}

// checkCorrupt decodes fsys with the default manifest and checks that the
// error names path and says what the file is not.
func checkCorrupt(t *testing.T, fsys fs.FS, path string, says ...string) {
	t.Helper()
	_, err := assets.Decode(fsys, assets.DefaultManifest())
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "assets: "+path+": ") {
		t.Errorf("error %q does not start with \"assets: %s: \"", msg, path)
	}
	for _, s := range says {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not say %q", msg, s)
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q wraps fs.ErrNotExist", msg)
	}
}

func TestDecodeCorruptPNG(t *testing.T) {
	path := assets.DefaultManifest().Atlas
	real := defaultFS(t)[path].Data
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"random", random},
		{"empty", nil},
		{"truncated", real[:len(real)/2]},
		{"header only", real[:8]},
		{"bad checksum", flipByte(real, len(real)/2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := defaultFS(t)
			fsys[path] = &fstest.MapFile{Data: tc.data}
			checkCorrupt(t, fsys, path, "not a valid PNG")
		})
	}
}

func flipByte(b []byte, i int) []byte {
	c := slices.Clone(b)
	c[i] ^= 0xff
	return c
}

func TestDecodeAtlasTooLarge(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, assets.MaxAtlasSize+1, 1))); err != nil {
		t.Fatal(err)
	}
	path := assets.DefaultManifest().Atlas
	fsys := defaultFS(t)
	fsys[path] = &fstest.MapFile{Data: buf.Bytes()}
	checkCorrupt(t, fsys, path, "4097x1")
}

func TestDecodeCorruptIndex(t *testing.T) {
	path := assets.DefaultManifest().Index
	for _, tc := range []struct {
		name, json string
		says       []string
	}{
		{"not JSON", `{"player": {"x": 0,`, []string{"not a valid atlas index"}},
		{"empty", ``, []string{"not a valid atlas index"}},
		{"null", `null`, []string{"not a valid atlas index"}},
		{"array", `[1, 2]`, []string{"not a valid atlas index"}},
		{"trailing data", `{} {}`, []string{"not a valid atlas index"}},
		{"not an integer", `{"a": {"x": 0.5, "y": 0, "w": 1, "h": 1}}`, []string{"not a valid atlas index"}},
		{"unknown field", `{"a": {"x": 0, "y": 0, "w": 1, "h": 1, "z": 3}}`, []string{"not a valid atlas index", "z"}},
		{"missing field", `{"ship": {"x": 0, "y": 0, "w": 1}}`, []string{`sprite "ship"`, "x, y, w and h"}},
		{"outside", `{"ship": {"x": 250, "y": 0, "w": 32, "h": 32}}`, []string{`sprite "ship"`, "not inside the 256x256 atlas images/atlas.png"}},
		{"negative", `{"ship": {"x": -1, "y": 0, "w": 2, "h": 2}}`, []string{`sprite "ship"`, "not inside"}},
		{"empty rect", `{"ship": {"x": 0, "y": 0, "w": 0, "h": 2}}`, []string{`sprite "ship"`, "not inside"}},
		{"overflow", `{"ship": {"x": 9223372036854775807, "y": 0, "w": 2, "h": 2}}`, []string{`sprite "ship"`, "not inside"}},
		{"empty name", `{"": {"x": 0, "y": 0, "w": 1, "h": 1}}`, []string{"empty name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := defaultFS(t)
			fsys[path] = &fstest.MapFile{Data: []byte(tc.json)}
			checkCorrupt(t, fsys, path, tc.says...)
		})
	}
}

func TestDecodeCorruptFont(t *testing.T) {
	path := assets.DefaultManifest().Font
	real := defaultFS(t)[path].Data
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"text", []byte("this is not a font")},
		{"empty", nil},
		{"truncated", real[:1000]},
		{"a PNG", defaultFS(t)[assets.DefaultManifest().Atlas].Data},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := defaultFS(t)
			fsys[path] = &fstest.MapFile{Data: tc.data}
			checkCorrupt(t, fsys, path, "not a valid TrueType or OpenType font")
		})
	}
}

// A font with a 'loca' table and no 'glyf' table makes the font parser
// (go-text/typesetting v0.3.5) panic; Decode turns the panic into an error
// naming the file. FuzzDecodeFont found it (testdata/fuzz/FuzzDecodeFont/
// ca1b31eb97f3648d, where overwriting the directory renamed 'glyf').
func TestDecodeFontParserPanic(t *testing.T) {
	path := assets.DefaultManifest().Font
	fsys := defaultFS(t)
	data := slices.Clone(fsys[path].Data)
	i := bytes.Index(data[:12+16*14], []byte("glyf"))
	if i < 0 {
		t.Fatal("no glyf table in the font's directory")
	}
	data[i] = 'X'
	parserPanics := func() (panicked bool) {
		defer func() { panicked = recover() != nil }()
		text.NewGoTextFaceSource(bytes.NewReader(data))
		return false
	}()
	if !parserPanics {
		t.Log("the font parser no longer panics on this input: the recover in parseFont may go")
	}
	fsys[path] = &fstest.MapFile{Data: data}
	checkCorrupt(t, fsys, path, "not a valid TrueType or OpenType font", "panicked")
}

// A table directory whose lengths run past the end of the file is refused
// before the parser, which would allocate the lengths (up to 4 GiB a read,
// seconds per file).
func TestDecodeFontTableOutsideTheFile(t *testing.T) {
	path := assets.DefaultManifest().Font
	fsys := defaultFS(t)
	data := slices.Clone(fsys[path].Data)
	copy(data[12+12:], []byte{0xff, 0xff, 0xff, 0xff}) // the first table's length
	fsys[path] = &fstest.MapFile{Data: data}
	checkCorrupt(t, fsys, path, "not a valid TrueType or OpenType font", `table "OS/2"`, "ends past the end")
	fsys[path] = &fstest.MapFile{Data: data[:100]}
	checkCorrupt(t, fsys, path, "table directory (14 tables) ends past the end of the 100-byte file")
}

func TestDecodeEmptyManifest(t *testing.T) {
	m := assets.DefaultManifest()
	m.Index = ""
	_, err := assets.Decode(assets.Embedded(), m)
	if err == nil || !strings.Contains(err.Error(), "Index") {
		t.Errorf("Decode with no index file: error %v, want one naming the Index field", err)
	}
}

// ---- tests that need the GPU ----------------------------------------------

// readPixels returns img's premultiplied RGBA pixels, row by row.
func readPixels(img *ebiten.Image) []byte {
	b := img.Bounds()
	pix := make([]byte, 4*b.Dx()*b.Dy())
	img.ReadPixels(pix)
	return pix
}

// checkPixels compares every sprite of b with the decoded atlas of d.
func checkPixels(t *testing.T, b *assets.Bundle, d *assets.Data) {
	t.Helper()
	atlas := d.Atlas()
	for _, name := range d.Names() {
		img := b.MustSprite(name)
		r, _ := d.Rect(name)
		if img.Bounds() != r {
			t.Errorf("sprite %q has bounds %v, want %v", name, img.Bounds(), r)
			continue
		}
		got := readPixels(img)
		i := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := atlas.Pix[atlas.PixOffset(r.Min.X, y):atlas.PixOffset(r.Max.X, y)]
			if !bytes.Equal(got[i:i+len(row)], row) {
				t.Errorf("sprite %q, row %d: GPU pixels differ from the PNG's", name, y)
				break
			}
			i += len(row)
		}
	}
}

func TestUpload(t *testing.T) {
	needGame(t)
	d := decodeDefault(t)
	b := d.Upload()
	defer b.Deallocate()
	checkPixels(t, b, d)
	if !slices.Equal(b.Names(), d.Names()) {
		t.Errorf("Bundle.Names() = %q, want %q", b.Names(), d.Names())
	}
	if got := b.Atlas().Bounds(); got != d.Atlas().Bounds() {
		t.Errorf("Atlas().Bounds() = %v, want %v", got, d.Atlas().Bounds())
	}
	if b.Data() != d {
		t.Errorf("Data() is not the uploaded data")
	}
	// The same name gives the same image.
	if b.MustSprite(assets.SpritePlayer) != b.MustSprite(assets.SpritePlayer) {
		t.Errorf("MustSprite returned different images for the same name")
	}
}

func TestUploadBeforeRunGame(t *testing.T) {
	needGame(t)
	checkPixels(t, early, early.Data())
}

func TestDrawPixelRect(t *testing.T) {
	needGame(t)
	b, err := assets.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Deallocate()
	dst := ebiten.NewImage(8, 8)
	defer dst.Deallocate()
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(3, 2)
	op.GeoM.Translate(2, 1)
	op.ColorScale.Scale(1, 0, 0, 1)
	dst.DrawImage(b.MustSprite(assets.SpritePixel), op)
	for y := range 8 {
		for x := range 8 {
			want := color.RGBA{}
			if x >= 2 && x < 5 && y >= 1 && y < 3 {
				want = color.RGBA{255, 0, 0, 255}
			}
			if got := dst.At(x, y); got != want {
				t.Errorf("At(%d, %d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

func TestSpriteUnknown(t *testing.T) {
	needGame(t)
	b, err := assets.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Deallocate()
	img, err := b.Sprite("dragon")
	if img != nil || !errors.Is(err, assets.ErrUnknownSprite) {
		t.Fatalf(`Sprite("dragon") = %v, %v; want nil, ErrUnknownSprite`, img, err)
	}
	for _, s := range []string{`"dragon"`, assets.DefaultManifest().Index} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
	p := panicValue(func() { b.MustSprite("dragon") })
	if e, ok := p.(error); !ok || !errors.Is(e, assets.ErrUnknownSprite) {
		t.Errorf(`MustSprite("dragon") panicked with %v, want an ErrUnknownSprite error`, p)
	}
}

func TestFace(t *testing.T) {
	needGame(t)
	b, err := assets.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Deallocate()
	f16 := b.Face(16)
	if f16.Size != 16 || f16.Source != b.FaceSource() {
		t.Errorf("Face(16) = {Size %v, Source %p}, want {16, %p}", f16.Size, f16.Source, b.FaceSource())
	}
	if b.Face(16) != f16 {
		t.Errorf("Face(16) twice gave different faces")
	}
	if b.Face(24) == f16 {
		t.Errorf("Face(24) is Face(16)")
	}
	if n := testing.AllocsPerRun(100, func() { b.Face(16) }); n != 0 {
		t.Errorf("Face on a cache hit: %v allocations, want 0", n)
	}
	for _, size := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if p := panicValue(func() { b.Face(size) }); p == nil {
			t.Errorf("Face(%v) did not panic", size)
		}
	}

	// The font really draws.
	if w, h := text.Measure("Fixed step", f16, 0); w < 40 || h < 10 {
		t.Errorf("Measure = %v x %v, too small for 16 px text", w, h)
	}
	dst := ebiten.NewImage(100, 24)
	defer dst.Deallocate()
	text.Draw(dst, "Fixed step", f16, nil)
	inked := 0
	pix := readPixels(dst)
	for i := 3; i < len(pix); i += 4 {
		if pix[i] > 128 {
			inked++
		}
	}
	if inked < 50 {
		t.Errorf("drawing text inked %d pixels, want at least 50", inked)
	}
}

// Glyphs lays a string out as text.AppendGlyphs does, keeps the last 32
// strings (the same slice for a kept one, without allocating), lays out
// again one that 32 others pushed out, and tells sizes and alignments apart.
func TestGlyphs(t *testing.T) {
	needGame(t)
	b, err := assets.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Deallocate()
	const str = "Score 12\nTime 57 s"
	got := b.Glyphs(str, 18, text.AlignCenter)
	m := b.Face(18).Metrics()
	want := text.AppendGlyphs(nil, str, b.Face(18), &text.LayoutOptions{PrimaryAlign: text.AlignCenter,
		LineSpacing: m.HAscent + m.HDescent + m.HLineGap})
	if len(got) != len(want) || len(got) < 10 {
		t.Fatalf("%d glyphs, text.AppendGlyphs gives %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.GID != w.GID || g.X != w.X || g.Y != w.Y || g.Image != w.Image {
			t.Errorf("glyph %d: GID %d at (%v, %v), image %p; AppendGlyphs: %d at (%v, %v), %p", i, g.GID, g.X, g.Y, g.Image, w.GID, w.X, w.Y, w.Image)
		}
	}
	same := func(a, c []text.Glyph) bool { return len(a) > 0 && &a[0] == &c[0] }
	if !same(b.Glyphs(str, 18, text.AlignCenter), got) {
		t.Error("the same string again was laid out again")
	}
	if n := testing.AllocsPerRun(100, func() { b.Glyphs(str, 18, text.AlignCenter) }); n != 0 {
		t.Errorf("Glyphs of a kept string: %v allocations", n)
	}
	if start := b.Glyphs(str, 18, text.AlignStart); same(start, got) || start[0].X == got[0].X {
		t.Error("another alignment gave the centred layout")
	}
	if big := b.Glyphs(str, 24, text.AlignCenter); same(big, got) || len(big) != len(got) {
		t.Error("another size gave the 18 px layout")
	}
	for i := range 32 {
		b.Glyphs(fmt.Sprint(i), 18, text.AlignStart)
	}
	again := b.Glyphs(str, 18, text.AlignCenter) // in a slice the bundle reused: got's may be another's now
	if len(again) != len(want) || again[0].X != want[0].X || again[0].GID != want[0].GID {
		t.Errorf("laid out again after 32 others: %d glyphs, the first %+v; want %d, %+v", len(again), again[0], len(want), want[0])
	}
}

func TestSpriteAllocs(t *testing.T) {
	needGame(t)
	b, err := assets.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Deallocate()
	if n := testing.AllocsPerRun(100, func() { _, _ = b.Sprite(assets.SpriteAgent) }); n != 0 {
		t.Errorf("Sprite of a known name: %v allocations, want 0", n)
	}
}

func TestDeallocate(t *testing.T) {
	needGame(t)
	d := decodeDefault(t)
	b := d.Upload()
	if b.Released() {
		t.Fatal("Released before Deallocate")
	}
	b.Deallocate()
	b.Deallocate() // idempotent
	if !b.Released() {
		t.Fatal("not Released after Deallocate")
	}
	for name, use := range map[string]func(){
		"Atlas":      func() { b.Atlas() },
		"Sprite":     func() { _, _ = b.Sprite(assets.SpritePlayer) },
		"MustSprite": func() { b.MustSprite(assets.SpritePlayer) },
		"Names":      func() { b.Names() },
		"Data":       func() { b.Data() },
		"Face":       func() { b.Face(16) },
		"FaceSource": func() { b.FaceSource() },
		"Glyphs":     func() { b.Glyphs("x", 16, text.AlignStart) },
	} {
		p := panicValue(use)
		if s, _ := p.(string); !strings.Contains(s, "after Deallocate") {
			t.Errorf("%s after Deallocate: panic %v, want one saying \"after Deallocate\"", name, p)
		}
	}
	var nilBundle *assets.Bundle
	nilBundle.Deallocate() // no panic

	// A scene entered again uploads the same data again.
	b2 := d.Upload()
	defer b2.Deallocate()
	checkPixels(t, b2, d)
}

func panicValue(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// ---- benchmarks -----------------------------------------------------------

func BenchmarkFace(b *testing.B) {
	needGame(b)
	bundle, err := assets.LoadDefault()
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Deallocate()
	bundle.Face(16)
	b.ReportAllocs()
	for b.Loop() {
		bundle.Face(16)
	}
}

func BenchmarkSprite(b *testing.B) {
	needGame(b)
	bundle, err := assets.LoadDefault()
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Deallocate()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = bundle.Sprite(assets.SpriteAgent)
	}
}

func BenchmarkDecodeDefault(b *testing.B) {
	fsys, m := assets.Embedded(), assets.DefaultManifest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := assets.Decode(fsys, m); err != nil {
			b.Fatal(err)
		}
	}
}
