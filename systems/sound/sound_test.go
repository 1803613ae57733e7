package sound_test

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/sound"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// blips is a scene that takes a sound every 10th tick, for 600 ticks.
func blips(taken *int64) engine.Scene {
	return engine.NewScene("Blips", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		snd := sound.New(loop, sound.Bank{"blip": sound.Tone(880, 0.05, 0.3)})
		st.Sched.AddUpdate(0, "rules", func(_ donburi.World, ev engine.Event) {
			if ev.Tick%10 == 0 {
				snd.Play(ev, "blip")
			}
			if ev.Tick == 600 {
				st.End(nil)
			}
		}).AddRender(0, "sound", snd.Draw)
		next, err := st.Run()
		*taken = snd.Played()
		return next, err
	})
}

// runBlips runs the scene headless with opts and returns the sounds the
// scene and the loop counted.
func runBlips(t *testing.T, opts engine.Options) (scene, loop int64) {
	t.Helper()
	opts.Headless = &engine.Headless{}
	opts.OnFinish = []engine.FinishHook{func(l *engine.Loop) { loop = l.Stats().Sounds }}
	if err := engine.Run(blips(&scene), &opts); err != nil {
		t.Fatal(err)
	}
	return scene, loop
}

// A sound is taken once for its tick: 60 in 600 ticks, headless (none
// played), in a plain run, under -synctest 8 (every tick simulated again),
// and in a replay of the run.
func TestSoundsTakenOnce(t *testing.T) {
	rec := &engine.InputLog{}
	for _, c := range []struct {
		name string
		opts engine.Options
	}{{"plain", engine.Options{Record: rec}}, {"synctest", engine.Options{SyncTest: 8}}, {"replay", engine.Options{Replay: rec}}} {
		if s, l := runBlips(t, c.opts); s != 60 || l != 60 {
			t.Errorf("%s: the scene took %d sounds, the loop counted %d; want 60", c.name, s, l)
		}
	}
}

// A step back does not take again the sounds of the ticks it re-runs, from
// a keyframe or by re-running the run; the ticks played after it do. A
// replay of the run takes the recorded ticks' sounds once each.
func TestSoundsNotTakenAgainByAStepBack(t *testing.T) {
	for _, keyframes := range []int{60, 0} {
		back := false
		var scene int64
		var loopN int64
		var first engine.Scene
		restart := func() (engine.Scene, error) { return blips(&scene), nil }
		first, _ = restart()
		rec := &engine.InputLog{}
		opts := &engine.Options{Headless: &engine.Headless{}, Record: rec, Keyframes: keyframes, Restart: restart,
			OnFinish: []engine.FinishHook{func(l *engine.Loop) { loopN = l.Stats().Sounds }},
			OnEvent: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
				switch {
				case !back && ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == 305:
					l.SetPaused(true)
				case !back && ev.Kind == engine.Input && l.Paused():
					back = true
					if err := l.Rewinder().Back(100); err != nil {
						t.Fatal(err)
					}
				case back && ev.Kind == engine.Input && l.Paused() && !l.Rewinder().Active():
					l.SetPaused(false)
				}
			}}}
		if err := engine.Run(first, opts); err != nil {
			t.Fatal(err)
		}
		// 30 sounds to tick 305, then the ticks 206-600 played again live: 40 more.
		if loopN != 70 {
			t.Errorf("keyframes %d: %d sounds counted, want 70 (30, then 40 from tick 206 on)", keyframes, loopN)
		}
		if s, l := runBlips(t, engine.Options{Replay: rec}); s != 60 || l != 60 {
			t.Errorf("keyframes %d: its replay: the scene took %d sounds, the loop counted %d; want 60, one a recorded tick", keyframes, s, l)
		}
	}
}

// wavFile returns a WAV file of pcm (16-bit stereo at SampleRate).
func wavFile(pcm []byte) []byte {
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + len(pcm)))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))
	le(uint16(2))
	le(uint32(sound.SampleRate))
	le(uint32(sound.SampleRate * 4))
	le(uint16(4))
	le(uint16(16))
	b.WriteString("data")
	le(uint32(len(pcm)))
	b.Write(pcm)
	return b.Bytes()
}

// Music: a WAV file streams, a file of another kind or none at all is an
// error that names it; a bank loads WAV sounds; headless, no music plays
// and Release stops nothing.
func TestMusicAndWAV(t *testing.T) {
	fsys := fstest.MapFS{"theme.wav": {Data: wavFile(sound.Tone(440, 0.2, 0.2))}, "theme.mp3": {Data: []byte("x")}}
	snd := sound.New(nil, sound.Bank{})
	if err := snd.MusicFile(fsys, "theme.wav"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"theme.mp3", "none.ogg"} {
		if err := snd.MusicFile(fsys, name); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("MusicFile(%s): %v", name, err)
		}
	}
	snd.Draw(nil, engine.Event{Kind: engine.Render}) // headless: nothing plays
	snd.Release()
	bank := sound.Bank{}
	if err := bank.LoadWAV(fsys, "beep", "theme.wav"); err != nil || len(bank["beep"]) != len(sound.Tone(440, 0.2, 0.2)) {
		t.Errorf("LoadWAV: %v, %d bytes", err, len(bank["beep"]))
	}
}
