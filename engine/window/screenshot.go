package window

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
)

// Screen returns the screen a Render event carries in a window, the frame
// to draw on; nil for other events and headless, where nothing is drawn.
// It allocates nothing. In a browser it can be ebiten's final screen, the
// canvas itself (see Options), filled opaque black before the scene draws:
// read its pixels with ScreenPixels, as its own ReadPixels gives its rows
// bottom up.
func Screen(ev engine.Event) *ebiten.Image {
	s, _ := ev.Screen.(*ebiten.Image)
	return s
}

// ScreenPixels returns a copy of img's pixels: a Render event's screen while
// the scene handles that event (or after it, in engine.Options.AfterFrame),
// or any image while the game runs. It allocates the image, and reading
// pixels back from the GPU stalls it: it is for screenshots and tests, not
// for every frame.
func ScreenPixels(img *ebiten.Image) *image.RGBA {
	rgba := image.NewRGBA(img.Bounds())
	img.ReadPixels(rgba.Pix)
	if g := running.Load(); g != nil && g.d.final && img == g.d.screen {
		// ebiten reads its final screen (OpenGL's default framebuffer) from
		// the bottom row up.
		row := make([]byte, rgba.Stride)
		for top, bottom := 0, rgba.Rect.Dy()-1; top < bottom; top, bottom = top+1, bottom-1 {
			t, b := rgba.Pix[top*rgba.Stride:(top+1)*rgba.Stride], rgba.Pix[bottom*rgba.Stride:(bottom+1)*rgba.Stride]
			copy(row, t)
			copy(t, b)
			copy(b, row)
		}
	}
	return rgba
}

// SaveScreenshot writes img's pixels to a PNG file as the window shows
// them: opaque, what a scene left transparent black (ebiten shows the
// screen over black). It writes atomically (a temporary file in the same
// folder, then a rename): a failed save leaves no half file, and an older
// file at path as it was. A nil img (a headless frame) is ErrNoScreen.
func SaveScreenshot(path string, img *ebiten.Image) error {
	if img == nil {
		return ErrNoScreen
	}
	pix := ScreenPixels(img)
	for i := 3; i < len(pix.Pix); i += 4 {
		pix.Pix[i] = 0xff // premultiplied colours over black are the colours themselves
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, pix); err != nil {
		return fmt.Errorf("engine: screenshot %s: %w", path, err)
	}
	if err := atomicfile.Write(path, buf.Bytes()); err != nil {
		return fmt.Errorf("engine: screenshot: %w", err)
	}
	return nil
}

// ErrNoScreen is the error of a screenshot asked for where nothing is drawn
// (headless).
var ErrNoScreen = errors.New("engine: screenshot: no screen (headless runs draw nothing)")

// Screenshot asks for the window's next frame to be saved to a PNG file at
// path, once the scene has drawn all of it (every render system, the
// overlay too), before it is shown. done, if set, is told the path and how
// the save went, on the loop's goroutine; with no window (headless) it is
// told at once, with ErrNoScreen. A second request before that frame
// replaces the first, whose done gets an error saying so. Saving encodes
// the PNG on the loop's goroutine: the frame it is taken on is late by
// that much. Call it from the scene (an input system: the dev keys' F12).
func Screenshot(path string, done func(path string, err error)) {
	g := running.Load()
	if g == nil {
		if done != nil {
			done(path, ErrNoScreen)
		}
		return
	}
	g.d.shot.replace(path, done)
}

// shotRequest is a screenshot asked for with Screenshot.
type shotRequest struct {
	wanted bool
	path   string
	done   func(path string, err error)
}

func (s *shotRequest) replace(path string, done func(string, error)) {
	if s.wanted && s.done != nil {
		s.done(s.path, errors.New("engine: screenshot: replaced by another before the frame was drawn"))
	}
	*s = shotRequest{wanted: true, path: path, done: done}
}

// take saves the frame just drawn, if a screenshot was asked for.
func (s *shotRequest) take(screen *ebiten.Image) {
	if !s.wanted {
		return
	}
	req := *s
	*s = shotRequest{}
	err := SaveScreenshot(req.path, screen)
	if req.done != nil {
		req.done(req.path, err)
	}
}

// cancel tells a request still waiting that no frame will come.
func (s *shotRequest) cancel() {
	if s.wanted && s.done != nil {
		s.done(s.path, errors.New("engine: screenshot: the window closed before the frame was drawn"))
	}
	*s = shotRequest{}
}
