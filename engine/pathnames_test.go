package engine_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// namesGame is a one-scene game that notes what Recording.PathNames said, and
// saves after its tick 10 when asked to.
type namesGame struct {
	save      string // where to save, "" for no save
	pathNames []bool // what PathNames said, per run of the scene
}

func (g *namesGame) scene() engine.Scene {
	return engine.NewScene("Names", func(loop *engine.Loop) (engine.Scene, error) {
		g.pathNames = append(g.pathNames, loop.Recording().PathNames())
		var n uint64
		loop.Recording().SetChecksum(func() uint64 { return n })
		for ev := range loop.Events() {
			if ev.Kind == engine.Update {
				n = n*31 + uint64(ev.Tick)
				if ev.Tick == 10 && g.save != "" {
					loop.Save(g.save, nil)
				}
			}
		}
		return nil, loop.Err()
	})
}

var namesInfo = engine.GameInfo{Name: "names", Version: "1"}

// run runs the game for 40 frames at 60 fps (or replays, or loads),
// recording to path, and returns what PathNames said.
func (g *namesGame) run(t *testing.T, path string, opts engine.Options) bool {
	t.Helper()
	rec := &engine.InputLog{}
	if err := rec.Create(path); err != nil {
		t.Fatal(err)
	}
	opts.Headless, opts.Record, opts.Game = &engine.Headless{FPS: 60, Frames: 40}, rec, namesInfo
	g.pathNames = nil
	if err := engine.Run(g.scene(), &opts); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if len(g.pathNames) != 1 {
		t.Fatalf("the scene ran %d times", len(g.pathNames))
	}
	return g.pathNames[0]
}

// fileVersion returns the format version in the header of the input log
// at the start of data, or at the first one inside it (a save's).
func fileVersion(t *testing.T, data []byte) int {
	t.Helper()
	i := bytes.Index(data, []byte("FSTEPINP"))
	if i < 0 {
		t.Fatal("no input log in the file")
	}
	return int(binary.LittleEndian.Uint16(data[i+8:]))
}

// withVersion returns the file at path with the version of the input log
// in it set to v, written beside it; a save's chunk is sealed again.
func withVersion(t *testing.T, path string, v int) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("FSTEPINP"))
	binary.LittleEndian.PutUint16(data[i+8:], uint16(v))
	if i > 0 {
		data = resealSave(data)
	}
	out := path + ".v" + string(rune('0'+v))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// A run names types by declared names (PathNames false) and records format
// 5; a replay of a recording of format 4, or a load of a save of one,
// names them by package path, as that recording's checksums do, and a run
// that goes on from such a save is recorded in format 4, so that its
// recording replays so too. Recordings and saves of both formats replay
// and load.
func TestPathNamesFollowTheRecordingsFormat(t *testing.T) {
	dir := t.TempDir()
	g := &namesGame{save: filepath.Join(dir, "game.sav")}
	rec5 := filepath.Join(dir, "new.input")
	if g.run(t, rec5, engine.Options{}) {
		t.Error("a new run names types by package path")
	}
	g.save = ""
	data, _ := os.ReadFile(rec5)
	save5, _ := os.ReadFile(filepath.Join(dir, "game.sav"))
	if v, sv := fileVersion(t, data), fileVersion(t, save5); v != 5 || sv != 5 {
		t.Fatalf("a new recording is of format %d, a new save holds one of %d; want 5", v, sv)
	}
	rec4 := withVersion(t, rec5, 4)
	for path, want := range map[string]bool{rec5: false, rec4: true} {
		lg, err := engine.LoadInputLog(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.run(t, filepath.Join(dir, "re-"+filepath.Base(path)), engine.Options{Replay: lg}); got != want {
			t.Errorf("replaying %s: PathNames %v, want %v", filepath.Base(path), got, want)
		}
	}
	for path, want := range map[string]bool{filepath.Join(dir, "game.sav"): false, withVersion(t, filepath.Join(dir, "game.sav"), 4): true} {
		save, err := engine.LoadSave(path)
		if err != nil {
			t.Fatal(err)
		}
		on := filepath.Join(dir, "on-"+filepath.Base(path)+".input")
		if got := g.run(t, on, engine.Options{Load: save}); got != want {
			t.Errorf("going on from %s: PathNames %v, want %v", filepath.Base(path), got, want)
		}
		data, _ := os.ReadFile(on)
		if v := fileVersion(t, data); v != map[bool]int{false: 5, true: 4}[want] {
			t.Errorf("going on from %s: recorded in format %d", filepath.Base(path), v)
		}
		lg, err := engine.LoadInputLog(on)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.run(t, on+".re", engine.Options{Replay: lg}); got != want || lg.Replayed().Checked == 0 {
			t.Errorf("replaying the run that went on from %s: PathNames %v, want %v; %+v", filepath.Base(path), got, want, lg.Replayed())
		}
	}
}
