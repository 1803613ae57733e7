package stage

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/systems/stage/core"
)

// recolorCache holds the recoloured sprites a stage made.
type recolorCache = map[recolorKey]*ebiten.Image

// recolorKey names a recoloured sprite the stage made.
type recolorKey struct {
	name     string
	from, to color.RGBA
	within   float64
}

// SeatSprite returns a new sprite of the stage's bundle by name, drawn in
// seat's colour (seat from 0, as components.Seat.Player; gfx.SeatColors):
// seat 0's is Sprite(name) itself, in the atlas's batch; another seat's
// is the sprite with the cyan of the engine's player sprite
// (gfx.SeatColors[0]) swapped for the seat's hue (gfx.Recolor: shading,
// gradients and rims kept, other colours as drawn), an image of its own,
// which the sprites of that seat share (they batch with each other, not
// with the atlas's). Its Color stays free for a flash or a fade. The
// image is made the first time a name and a seat are asked for (a scene
// asks as it loads), and freed with the stage. A seat outside 0 to 3
// panics, as an unknown name does.
func (s *Stage) SeatSprite(name string, seat int) *gfx.Sprite {
	if seat < 0 || seat >= len(gfx.SeatColors) {
		panic(fmt.Sprintf("stage: SeatSprite(%q, %d): seats are 0 to %d", name, seat, len(gfx.SeatColors)-1))
	}
	if seat == 0 {
		return s.Sprite(name)
	}
	return s.RecolorSprite(name, gfx.Recolor{From: gfx.SeatColors[0], To: gfx.SeatColors[seat]})
}

// RecolorSprite returns a new sprite of the stage's bundle by name with
// rc's colour swap applied (a palette of a game's own: team colours, a
// player's chosen colour), centred as Sprite's are. The recoloured image
// is made once per name and swap, its bounds those of the sprite in the
// atlas, and freed with the stage. It panics on a name the bundle does
// not have.
func (s *Stage) RecolorSprite(name string, rc gfx.Recolor) *gfx.Sprite {
	key := recolorKey{name: name, within: rc.Within,
		from: color.RGBAModel.Convert(rc.From).(color.RGBA), to: color.RGBAModel.Convert(rc.To).(color.RGBA)}
	img, ok := s.recolored[key]
	if !ok {
		data := s.Bundle.Data()
		r, found := data.Rect(name)
		if !found {
			s.Bundle.MustSprite(name) // its panic names the sprite and the index
		}
		img = ebiten.NewImageFromImageWithOptions(rc.Apply(data.Atlas(), r), &ebiten.NewImageFromImageOptions{PreserveBounds: true})
		if s.recolored == nil {
			s.recolored = recolorCache{}
		}
		s.recolored[key] = img
		core.Name(s.Stage, key.String(), img)
	}
	b := img.Bounds()
	return &gfx.Sprite{Image: img, OriginX: float64(b.Dx()) / 2, OriginY: float64(b.Dy()) / 2}
}

// releaseRecolored frees the recoloured images.
func (s *Stage) releaseRecolored() {
	for _, img := range s.recolored { //detcheck:ok freeing images: the order reaches nothing
		img.Deallocate()
	}
	s.recolored = nil
}

// String names a recoloured image among the stage's assets (core.Name):
// "recolor/" and the sprite's name, the two colours and the hue's width,
// which parseRecolorKey reads back.
func (k recolorKey) String() string {
	return fmt.Sprintf("recolor/%02x%02x%02x%02x/%02x%02x%02x%02x/%s/%s", k.from.R, k.from.G, k.from.B, k.from.A,
		k.to.R, k.to.G, k.to.B, k.to.A, strconv.FormatFloat(k.within, 'g', -1, 64), k.name)
}

// parseRecolorKey reads a recolorKey's String back.
func parseRecolorKey(s string) (recolorKey, bool) {
	var k recolorKey
	rest, ok := strings.CutPrefix(s, "recolor/")
	parts := strings.SplitN(rest, "/", 4)
	if !ok || len(parts) != 4 || len(parts[0]) != 8 || len(parts[1]) != 8 {
		return k, false
	}
	for i, c := range []*color.RGBA{&k.from, &k.to} {
		v, err := strconv.ParseUint(parts[i], 16, 32)
		if err != nil {
			return k, false
		}
		*c = color.RGBA{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}
	}
	w, err := strconv.ParseFloat(parts[2], 64)
	if err != nil {
		return k, false
	}
	k.within, k.name = w, parts[3]
	return k, k.String() == s
}

// nameAssets names the bundle's atlas and sprites among the stage's
// assets, so that the state as bytes writes the sprites and fills that
// point to them (core.Name), and lets a reading stage make a recoloured
// sprite the bytes name that it has not made yet.
func (s *Stage) nameAssets() {
	core.Name(s.Stage, "atlas", s.Bundle.Atlas())
	for _, name := range s.Bundle.Names() {
		core.Name(s.Stage, "sprite/"+name, s.Bundle.MustSprite(name))
	}
	core.Find(s.Stage, func(name string) *ebiten.Image {
		k, ok := parseRecolorKey(name)
		if !ok {
			return nil
		}
		if _, found := s.Bundle.Data().Rect(k.name); !found {
			return nil
		}
		return s.RecolorSprite(k.name, gfx.Recolor{From: k.from, To: k.to, Within: k.within}).Image
	})
}
