package engine_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// saveChain is a two-scene game: a Menu (30 Hz) that leaves on its tick
// 20 for Play (60, 45 and 10 Hz: the 45 Hz group's ticks fall between the
// first group's), which carries the Menu's presses in its value and ends
// after its tick 400. Its input is a function of the tick, so that a run
// that goes on from a save gets the same input as the run it was saved
// from. Save, if set, is asked for after tick at[1] of scene at[0].
type saveChain struct {
	at    [2]int64
	path  string
	saved error // what Save's done said; errNotYet until then
	final uint64
	menus int

	// states gives the loop Play's state as bytes (steerBytes,
	// savestate_test.go); first and ran count the ticks of Play's first
	// group it simulated (the first, how many), reads its state's reads.
	states     bool
	first, ran int64
	reads      int
}

var errNotYet = errors.New("not saved yet")

func (c *saveChain) menu() engine.Scene {
	return engine.NewScene("Menu", func(loop *engine.Loop) (engine.Scene, error) {
		c.menus++
		var s steer
		loop.Recording().SetChecksum(s.checksum)
		for ev := range loop.Events(engine.Group{Name: "menu", Hz: 30}) {
			if ev.Kind == engine.Update {
				s.update(ev)
				c.maybeSave(loop, ev)
				if ev.Tick == 20 {
					return c.play(s.presses), nil
				}
			}
		}
		return nil, loop.Err()
	})
}

func (c *saveChain) play(carried int) engine.Scene {
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		var s steer
		sum := func() uint64 { return s.checksum() ^ uint64(carried)<<40 }
		loop.Recording().SetChecksum(sum)
		if c.states {
			st := &steerBytes{steerState: steerState{s: &s}}
			defer func() { c.reads = st.reads }()
			loop.Recording().SetSceneState(st)
		}
		groups := []engine.Group{{Name: "physics", Hz: 60}, {Name: "odd", Hz: 45}, {Name: "ai", Hz: 10}}
		for ev := range loop.Events(groups...) {
			if ev.Kind == engine.Update {
				if ev.Group == 0 {
					if c.ran == 0 {
						c.first = ev.Tick
					}
					c.ran++
				}
				s.update(ev)
				c.maybeSave(loop, ev)
				if ev.Group == 0 && ev.Tick == 400 {
					c.final = sum()
					return nil, nil
				}
			}
		}
		return nil, loop.Err()
	})
}

func (c *saveChain) maybeSave(loop *engine.Loop, ev engine.Event) {
	if scene, _ := loop.Scene(); c.path != "" && ev.Group == 0 && int64(scene) == c.at[0] && ev.Tick == c.at[1] {
		loop.Save(c.path, func(err error) { c.saved = err })
	}
}

// tickKeys is the chain's input: keys, the cursor and a stick, from the
// tick alone.
var tickKeys = engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
	h := uint64(t.Tick)*0x9e3779b97f4a7c15 + uint64(t.Group)*31 + uint64(len(t.Scene))
	h ^= h >> 29
	in.SetKey(input.KeySpace, h&3 == 0)
	in.SetKey(input.KeyArrowRight, h&12 == 4)
	in.CursorX = float64(h>>8&511) + 0.5
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(h>>20&255)/128-1)
})

// runChain runs the chain at a frame rate, recorded, going on from load
// (nil: from the start), and returns its recording.
func (c *saveChain) run(t *testing.T, fps float64, load *engine.Save, game engine.GameInfo) (*engine.InputLog, error) {
	t.Helper()
	rec := &engine.InputLog{}
	err := engine.Run(c.menu(), &engine.Options{Headless: &engine.Headless{FPS: fps}, Record: rec,
		TickInput: tickKeys, Load: load, Game: game})
	return rec, err
}

var testGame = engine.GameInfo{Name: "chain", Version: "1.0"}

// Save, load, continue equals the uninterrupted run: saved in the Menu, at
// Play's first tick, in the middle of Play (the 45 Hz group between two
// ticks of the first), and loaded at another frame rate, the run goes on
// to the same final state, having run the Menu's setup once; the save's
// scene, tick and checksum say where it is; and the loaded run's recording
// holds the whole run, replaying alone to the same end.
func TestSaveLoadContinue(t *testing.T) {
	base := &saveChain{}
	if _, err := base.run(t, 60, nil, testGame); err != nil || base.final == 0 {
		t.Fatalf("%v, final %x", err, base.final)
	}
	for _, at := range [][2]int64{{1, 7}, {2, 1}, {2, 137}, {2, 399}} {
		path := filepath.Join(t.TempDir(), "game.sav")
		saver := &saveChain{at: at, path: path, saved: errNotYet}
		if _, err := saver.run(t, 24, nil, testGame); err != nil || saver.saved != nil || saver.final != base.final {
			t.Fatalf("at %v: %v; saving: %v; final %x, want %x", at, err, saver.saved, saver.final, base.final)
		}
		save, err := engine.LoadSave(path)
		if err != nil {
			t.Fatalf("at %v: %v", at, err)
		}
		if name := map[int64]string{1: "Menu", 2: "Play"}[at[0]]; save.Scene != int(at[0]) || save.SceneName != name ||
			save.Tick != at[1] || save.Checksum == 0 || save.Game != testGame {
			t.Fatalf("at %v: the save says %+v", at, save)
		}
		loader := &saveChain{}
		rec, err := loader.run(t, 144, save, testGame)
		if err != nil || loader.final != base.final || loader.menus != 1 {
			t.Fatalf("at %v: going on from the save: %v; final %x, want %x; %d Menus", at, err, loader.final, base.final, loader.menus)
		}
		replayer := &saveChain{}
		if err := engine.Run(replayer.menu(), &engine.Options{Headless: &engine.Headless{FPS: 50}, Replay: rec}); err != nil ||
			replayer.final != base.final || !rec.Replayed().Finished {
			t.Fatalf("at %v: replaying the loaded run's recording: %v, final %x; %+v", at, err, replayer.final, rec.Replayed())
		}
	}
}

// A save that does not fit the game is refused before anything runs: by
// another game, by another version; so are damaged files: every byte
// changed in turn, cut short at every length, something appended, a
// recording given as a save.
func TestSaveRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.sav")
	saver := &saveChain{at: [2]int64{2, 50}, path: path, saved: errNotYet}
	rec, err := saver.run(t, 60, nil, testGame)
	if err != nil || saver.saved != nil {
		t.Fatal(err, saver.saved)
	}
	save, err := engine.LoadSave(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := engine.SaveDeterminism(save); d != engine.Determinism { // a load of a save from another arithmetic is refused by it
		t.Errorf("the save's recording names determinism version %d; this engine's is %d", d, engine.Determinism)
	}
	if _, err := engine.LoadInputLog(path); err == nil || !strings.Contains(err.Error(), "not an input log but a save file") {
		t.Errorf("a save replayed as a recording: %v", err)
	}
	for _, c := range []struct {
		game engine.GameInfo
		want string
	}{{engine.GameInfo{"other", "1.0"}, `a save of game "chain"; this game is "other"`},
		{engine.GameInfo{"chain", "1.1"}, `a save of chain version "1.0"; this is version "1.1"`}} {
		loader := &saveChain{}
		if _, err := loader.run(t, 60, save, c.game); err == nil || !strings.Contains(err.Error(), c.want) || loader.menus != 0 {
			t.Errorf("loading into %+v: %v (%d Menus run)", c.game, err, loader.menus)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x20
		if _, err := engine.ParseSave(bad); !errors.Is(err, engine.ErrBadSave) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
	}
	for n := range len(data) {
		if _, err := engine.ParseSave(data[:n]); !errors.Is(err, engine.ErrBadSave) {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
	if _, err := engine.ParseSave(append(data, 0)); err == nil || !strings.Contains(err.Error(), "after the save's end") {
		t.Errorf("a byte appended: %v", err)
	}
	recPath := filepath.Join(dir, "run.input")
	f, err := os.Create(recPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := engine.LoadSave(recPath); err == nil || !strings.Contains(err.Error(), "not a save file but a recording") {
		t.Errorf("a recording loaded as a save: %v", err)
	}
	if _, err := engine.LoadSave(dir); err == nil {
		t.Errorf("a directory loaded as a save: no error")
	}
	if err := engine.Run(saver.menu(), &engine.Options{Headless: &engine.Headless{}, Load: save, Replay: rec, Game: testGame}); err == nil {
		t.Errorf("Load with Replay: no error")
	}
}

// A save replaces a save at its path, whole, and nothing else: a recording
// there is an error and stays as it was. A run that is not recorded
// cannot save, and says so.
func TestSaveReplacesOnlySaves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.sav")
	for i, at := range [][2]int64{{2, 10}, {2, 20}} {
		saver := &saveChain{at: at, path: path, saved: errNotYet}
		if _, err := saver.run(t, 60, nil, testGame); err != nil || saver.saved != nil {
			t.Fatalf("save %d: %v, %v", i, err, saver.saved)
		}
		if save, err := engine.LoadSave(path); err != nil || save.Tick != at[1] {
			t.Fatalf("save %d: %v, %+v", i, err, save)
		}
	}
	other := filepath.Join(dir, "run.input")
	if err := os.WriteFile(other, []byte("FSTEPINP a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	saver := &saveChain{at: [2]int64{2, 10}, path: other, saved: errNotYet}
	if _, err := saver.run(t, 60, nil, testGame); err != nil || saver.saved == nil || !strings.Contains(saver.saved.Error(), "not a save") {
		t.Fatalf("saving over a recording: %v, %v", err, saver.saved)
	}
	if data, _ := os.ReadFile(other); string(data) != "FSTEPINP a recording" {
		t.Fatalf("the recording became %q", data)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(matches) > 0 {
		t.Fatalf("left behind: %v", matches)
	}
	unrecorded := &saveChain{at: [2]int64{2, 10}, path: path, saved: errNotYet}
	if err := engine.Run(unrecorded.menu(), &engine.Options{Headless: &engine.Headless{}, TickInput: tickKeys}); err != nil ||
		unrecorded.saved == nil || !strings.Contains(unrecorded.saved.Error(), "not recorded") {
		t.Fatalf("saving an unrecorded run: %v, %v", err, unrecorded.saved)
	}
}

// A save file, whatever its bytes, is refused with an error wrapping
// ErrBadSave or goes on to run the game, which then ends (with an error
// when the save does not fit it), never a panic. The outer chunk's CRC is
// made right too, so that changes reach the fields inside.
func FuzzParseSave(f *testing.F) {
	path := filepath.Join(f.TempDir(), "game.sav")
	saver := &saveChain{at: [2]int64{2, 30}, path: path, saved: errNotYet}
	rec := &engine.InputLog{}
	if err := engine.Run(saver.menu(), &engine.Options{Headless: &engine.Headless{}, Record: rec, TickInput: tickKeys,
		Game: testGame}); err != nil || saver.saved != nil {
		f.Fatal(err, saver.saved)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range [][]byte{data, resealSave(data)} {
			save, err := engine.ParseSave(d)
			if err != nil {
				if !errors.Is(err, engine.ErrBadSave) {
					t.Fatalf("an error that does not wrap ErrBadSave: %v", err)
				}
				continue
			}
			c := &saveChain{}
			_ = engine.Run(c.menu(), &engine.Options{Headless: &engine.Headless{Frames: 2000}, TickInput: tickKeys,
				Load: save, Game: save.Game})
		}
	})
}

// resealSave returns data with the CRC of a save file's chunk made right.
func resealSave(data []byte) []byte {
	head := len("FSTEPSAV") + 2
	if len(data) < head {
		return data
	}
	n, k := binary.Uvarint(data[head:])
	if k <= 0 || n > uint64(len(data)-head-k) || len(data)-head-k-int(n) < 4 {
		return data
	}
	out := bytes.Clone(data)
	end := head + k + int(n)
	binary.LittleEndian.PutUint32(out[end:], crc32.Checksum(out[head:end], crc32.MakeTable(crc32.Castagnoli)))
	return out
}

// A save asked for on the tick its scene ends on is not written, and its
// done is not told (Loop.Save): it is not written at the next scene's
// start either, where it would be a save of another tick than asked.
func TestSaveAskedAsTheSceneEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.sav")
	told := 0
	second := engine.NewScene("Second", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events(engine.Group{Name: "logic", Hz: 60}) {
			if ev.Kind == engine.Update && ev.Tick == 5 {
				return nil, nil
			}
		}
		return nil, loop.Err()
	})
	first := engine.NewScene("First", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events(engine.Group{Name: "logic", Hz: 60}) {
			if ev.Kind == engine.Update && ev.Tick == 10 {
				loop.Save(path, func(error) { told++ })
				return second, nil
			}
		}
		return nil, loop.Err()
	})
	if err := engine.Run(first, &engine.Options{Record: &engine.InputLog{}, Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) || told != 0 {
		t.Fatalf("a save asked for as its scene ended: the file %v, done told %d times", err, told)
	}
}
