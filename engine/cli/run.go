package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
)

// The steps of App.Run, in the order it takes them.

// newRun begins a run of the App: its summary goes through a writer that
// keeps the first error.
func (a *App) newRun() *Run {
	a.Flags()
	r := &Run{app: a, signalled: func() os.Signal { return nil }}
	r.out = &errWriter{w: a.out()}
	a.run = r
	return r
}

// settle parses args and merges into the flags the settings of -replay's
// recording and -load's save, then checks them all: before the game reads
// them, and before anything connects or is written. A file the run would
// both write and read is refused before it is read.
func (r *Run) settle(args []string) error {
	a := r.app
	a.flags.SetOutput(a.errOut())
	if err := a.flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &FlagError{Reason: err.Error()}
	}
	if a.flags.NArg() > 0 {
		return &FlagError{Reason: fmt.Sprintf("unexpected argument %q (flags only: -h lists them)", a.flags.Arg(0))}
	}
	if err := a.checkFiles(); err != nil {
		return err
	}
	if a.f.replay != "" {
		replay, err := engine.LoadInputLog(a.f.replay)
		if err != nil {
			return err
		}
		if err := a.applySettings("replay", a.f.replay, "recording", replay.Settings); err != nil {
			return err
		}
		r.replay, a.f.seed = replay, replay.Seed
	}
	if a.f.load != "" && a.f.replay == "" { // both: the check refuses them
		save, err := a.loadSave()
		if err != nil {
			return err
		}
		r.loaded = save
	}
	return a.check()
}

// summarized reports whether the run ends with a summary: a run that is
// headless, records, replays or has -seconds.
func (r *Run) summarized() bool {
	f := &r.app.f
	return r.app.Headless() || f.record != "" || f.replay != "" || f.seconds > 0
}

// options are the loop's options for the run: its settings, the mode's
// session, and a recording. The run is recorded in memory (or to
// -record's file), for its summary, for saves and for rewinds
// (Rewinder.Back simulates again from the recording, from a keyframe or
// from a fresh first scene). A run with no summary keeps no state
// checksum.
func (r *Run) options(ctx context.Context, first func() (engine.Scene, error)) *engine.Options {
	a := r.app
	opts := &engine.Options{Config: a.Config, Context: ctx, Replay: r.replay, Load: r.loaded, Game: a.game(),
		SyncTest: a.f.syncTest, Restart: first}
	if !r.endsRun { // else the session ends the run: a match's length is its server's
		opts.StopAt = time.Duration(a.f.seconds * float64(time.Second))
	}
	opts.Record = &engine.InputLog{Seed: a.f.seed, Settings: a.settings(), Detail: a.f.detail}
	if r.session != nil {
		opts.Session, opts.SparseSaving = r.session, a.SparseSaving
		opts.Record.Players = r.session.Players()
	}
	if r.fromState != nil { // no recording from the start: Options.Record stays empty, the loop's is none
		// The mode checked the state's game against its own (a server's
		// game is named as the server names it, not as the App).
		info, _ := engine.ParseStateInfo(r.fromState)
		opts.FromState, opts.Game = r.fromState, info.Game
	}
	switch {
	case a.Headless(): // a networked run keeps pace with the others': in real time
		opts.Headless = &engine.Headless{FPS: a.f.fps, Realtime: a.f.realtime || r.session != nil}
	case r.session == nil: // a networked run does not pause, so never steps back
		opts.Keyframes = a.f.keyframes // a step back (the dev keys' comma) in constant time
	}
	if !r.summarized() {
		opts.Record.ChecksumEvery = engine.NoChecksums // nothing reads them: no full hash in a tick
	}
	opts.OnFinish = append(opts.OnFinish, func(l *engine.Loop) {
		st := l.Stats()
		r.stats.sounds, r.stats.frames, r.stats.simulatedAgain, r.stats.session = st.Sounds, st.Frames, st.SimulatedAgain, l.Session().Stats()
	})
	return opts
}

// outputs are what the flags ask a run to save and measure as it runs,
// each hooked to the loop.
type outputs struct {
	shot   screenshotFlag
	dumps  stateDumps
	saving savePoint
	memory *memoryProbe   // -memory's; nil without
	probe  *realtimeProbe // -realtime's; nil without
	frames *frameProbe    // a summarized real-clock run's (a window, -realtime); nil else
}

// outputs hooks what the flags ask to the loop's options.
func (r *Run) outputs(opts *engine.Options) *outputs {
	a := r.app
	o := &outputs{saving: savePoint{path: a.f.save}, dumps: stateDumps{again: "-replay FILE"}}
	if a.f.load != "" {
		o.dumps.again = "-load FILE" // a save's recording runs again through a load, not a replay
	}
	if a.f.shot != "" {
		o.shot = screenshotFlag{path: a.f.shot, frame: a.f.frames}
		if a.f.shotAt != "" {
			o.shot.scene, o.shot.tick, _ = parseSceneTick(a.f.shotAt)
		}
		opts.AfterFrame = append(opts.AfterFrame, o.shot.afterFrame)
	}
	opts.OnDivergence = o.dumps.diverged
	if a.f.dumpAt != "" {
		o.dumps.scene, o.dumps.tick, _ = parseSceneTick(a.f.dumpAt)
		opts.AfterUpdate = append(opts.AfterUpdate, o.dumps.afterUpdate)
	}
	if a.f.save != "" {
		o.saving.scene, o.saving.tick, _ = parseSceneTick(a.f.saveAt)
		opts.AfterUpdate = append(opts.AfterUpdate, o.saving.afterUpdate)
	}
	if a.f.memory {
		o.memory = newMemoryProbe()
		opts.OnEvent = append(opts.OnEvent, o.memory.event)
		opts.OnFinish = append(opts.OnFinish, o.memory.finish)
	}
	if a.f.realtime {
		o.probe = newRealtimeProbe(a.f.seconds)
		opts.OnEvent = append(opts.OnEvent, o.probe.event)
	}
	if (a.f.realtime || !a.Headless()) && r.summarized() { // a real clock's frames, for the summary
		o.frames = &frameProbe{}
		opts.OnEvent = append(opts.OnEvent, o.frames.event)
		opts.AfterFrame = append(opts.AfterFrame, o.frames.afterFrame)
	}
	return o
}

// play runs the scene chain, in the window or headless, then ends the
// mode's session; it returns the run's error. A signal ends the run
// without one.
func (r *Run) play(scene engine.Scene, opts *engine.Options) error {
	a := r.app
	window.SetVolume(a.f.volume)
	window.SetMuted(a.f.mute)
	r.began = time.Now()
	var err error
	if a.Headless() {
		err = engine.Run(scene, opts)
	} else {
		win := a.Window
		win.Serial = win.Serial || a.f.serial
		err = window.Run(scene, opts, &win)
		r.stats.pipelined = window.PipelinedFrames()
	}
	if r.Interrupted() && errors.Is(err, context.Canceled) {
		err = nil
	}
	return r.endMode(err)
}

// finish closes the recording, says what the outputs made of the run, the
// mode's lines and the summary, and returns the run's error: runErr,
// else an output's, else the recording's, else the signal's.
func (r *Run) finish(rec *engine.InputLog, o *outputs, runErr error) error {
	a := r.app
	if o.probe != nil {
		o.probe.interrupted = r.Interrupted()
	}
	saved, saveErr := a.closeRecording(rec, runErr != nil)
	if runErr == nil && o.shot.path != "" {
		runErr = o.shot.result()
	}
	if runErr == nil && a.f.dumpAt != "" {
		runErr = o.dumps.result()
	}
	if runErr == nil && a.f.save != "" {
		runErr = o.saving.result(a.out())
	}
	if r.session != nil {
		r.mode.Summary(r, a.out())
	}
	switch {
	case r.fromState != nil && r.summarized():
		info, _ := engine.ParseStateInfo(r.fromState) // the run read it
		at := fmt.Sprint(info.Tick)
		if info.Scene > 1 {
			at = fmt.Sprintf("%d of its scene %d %q, the match's tick %d", info.Tick, info.Scene, info.SceneName, info.Before+info.Tick)
		}
		fmt.Fprintf(a.out(), "run: begun from the match's state after tick %s (%d bytes), so not recorded\n", at, len(r.fromState))
	case r.summarized() && (runErr == nil || rec.Scenes() > 0): // no summary of a run that never began
		r.summarize(rec, o, saved, runErr)
	}
	if de := o.dumps.divergence; de != nil && de.Dump != "" && !errors.Is(runErr, de) { // the run failed first: the file is named here
		fmt.Fprintf(a.out(), "the replay diverged at tick %d of scene %d too: the replayed world there is in %s\n", de.Tick, de.Scene, de.Dump)
	}
	if o.dumps.divergedErr != nil { // the run fails with the divergence: this is said beside it
		fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), o.dumps.divergedErr)
	}
	switch sig := r.signalled(); {
	case runErr != nil:
		return runErr
	case saveErr != nil:
		return saveErr
	case sig != nil:
		return &InterruptedError{Signal: sig, Status: signalStatus(sig)}
	}
	return nil
}

// close ends a run: the mode's session if the run failed before it
// played, and the summary, whose writes' first error (a full disk) is the
// run's error.
func (r *Run) close(err error) error {
	err = r.endMode(err)
	if werr := r.out.err; werr != nil {
		err = r.app.also(err, fmt.Errorf("the run's summary was not all written: %w", werr))
	}
	r.out = nil
	return err
}
