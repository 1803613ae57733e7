package engine

import (
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/engine/internal/statefile"
)

// Openings for the tests in package engine_test.

// SetFocusPaused holds or releases game time as the window driver does when
// the window loses or regains focus under Window.PauseOnFocusLoss.
func (l *Loop) SetFocusPaused(p bool) { l.focusPaused = p }

// SetGameTime moves the current timeline's game time, for tests of its limit.
func (l *Loop) SetGameTime(t time.Duration) { l.gameTime = t }

// SetFlushEvery sets how much real time may pass between two writes of a
// recording to its file, and returns a func that restores it.
func SetFlushEvery(d time.Duration) func() {
	old := inputlog.FlushEvery
	inputlog.FlushEvery = d
	return func() { inputlog.FlushEvery = old }
}

// ResealChunks returns data with the CRC of every whole chunk recomputed,
// so that a fuzzer's changes to the records inside get past the checksum
// and reach the record parser.
func ResealChunks(data []byte) []byte { return inputlog.ResealChunks(data) }

// DamageChecksum changes the state checksum lg keeps for tick `tick` of
// its scene-th timeline (from 0), as damage inside a chunk whose own
// checksum was recomputed would; it reports whether it found one.
func DamageChecksum(lg *InputLog, scene int, tick int64) bool {
	checks := lg.log.Scenes[scene].Checks
	for i := range checks {
		if checks[i].Tick == tick {
			checks[i].Sum ^= 1
			return true
		}
	}
	return false
}

// UnchainedLog returns a log that records as InputLog does but keeps no
// run checksum: the baseline of BenchmarkRunChecksumOverhead.
func UnchainedLog() *InputLog {
	lg := &InputLog{}
	lg.log.Unchained = true
	return lg
}

// GrowRecording gives the current timeline of lg room for n more
// checksums and n bytes more of each input stream, so that recording them
// appends without growing a slice.
func GrowRecording(lg *InputLog, n int) {
	s := &lg.log.Scenes[len(lg.log.Scenes)-1]
	s.Checks = slices.Grow(s.Checks, n)
	for i := range s.Input {
		s.Input[i] = slices.Grow(s.Input[i], n)
	}
}

// WithoutState returns a copy of s that holds no scene state: a load of
// it simulates the save's scene again.
func WithoutState(s *Save) *Save {
	c := *s
	c.state = nil
	return &c
}

// ForgeState returns a copy of s whose scene state is what forge makes of
// a copy of it.
func ForgeState(s *Save, forge func([]byte) []byte) *Save {
	c := *s
	st := *s.state
	st.scene = forge(slices.Clone(st.scene))
	c.state = &st
	return &c
}

// ForgeStateName returns the state file with another scene name.
func ForgeStateName(file []byte, name string) []byte {
	meta, body, err := statefile.Parse(file)
	if err != nil {
		panic(err)
	}
	meta.SceneName = name
	b, err := statefile.Append(nil, meta, body)
	if err != nil {
		panic(err)
	}
	return b
}

// SaveDeterminism returns the determinism version a save's recording names.
func SaveDeterminism(s *Save) int { return s.log.determinism }
