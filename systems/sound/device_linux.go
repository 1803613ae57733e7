package sound

import (
	"errors"
	"os"
	"path/filepath"
)

// deviceMissing reports why the machine has no sound device ebiten's audio
// would open, nil when it may have one: a PulseAudio (or PipeWire) server's
// socket, or an ALSA playback device. ebiten tries both, and ends the game
// when both fail.
func deviceMissing() error {
	if os.Getenv("PULSE_SERVER") != "" {
		return nil
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "pulse", "native")); err == nil {
			return nil
		}
	}
	if pcms, _ := filepath.Glob("/dev/snd/pcmC*D*p"); len(pcms) > 0 {
		return nil
	}
	return errors.New("no PulseAudio server and no ALSA playback device in /dev/snd")
}
