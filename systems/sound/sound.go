// Package sound plays a game's sounds from its ticks: an update system asks
// for a sound on its tick (Play), and the sound system plays it when the
// frame is drawn, once. A sound asked for again on a tick the game passes
// a second time, while a step back re-runs it, while -synctest, a load or a
// networked run's rollback re-simulates it, is not played again. Once a
// step back ends, the ticks played on from there are the game's newest
// again, and take their sounds. A replay plays the sounds of the recorded
// ticks, once each, and the run's summary says how many
// (LoopStats.Sounds): as many as the run took, unless it stepped back and
// played ticks again. A
// headless run plays none (but counts them); a machine with no sound
// device plays silently after one warning line; the player's volume and
// mute are the window's (window.SetVolume: cli.App's -volume and -mute).
//
//	snd := sound.New(loop, sound.Bank{"jump": sound.Tone(660, 0.08, 0.4)})
//	st.Sched.AddRender(0, "sound", snd.Draw)
//	// in an update system, on the tick the hero jumps:
//	snd.Play(ev, "jump")
//	snd.Music(tune) // a loop of PCM, or MusicFile(assets, "theme.ogg"); defer snd.Release()
//
// Sounds are 16-bit stereo PCM at SampleRate (Tone makes one; LoadWAV
// reads a WAV file), played by ebiten's audio package.
package sound

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"sync"

	"github.com/hajimehoshi/ebiten/v2/audio"
	"github.com/hajimehoshi/ebiten/v2/audio/wav"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// SampleRate is the rate of every sound, samples a second.
const SampleRate = 44100

// Bank is a game's sounds by name: 16-bit little-endian stereo PCM at
// SampleRate.
type Bank map[string][]byte

// Tone returns a blip: a sine of freq Hz that lasts seconds, its volume
// falling from vol (0 to 1) to nothing.
func Tone(freq, seconds, vol float64) []byte {
	n := int(seconds * SampleRate)
	pcm := make([]byte, 4*n)
	for i := range n {
		env := vol * (1 - float64(i)/float64(n))
		v := int16(math.Sin(2*math.Pi*freq*float64(i)/SampleRate) * env * math.MaxInt16)
		for c := range 2 {
			pcm[4*i+2*c], pcm[4*i+2*c+1] = byte(v), byte(uint16(v)>>8)
		}
	}
	return pcm
}

// LoadWAV reads a WAV file at path in fsys (16-bit, any rate: resampled to
// SampleRate) into the bank as name.
func (b Bank) LoadWAV(fsys fs.FS, name, path string) error {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return fmt.Errorf("sound: %w", err)
	}
	s, err := wav.DecodeWithSampleRate(SampleRate, bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("sound: %s: %w", path, err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(s); err != nil {
		return fmt.Errorf("sound: %s: %w", path, err)
	}
	b[name] = buf.Bytes()
	return nil
}

// System plays a scene's sounds.
type System struct {
	loop   *engine.Loop
	bank   Bank
	queue  []string // sounds to play when the frame is drawn
	played int64
	music  *music // the scene's music, if any (music.go)
}

// New returns the sound system of a scene on loop, with its sounds.
func New(loop *engine.Loop, bank Bank) *System { return &System{loop: loop, bank: bank} }

// Play asks for sound name on the tick of ev (an Update event, from an
// update system). The sound is taken when the game runs the tick as its
// newest: not while a step back or a load re-runs ticks, nor when
// -synctest or a networked run's rollback simulates a tick again (a sound
// that only the tick simulated again asks for is not played either). A
// name the bank lacks panics: a programming error. It allocates nothing
// once the queue has grown.
//
// A contact handler (physics.Physics.OnCollide) gets no event: it notes
// what happened, and an update system scheduled after the physics asks for
// the sounds on the same tick (cmd/platformer's takeSounds).
func (s *System) Play(ev engine.Event, name string) {
	if _, ok := s.bank[name]; !ok {
		panic(fmt.Sprintf("sound: Play(%q): no such sound in the bank", name))
	}
	// The tick is the game's newest, not one simulated again (a rollback,
	// -synctest's second pass), and the loop is not re-running ticks (a
	// step back, a load).
	if ev.Kind != engine.Update || s.loop.Rewinder().Active() || s.loop.Session().Resimulating() || ev.Tick != s.loop.Ticks(ev.Group) {
		return
	}
	s.queue = append(s.queue, name)
	s.played++
	s.loop.CountSound()
}

// Played returns the number of sounds the scene took (headless too).
func (s *System) Played() int64 { return s.played }

// Draw plays the sounds taken since the last frame, and the music: a
// render system. A headless frame (no screen), a muted window or a machine
// without a sound device plays nothing. A frame without sounds allocates
// nothing; each sound played allocates what an ebiten audio player does.
func (s *System) Draw(_ donburi.World, ev engine.Event) {
	if s.music != nil && window.Screen(ev) != nil {
		s.playMusic()
	}
	if len(s.queue) == 0 {
		return
	}
	if window.Screen(ev) != nil && !window.Muted() {
		if ctx := audioContext(); ctx != nil {
			for _, name := range s.queue {
				p := ctx.NewPlayerFromBytes(s.bank[name])
				p.SetVolume(window.Volume())
				p.Play()
			}
		}
	}
	s.queue = s.queue[:0]
}

var (
	ctxOnce sync.Once
	ctx     *audio.Context
)

// audioContext returns the process's audio context, made at the first sound;
// nil, with one warning line, when the machine has no sound device (ebiten
// would end the game with the device's error).
func audioContext() *audio.Context {
	ctxOnce.Do(func() {
		if err := deviceMissing(); err != nil {
			fmt.Fprintf(os.Stderr, "sound: no sound device (%v): playing silently\n", err)
			return
		}
		if ctx = audio.CurrentContext(); ctx == nil {
			ctx = audio.NewContext(SampleRate)
		}
	})
	return ctx
}
