package engine

import "time"

// LoopStats are the loop's counters, for an overlay or a summary.
type LoopStats struct {
	Frames   int64         // frames since the loop began
	GameTime time.Duration // game time of the current scene's timeline

	// Dropped is game time forgotten because frames reached
	// MaxUpdatesPerFrame under the Drop policy; Clamped is game time (real
	// time times the time scale, plus the carry of frame pacing) cut because
	// a frame would have added more than MaxDelta. Both over the loop's life,
	// both stopping at the largest time.Duration (a long stall at a huge time
	// scale reaches it) instead of wrapping around.
	Dropped, Clamped time.Duration

	// Owed is, under the Carry policy, the game time of the ticks due but not
	// yet run: from a group's last tick run to its last tick due (the most
	// behind group).
	Owed time.Duration

	// ClockBackwards counts frames whose clock read earlier than the frame
	// before. Real time is counted once: after a clock goes back, frames add
	// no game time until it passes the latest time it read.
	ClockBackwards int64

	// Sounds counts the sounds the game took (Loop.CountSound) over the
	// loop's life, played or not (a headless run plays none). A replay
	// takes those of the recorded ticks once each: a run that stepped back
	// and played on counts the ticks it played again twice, its replay once.
	Sounds int64

	// SimulatedAgain counts the ticks scenes simulated again on their own
	// (LoopSession.SimulateAgain): 0 under Options.SyncTest says no scene checked.
	SimulatedAgain int64
}
