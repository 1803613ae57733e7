package anim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png" // sheets
	"io/fs"
	"path"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
)

// Grid cuts n frames of w x h pixels from sheet, left to right and then
// down, from its top-left corner. The sheet is any image: a sprite of the
// game's atlas (Stage.Sprite(name).Image), or a PNG of the game's files
// read with ebiten's ebitenutil.NewImageFromFileSystem(fsys, "hero.png").
// An Aseprite export, frames and tags, is LoadSheet's.
func Grid(sheet *ebiten.Image, w, h, n int) []*ebiten.Image {
	b := sheet.Bounds()
	cols := b.Dx() / w
	if w <= 0 || h <= 0 || cols == 0 || n > cols*(b.Dy()/h) {
		panic(fmt.Sprintf("anim: Grid: %d frames of %d x %d do not fit a %d x %d sheet", n, w, h, b.Dx(), b.Dy()))
	}
	frames := make([]*ebiten.Image, n)
	for i := range frames {
		x, y := b.Min.X+i%cols*w, b.Min.Y+i/cols*h
		frames[i] = sheet.SubImage(image.Rect(x, y, x+w, y+h)).(*ebiten.Image)
	}
	return frames
}

// asepriteFrame is a frame of an Aseprite sheet's JSON.
type asepriteFrame struct {
	Frame    struct{ X, Y, W, H int } `json:"frame"`
	Duration int                      `json:"duration"` // milliseconds
}

// LoadAseprite reads the JSON Aseprite exports with a sheet (File > Export
// Sprite Sheet, frames as an array or a hash) and returns a clip for each
// of its tags (forward, reverse or ping-pong, looping), by name, and one
// named "" with every frame. Frames keep Aseprite's durations (a missing
// or zero one: 100 ms).
func LoadAseprite(sheet *ebiten.Image, data []byte) (map[string]*Clip, error) {
	var doc struct {
		Frames json.RawMessage `json:"frames"`
		Meta   struct {
			FrameTags []struct {
				Name      string `json:"name"`
				From, To  int
				Direction string `json:"direction"`
			} `json:"frameTags"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("anim: aseprite: %w", err)
	}
	frames, err := asepriteFrames(doc.Frames)
	if err != nil {
		return nil, err
	}
	if len(frames) == 0 {
		return nil, fmt.Errorf("anim: aseprite: no frames")
	}
	b := sheet.Bounds()
	imgs := make([]*ebiten.Image, len(frames))
	durs := make([]float64, len(frames))
	for i, f := range frames {
		r := image.Rect(f.Frame.X, f.Frame.Y, f.Frame.X+f.Frame.W, f.Frame.Y+f.Frame.H).Add(b.Min)
		if f.Frame.W <= 0 || f.Frame.H <= 0 || !r.In(b) {
			return nil, fmt.Errorf("anim: aseprite: frame %d at %v is not inside the %v sheet", i, r, b)
		}
		imgs[i] = sheet.SubImage(r).(*ebiten.Image)
		durs[i] = 0.1
		if f.Duration > 0 {
			durs[i] = float64(f.Duration) / 1000
		}
	}
	clips := map[string]*Clip{"": {Frames: imgs, Durations: durs, Loop: true}}
	for _, tag := range doc.Meta.FrameTags {
		if tag.From < 0 || tag.To >= len(frames) || tag.From > tag.To {
			return nil, fmt.Errorf("anim: aseprite: tag %q from frame %d to %d of %d", tag.Name, tag.From, tag.To, len(frames))
		}
		var order []int
		for i := tag.From; i <= tag.To; i++ {
			order = append(order, i)
		}
		switch tag.Direction {
		case "reverse":
			slices.Reverse(order)
		case "pingpong":
			for i := tag.To - 1; i > tag.From; i-- {
				order = append(order, i)
			}
		}
		c := &Clip{Name: tag.Name, Loop: true}
		for _, i := range order {
			c.Frames, c.Durations = append(c.Frames, imgs[i]), append(c.Durations, durs[i])
		}
		clips[tag.Name] = c
	}
	return clips, nil
}

// asepriteFrames reads the frames as an array, or as a hash in the file's
// order.
func asepriteFrames(raw json.RawMessage) ([]asepriteFrame, error) {
	var list []asepriteFrame
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("anim: aseprite: frames are neither an array nor a hash")
	}
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the frame's name
			return nil, fmt.Errorf("anim: aseprite: %w", err)
		}
		var f asepriteFrame
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("anim: aseprite: %w", err)
		}
		list = append(list, f)
	}
	return list, nil
}

// Sheet is an Aseprite sheet loaded with its clips.
type Sheet struct {
	Image *ebiten.Image
	Clips map[string]*Clip // by tag; "" is every frame
}

// LoadSheet reads the Aseprite JSON at name in fsys (an embed.FS: the
// game's assets), the PNG it names (meta.image, beside it), and its clips
// (see LoadAseprite). Release the sheet's image when the scene ends.
func LoadSheet(fsys fs.FS, name string) (*Sheet, error) {
	js, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("anim: %w", err)
	}
	var doc struct {
		Meta struct{ Image string } `json:"meta"`
	}
	if err := json.Unmarshal(js, &doc); err != nil || doc.Meta.Image == "" {
		return nil, fmt.Errorf("anim: %s: no meta.image naming the sheet (%v)", name, err)
	}
	imgPath := path.Join(path.Dir(name), doc.Meta.Image)
	data, err := fs.ReadFile(fsys, imgPath)
	if err != nil {
		return nil, fmt.Errorf("anim: %s: %w", name, err)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("anim: %s: %w", imgPath, err)
	}
	sh := &Sheet{Image: ebiten.NewImageFromImage(img)}
	if sh.Clips, err = LoadAseprite(sh.Image, js); err != nil {
		sh.Image.Deallocate()
		return nil, fmt.Errorf("%w (%s)", err, name)
	}
	return sh, nil
}

// Release frees the sheet's image.
func (sh *Sheet) Release() { sh.Image.Deallocate() }
