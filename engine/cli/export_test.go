package cli

import (
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// CheckFlags parses args and checks them as Run does before anything
// runs (the flags' values, the files the run reads and writes), and runs
// nothing.
func (a *App) CheckFlags(args []string) error {
	a.newRun()
	if err := a.flags.Parse(args); err != nil {
		return err
	}
	return a.check()
}

// FrameProbe is the probe of the summary's frames line.
type FrameProbe = frameProbe

// Frame tells the probe of one frame: its Input event, then its drawing
// done after work.
func (p *FrameProbe) Frame(work time.Duration) {
	p.event(nil, engine.Event{Kind: engine.Input})
	time.Sleep(work)
	p.afterFrame(nil, engine.Event{Kind: engine.Render})
}

// Line is the probe's line in the summary.
func (p *FrameProbe) Line() string { return p.line() }
