package sound

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/hajimehoshi/ebiten/v2/audio"
	"github.com/hajimehoshi/ebiten/v2/audio/vorbis"
	"github.com/hajimehoshi/ebiten/v2/audio/wav"

	"github.com/fixedstep/fixedstep/engine/window"
)

// music is a scene's music: a source looped, its player made at the first
// frame drawn in a window.
type music struct {
	src    io.ReadSeeker
	length int64 // bytes of one pass
	player *audio.Player
}

// Music loops pcm (16-bit stereo at SampleRate) as the scene's music, from
// the first frame drawn in a window (none headless, muted or without a
// sound device) until Release. The music is no part of the game: a step
// back or a replay does not touch it.
func (s *System) Music(pcm []byte) {
	s.Release()
	s.music = &music{src: bytes.NewReader(pcm), length: int64(len(pcm))}
}

// MusicFile streams the Ogg Vorbis (.ogg) or WAV (.wav) file at name in
// fsys, looped, as the scene's music (see Music); it is decoded as it
// plays, not read whole into PCM.
func (s *System) MusicFile(fsys fs.FS, name string) error {
	f, err := fs.ReadFile(fsys, name) // the compressed file in memory; its samples are decoded as they play
	if err != nil {
		return fmt.Errorf("sound: %w", err)
	}
	var stream interface {
		io.ReadSeeker
		Length() int64
	}
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".ogg":
		stream, err = vorbis.DecodeWithSampleRate(SampleRate, bytes.NewReader(f))
	case ".wav":
		stream, err = wav.DecodeWithSampleRate(SampleRate, bytes.NewReader(f))
	default:
		return fmt.Errorf("sound: %s: music is .ogg or .wav, not %q", name, ext)
	}
	if err != nil {
		return fmt.Errorf("sound: %s: %w", name, err)
	}
	s.Release()
	s.music = &music{src: stream, length: stream.Length()}
	return nil
}

// Release stops the scene's music: call it when the scene ends (defer).
func (s *System) Release() {
	if s.music != nil && s.music.player != nil {
		s.music.player.Close()
	}
	s.music = nil
}

// playMusic starts the music at the first frame drawn in a window, and
// follows the window's volume and mute.
func (s *System) playMusic() {
	m := s.music
	if m.player == nil {
		ctx := audioContext()
		if ctx == nil {
			return
		}
		p, err := ctx.NewPlayer(audio.NewInfiniteLoop(m.src, m.length))
		if err != nil {
			return
		}
		m.player = p
		m.player.Play()
	}
	m.player.SetVolume(window.Volume())
	switch {
	case window.Muted() && m.player.IsPlaying():
		m.player.Pause()
	case !window.Muted() && !m.player.IsPlaying():
		m.player.Play()
	}
}
