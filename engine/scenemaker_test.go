package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// makerChain is a Menu (30 Hz, 20 ticks) that hands Play (60, 45 and 10
// Hz) the presses it counted, a value of the game's code: the Menu is a
// SceneMaker that makes Play afresh with carried. Play writes its state
// after its tick at and keeps every tick's checksum of its first group.
type makerChain struct {
	carried int    // what SceneFor hands Play
	at      int64  // Play's tick whose state is written (0: none)
	name    string // the scene SceneFor makes ("": Play)

	menus, made int
	presses     int              // what the Menu counted
	state       []byte           // the state written
	sums        map[int64]uint64 // Play's first group: tick -> checksum
	first, last int64            // Play's first and last ticks simulated
	scene       int              // Play's number in the run (Loop.Scene)
}

func (c *makerChain) Name() string { return "Menu" }

func (c *makerChain) Run(loop *engine.Loop) (engine.Scene, error) {
	c.menus++
	var s steer
	loop.Recording().SetChecksum(s.checksum)
	for ev := range loop.Events(engine.Group{Name: "menu", Hz: 30}) {
		if ev.Kind == engine.Update {
			s.update(ev)
			if ev.Tick == 20 {
				c.presses = s.presses
				return c.play(s.presses), nil
			}
		}
	}
	return nil, loop.Err()
}

func (c *makerChain) SceneFor(name string) (engine.Scene, error) {
	c.made++
	if name != "Play" {
		return nil, fmt.Errorf("no scene %q", name)
	}
	if c.name != "" {
		return engine.NewScene(c.name, func(*engine.Loop) (engine.Scene, error) { return nil, nil }), nil
	}
	return c.play(c.carried), nil
}

func (c *makerChain) play(carried int) engine.Scene {
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		var s steer
		sum := func() uint64 { return s.checksum() ^ uint64(carried)<<40 }
		loop.Recording().SetChecksum(sum)
		loop.Recording().SetSceneState(&steerBytes{steerState: steerState{s: &s}})
		c.sums = map[int64]uint64{}
		groups := []engine.Group{{Name: "physics", Hz: 60}, {Name: "odd", Hz: 45}, {Name: "ai", Hz: 10}}
		for ev := range loop.Events(groups...) {
			if ev.Kind != engine.Update {
				continue
			}
			s.update(ev)
			if ev.Group != 0 {
				continue
			}
			if c.first == 0 {
				c.first = ev.Tick
				c.scene, _ = loop.Scene()
			}
			c.last = ev.Tick
			c.sums[ev.Tick] = sum()
			if ev.Tick == c.at {
				var err error
				if c.state, err = loop.Recording().AppendState(nil); err != nil {
					return nil, err
				}
			}
		}
		return nil, loop.Err()
	})
}

// makerOptions runs 250 ticks of Play, by Options.StopAt: the Menu's game
// time and Play's.
func makerOptions(fps float64, state []byte) *engine.Options {
	stop := 20*time.Second/30 + 250*time.Second/60
	return &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: tickKeys, Game: testGame, StopAt: stop,
		FromState: state}
}

// A run begins from a state of its second scene, made afresh by its
// first scene (a SceneMaker), which does not run: the scene is the run's
// second, its first tick simulated the one after the state's, and every
// tick after it has the checksum it had in the run that wrote the state,
// which stops (Options.StopAt, over the game time of both scenes) on the
// same tick.
func TestFromStateOfLaterScene(t *testing.T) {
	for _, at := range []int64{1, 137} {
		writer := &makerChain{at: at}
		if err := engine.Run(writer, makerOptions(24, nil)); err != nil {
			t.Fatal(err)
		}
		if writer.state == nil || writer.last != 250 {
			t.Fatalf("at %d: no state written, or Play ran to tick %d", at, writer.last)
		}
		info, err := engine.ParseStateInfo(writer.state)
		if err != nil || info.Scene != 2 || info.SceneName != "Play" || info.Before != 20 || info.Tick != at {
			t.Fatalf("at %d: the state says %+v (%v)", at, info, err)
		}
		reader := &makerChain{carried: writer.presses}
		if err := engine.Run(reader, makerOptions(144, writer.state)); err != nil {
			t.Fatalf("at %d: %v", at, err)
		}
		if reader.menus != 0 || reader.made != 1 || reader.scene != 2 || reader.first != at+1 || reader.last != 250 {
			t.Fatalf("at %d: %d menus run, %d scenes made, Play the run's scene %d from tick %d to %d", at,
				reader.menus, reader.made, reader.scene, reader.first, reader.last)
		}
		for tick := at + 1; tick <= 250; tick++ {
			if reader.sums[tick] != writer.sums[tick] {
				t.Fatalf("at %d: tick %d's checksum %x, the writer's %x", at, tick, reader.sums[tick], writer.sums[tick])
			}
		}
	}
}

// A state of a later scene is refused, by name, before any tick: with a
// first scene that makes no scene afresh (not a SceneMaker), one that
// does not make the state's scene, or makes one of another name; a scene
// made otherwise than the scene before would have made it (handed other
// presses) fails its checksum.
func TestFromStateOfLaterSceneRefused(t *testing.T) {
	writer := &makerChain{at: 50}
	if err := engine.Run(writer, makerOptions(60, nil)); err != nil || writer.state == nil {
		t.Fatal(err)
	}
	plain := engine.NewScene("Menu", func(*engine.Loop) (engine.Scene, error) {
		t.Error("the first scene ran")
		return nil, nil
	})
	if err := engine.Run(plain, makerOptions(60, writer.state)); err == nil || !strings.Contains(err.Error(), "SceneMaker") {
		t.Errorf("no SceneMaker: %v", err)
	}
	other := &makerChain{carried: writer.presses, name: "Pause"}
	if err := engine.Run(other, makerOptions(60, writer.state)); err == nil || !strings.Contains(err.Error(), "made scene Pause") {
		t.Errorf("a scene of another name: %v", err)
	}
	forged := engine.ForgeStateName(writer.state, "Pl\x1bay")
	unknown := &makerChain{carried: writer.presses}
	err := engine.Run(unknown, makerOptions(60, forged))
	if err == nil || !strings.Contains(err.Error(), `no scene "Pl\x1bay"`) || unknown.menus != 0 || unknown.first != 0 {
		t.Errorf("a state of a scene the first does not make: %v", err)
	}
	wrong := &makerChain{carried: writer.presses + 1}
	err = engine.Run(wrong, makerOptions(60, writer.state))
	if err == nil || !strings.Contains(err.Error(), "it was written with") || wrong.first != 0 {
		t.Errorf("Play made with other presses: %v; its first tick %d", err, wrong.first)
	}
	var se *engine.SceneError
	if !errors.As(err, &se) || se.Scene != "Play" {
		t.Errorf("the checksum's error names no scene Play: %v", err)
	}
}
