package engine

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"

	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/hajimehoshi/ebiten/v2"
)

// ScreenPixels returns a copy of img's pixels: a Render event's Screen while
// the scene handles that event (or after it, in [Options.AfterFrame]), or
// any image while the game runs. It allocates the image, and reading pixels
// back from the GPU stalls it: it is for screenshots and tests, not for every
// frame.
func ScreenPixels(img *ebiten.Image) *image.RGBA {
	rgba := image.NewRGBA(img.Bounds())
	img.ReadPixels(rgba.Pix)
	return rgba
}

// SaveScreenshot writes img's pixels to a PNG file as the window shows
// them: opaque, what a scene left transparent black (ebiten shows the
// screen over black). It writes atomically (a temporary file in the same
// folder, then a rename): a failed save leaves no half file, and an older
// file at path as it was.
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

// Screenshot asks for the next frame to be saved to a PNG file at path,
// once the scene has drawn all of it (every render system, the overlay
// too), before it is shown. done, if set, is told the path and how the save
// went, on the loop's goroutine; headless, where frames have no screen, it
// gets [ErrNoScreen]. A second request before that frame replaces the
// first, whose done gets an error saying so. Saving encodes the PNG on the
// loop's goroutine: the frame it is taken on is late by that much.
func (l *Loop) Screenshot(path string, done func(path string, err error)) {
	if l.shot.done != nil {
		l.shot.done(l.shot.path, errors.New("engine: screenshot: replaced by another before the frame was drawn"))
	}
	l.shot.path, l.shot.done, l.shot.wanted = path, done, true
}

// shotRequest is a screenshot asked for with Screenshot.
type shotRequest struct {
	wanted bool
	path   string
	done   func(path string, err error)
}

// frameDrawn runs once the scene has handled a Render event: a screenshot
// asked for, then Options.AfterFrame.
func (l *Loop) frameDrawn() {
	l.drawn = false
	ev := &l.ev
	if l.shot.wanted {
		req := l.shot
		l.shot = shotRequest{}
		err := SaveScreenshot(req.path, ev.Screen)
		if req.done != nil {
			req.done(req.path, err)
		}
	}
	if l.afterFrame != nil {
		l.afterFrame(l, *ev)
	}
}
