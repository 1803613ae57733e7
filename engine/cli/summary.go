package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
)

// summarize prints what the run did, what its outputs measured, the
// recording (saved: where it is) or the replay, and last the state
// checksum. runErr is the error the run ended with, printed after.
func (r *Run) summarize(rec *engine.InputLog, o *outputs, saved string, runErr error) {
	a, replay, probe, memory := r.app, r.replay, o.probe, o.memory
	out := a.out()
	fmt.Fprintf(out, "run: %d scenes (%s), %d ticks\n", rec.Scenes(), sceneNames(rec), rec.Ticks())
	if s := a.run.loaded; s != nil && s.Loaded() {
		how := "the run to there simulated again"
		if s.StateRead() {
			how = "its state read, the scenes before it simulated again"
			if s.Scene == 1 {
				how = "its state read"
			}
		}
		fmt.Fprintf(out, "loaded the game saved after tick %d of scene %d (%s) from %s: %s, its sounds not taken\n",
			s.Tick, s.Scene, s.SceneName, a.f.load, how)
	} else if s != nil {
		why := "the run failed on the way (the error below)"
		if runErr == nil {
			why = "the run ended before it"
		}
		fmt.Fprintf(out, "the game saved after tick %d of scene %d (%s) in %s was not loaded: %s\n", s.Tick, s.Scene, s.SceneName, a.f.load, why)
	}
	if probe != nil {
		fmt.Fprintln(out, probe.line())
	}
	if line := memory.line(); line != "" {
		fmt.Fprintln(out, line)
	}
	if !a.Headless() {
		fmt.Fprintf(out, "window: %d frames, %d pipelined (their ticks ran while the frame before was presented)\n", r.stats.frames, r.stats.pipelined)
	}
	if line := o.frames.line(); line != "" {
		fmt.Fprintln(out, line)
	}
	if replay != nil {
		r := replay.Replayed()
		how := fmt.Sprintf("every checksum matched (%d checked)", r.Checked)
		var de *engine.DivergenceError
		var re *engine.ReplayError
		var se *engine.SessionFailedError
		switch {
		case errors.As(runErr, &se):
			how += ", up to where the recorded run's session ended it (the error below)"
		case errors.As(runErr, &de):
			how = fmt.Sprintf("%d checksums matched, then tick %d's differed (the error below)", r.Checked, de.Tick)
		case errors.As(runErr, &re):
			how += ", then the replay left the recording (the error below)"
		case runErr != nil:
			how += ", then the run failed (the error below)"
		case r.Ticks == 0 && !replay.Complete():
			how = "the recording was cut short before its first tick (a crash or a kill)"
		case !r.Finished:
			how += "; stopped before the recording's end"
		case !replay.Complete():
			how += "; the recording was cut short there (a crash or a kill)"
		}
		fmt.Fprintf(out, "replayed %d scenes, %d ticks, %s\n", r.Scenes, r.Ticks, how)
	}
	switch {
	case a.f.syncTest == 0 || runErr != nil:
	case r.stats.simulatedAgain == 0:
		fmt.Fprintln(out, "synctest: nothing checked: no scene simulated a tick again (scenes on stage.Stage run the check; see engine.LoopSession.SimulateAgain)")
	default:
		fmt.Fprintf(out, "synctest: every tick simulated again from %d ticks back, every state the same\n", a.f.syncTest)
	}
	if r.stats.sounds > 0 {
		fmt.Fprintf(out, "sounds: %d taken\n", r.stats.sounds)
	}
	if saved != "" {
		fmt.Fprintf(out, "recorded %d scenes, %d ticks to %s\n", rec.Scenes(), rec.Ticks(), saved)
	}
	if sum, ok := rec.RunChecksum(); ok {
		if runErr != nil {
			fmt.Fprintf(out, "checksum %016x of the state where the run failed (not a result: see the error)\n", sum)
		} else {
			fmt.Fprintf(out, "checksum %016x\n", sum)
		}
		return
	}
	if rec.Ticks() == 0 {
		fmt.Fprintln(out, "checksum none (no tick ran)")
		return
	}
	fmt.Fprintln(out, "checksum none (no scene gave the loop a state checksum: see Recording.SetChecksum)")
}

// sceneNames lists the names of the recording's scenes, in order: the
// first 6 and the last 3 when there are more than 10.
func sceneNames(rec *engine.InputLog) string {
	n := rec.Scenes()
	names := make([]string, 0, min(n, 10))
	for i := range n {
		if n > 10 && i == 6 {
			names = append(names, fmt.Sprintf("... %d more ...", n-9))
		}
		if n <= 10 || i < 6 || i >= n-3 {
			names = append(names, rec.Scene(i).Name)
		}
	}
	return strings.Join(names, ", ")
}
