package engine

import "github.com/fixedstep/fixedstep/engine/input"

// An InputSource fills in what is held down at the start of each frame: the
// devices in a window, a seeded autopilot or a script in headless runs. It sets
// held state only (SetKey, SetMouseButton, cursor, wheel, gamepads); the loop
// derives the edges. in arrives cleared. Sample must not allocate if the
// frame is to stay allocation-free.
type InputSource interface {
	Sample(frame int64, in *input.State)
}

// InputFunc adapts a function to an [InputSource].
type InputFunc func(frame int64, in *input.State)

// Sample calls f.
func (f InputFunc) Sample(frame int64, in *input.State) { f(frame, in) }
