package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/window"
)

// startProfile starts a CPU profile to path, and returns what stops it.
// The profile is written to a file beside path and renamed over it once
// it is whole: a write that fails (a full disk), its Sync or its Close
// included, is an error that names path, and leaves path as it was and
// no file beside it.
func startProfile(path string) (stop func() error, err error) {
	target, err := atomicfile.Target(path)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	w := &errWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile() // its writes' errors are not its result: w keeps the first
		err := w.err
		if serr := f.Sync(); err == nil {
			err = serr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), 0o644) // CreateTemp makes it 0600
		}
		if err == nil {
			err = os.Rename(f.Name(), target)
		}
		if err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("-cpuprofile %s: writing the CPU profile: %w (nothing was written there)", path, err)
		}
		atomicfile.SyncDir(dir)
		return nil
	}, nil
}

// An errWriter writes to w and keeps the first error a write returned:
// for writers whose callers do not return it (runtime/pprof's), and for a
// run's summary, whose end says whether it was all written.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// screenshotFlag saves the frame-th frame drawn, or with a scene the first
// frame drawn after its tick `tick`, then stops the loop.
type screenshotFlag struct {
	path   string
	frame  int
	scene  int
	tick   int64
	frames int
	err    error
	done   bool
}

func (s *screenshotFlag) afterFrame(loop *engine.Loop, ev engine.Event) {
	screen := window.Screen(ev)
	if s.done || screen == nil {
		return
	}
	s.frames++
	scene, _ := loop.Scene()
	if s.scene == 0 && s.frames == s.frame || s.scene > 0 && (scene > s.scene || scene == s.scene && loop.Ticks(0) >= s.tick) {
		s.done = true
		s.err = window.SaveScreenshot(s.path, screen)
		loop.Stop()
	}
}

func (s *screenshotFlag) result() error {
	if s.err != nil {
		return s.err
	}
	if !s.done && s.scene > 0 {
		return fmt.Errorf("-screenshot-at %d:%d: the run never reached tick %d of scene %d", s.scene, s.tick, s.tick, s.scene)
	}
	if !s.done {
		return fmt.Errorf("-screenshot: the game ended after %d frames, before frame %d", s.frames, s.frame)
	}
	return nil
}

// parseSceneTick reads -dump-at's and -screenshot-at's S:T (or T, for
// scene 1).
func parseSceneTick(v string) (scene int, tick int64, err error) {
	scene = 1
	t := v
	if i := strings.IndexByte(v, ':'); i >= 0 {
		if _, err := fmt.Sscanf(v[:i], "%d", &scene); err != nil || scene < 1 || fmt.Sprint(scene) != v[:i] {
			return 0, 0, errors.New("want S:T, a scene number from 1 and a tick from 1 (or T alone: scene 1)")
		}
		t = v[i+1:]
	}
	if _, err := fmt.Sscanf(t, "%d", &tick); err != nil || tick < 1 || fmt.Sprint(tick) != t {
		return 0, 0, errors.New("want S:T, a scene number from 1 and a tick from 1 (or T alone: scene 1)")
	}
	return scene, tick, nil
}

// stateDumps writes the world as text: after tick `tick` of scene `scene`
// (-dump-at), and where a replay diverged.
type stateDumps struct {
	scene int
	tick  int64
	path  string
	err   error

	divergence  *engine.DivergenceError // the replay's, once told of it
	divergedErr error                   // why the replayed world there was not written
	again       string                  // how the run that diverged is run again: "-replay FILE" or "-load FILE"
}

// afterUpdate writes the dump -dump-at asks for once the scene has handled
// its tick.
func (d *stateDumps) afterUpdate(loop *engine.Loop, ev engine.Event) {
	if scene, _ := loop.Scene(); d.path != "" || ev.Group != 0 || ev.Tick != d.tick || scene != d.scene {
		return
	}
	d.path = dumpPath(d.scene, d.tick)
	d.err = writeDump(loop, d.path)
}

// dumpPath is the file -dump-at S:T writes.
func dumpPath(scene int, tick int64) string { return fmt.Sprintf("dump-%d-%d.txt", scene, tick) }

func (d *stateDumps) result() error {
	if d.path == "" {
		return fmt.Errorf("-dump-at %d:%d: the run never reached tick %d of scene %d", d.scene, d.tick, d.tick, d.scene)
	}
	if d.err != nil {
		return fmt.Errorf("-dump-at: %w", d.err)
	}
	return nil
}

// diverged writes the replayed world where the replay diverged.
func (d *stateDumps) diverged(loop *engine.Loop, de *engine.DivergenceError) {
	d.divergence = de
	path := fmt.Sprintf("diverged-%d-%d.txt", de.Scene, de.Tick)
	if err := writeDump(loop, path); err != nil {
		d.divergedErr = fmt.Errorf("the replayed world where the replay diverged was not written: %w", err)
		return
	}
	de.Dump = path + fmt.Sprintf(" (the same tick of the recording's build: %s -dump-at %d:%d, then diff)", d.again, de.Scene, de.Tick)
}

// writeDump writes the loop's scene state to a new file at path.
func writeDump(loop *engine.Loop, path string) error {
	var buf bytes.Buffer
	if err := loop.Recording().DumpState(&buf); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes())
}
