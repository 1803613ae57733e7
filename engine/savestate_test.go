package engine_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// steerBytes is a steer as a SceneState that writes its state as bytes.
type steerBytes struct {
	steerState
	reads int
}

func (k *steerBytes) AppendState(b []byte) ([]byte, error) {
	for _, v := range []uint64{math.Float64bits(k.s.p.x), math.Float64bits(k.s.p.v), uint64(k.s.presses), math.Float64bits(k.s.cursor)} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b, nil
}

func (k *steerBytes) ReadState(b []byte) error {
	if len(b) != 32 {
		return fmt.Errorf("%d bytes, not a steer's 32", len(b))
	}
	k.s.p.x, k.s.p.v = math.Float64frombits(binary.LittleEndian.Uint64(b)), math.Float64frombits(binary.LittleEndian.Uint64(b[8:]))
	k.s.presses, k.s.cursor = int(binary.LittleEndian.Uint64(b[16:])), math.Float64frombits(binary.LittleEndian.Uint64(b[24:]))
	k.reads++
	return nil
}

// stateChain is saveChain whose Play gives the loop its state as bytes.
type stateChain struct{ saveChain }

func newStateChain(at [2]int64, path string) *stateChain {
	return &stateChain{saveChain{at: at, path: path, saved: errNotYet, states: true}}
}

func (c *stateChain) run(t *testing.T, fps float64, load *engine.Save, keys bool) (*engine.InputLog, error) {
	return c.runTo(t, fps, load, keys, "")
}

// runTo is run with the recording written to a file at file, when given.
func (c *stateChain) runTo(t *testing.T, fps float64, load *engine.Save, keys bool, file string) (*engine.InputLog, error) {
	t.Helper()
	opts := &engine.Options{Headless: &engine.Headless{FPS: fps}, Record: &engine.InputLog{}, Load: load, Game: testGame}
	if keys {
		opts.TickInput = tickKeys
	}
	if file != "" {
		if err := opts.Record.Create(file); err != nil {
			t.Fatal(err)
		}
		defer opts.Record.Close()
	}
	err := engine.Run(c.menu(), opts)
	return opts.Record, err
}

// A save of a scene that writes its state loads at once: the scene's
// state is read, not simulated (its first tick simulated is the one after
// the save's), and the run goes on as a load that simulates does, to the
// same final state and the same recording, byte for byte (its input and
// checksums up to the save copied from the save's recording); a state that
// does not give the save's checksum fails the load.
func TestSaveLoadsState(t *testing.T) {
	for _, at := range []int64{1, 137, 399} {
		path := filepath.Join(t.TempDir(), "game.sav")
		saver := newStateChain([2]int64{2, at}, path)
		if _, err := saver.run(t, 24, nil, true); err != nil || saver.saved != nil {
			t.Fatalf("at %d: %v; saving: %v", at, err, saver.saved)
		}
		save, err := engine.LoadSave(path)
		if err != nil || !save.HoldsState() {
			t.Fatalf("at %d: %v; holds its state: %v", at, err, save != nil && save.HoldsState())
		}
		dir := t.TempDir()
		fast := newStateChain([2]int64{}, "")
		fastRec, err := fast.runTo(t, 144, save, false, filepath.Join(dir, "fast.rec"))
		if err != nil || fast.reads != 1 || fast.first != at+1 || fast.ran != 400-at {
			t.Fatalf("at %d: loading the state: %v; %d reads, first tick %d, %d ticks", at, err, fast.reads, fast.first, fast.ran)
		}
		slow := newStateChain([2]int64{}, "")
		slowRec, err := slow.runTo(t, 144, engine.WithoutState(save), false, filepath.Join(dir, "slow.rec"))
		if err != nil || slow.reads != 0 || slow.first != 1 {
			t.Fatalf("at %d: loading by simulating: %v; %d reads, first tick %d", at, err, slow.reads, slow.first)
		}
		if fast.final != slow.final || fast.final == 0 {
			t.Fatalf("at %d: final %x loading the state, %x simulating", at, fast.final, slow.final)
		}
		var a, b bytes.Buffer
		fastRec.WriteTo(&a)
		slowRec.WriteTo(&b)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("at %d: the recordings differ: %d and %d bytes", at, a.Len(), b.Len())
		}
		var files [2]bytes.Buffer
		for i, name := range []string{"fast.rec", "slow.rec"} {
			lg, err := engine.LoadInputLog(filepath.Join(dir, name))
			if err != nil {
				t.Fatalf("at %d: %s: %v", at, name, err)
			}
			lg.WriteTo(&files[i])
		}
		if !bytes.Equal(files[0].Bytes(), files[1].Bytes()) || !bytes.Equal(files[0].Bytes(), a.Bytes()) {
			t.Fatalf("at %d: the recordings' files read back differ: %d and %d bytes", at, files[0].Len(), files[1].Len())
		}
		// With a tick-input source, which must be asked for every tick, the load simulates.
		asked := newStateChain([2]int64{}, "")
		if _, err := asked.run(t, 144, save, true); err != nil || asked.reads != 0 || asked.first != 1 {
			t.Fatalf("at %d: a load with a tick source: %v; %d reads, first tick %d", at, err, asked.reads, asked.first)
		}
	}
}

// A save whose state does not give its checksum fails the load, naming
// the divergence; a state that cannot be read fails it too.
func TestSaveStateChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.sav")
	saver := newStateChain([2]int64{2, 100}, path)
	if _, err := saver.run(t, 60, nil, true); err != nil || saver.saved != nil {
		t.Fatal(err, saver.saved)
	}
	save, err := engine.LoadSave(path)
	if err != nil {
		t.Fatal(err)
	}
	wrong := engine.ForgeState(save, func(b []byte) []byte { b[len(b)-1] ^= 1; return b })
	var de *engine.DivergenceError
	if _, err := newStateChain([2]int64{}, "").run(t, 60, wrong, false); !errors.As(err, &de) || de.Tick != 100 {
		t.Fatalf("a state off by a bit: %v", err)
	}
	short := engine.ForgeState(save, func(b []byte) []byte { return b[:len(b)-1] })
	if _, err := newStateChain([2]int64{}, "").run(t, 60, short, false); err == nil || !bytes.Contains([]byte(err.Error()), []byte("31 bytes")) {
		t.Fatalf("a state cut short: %v", err)
	}
}
