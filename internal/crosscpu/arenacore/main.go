// Command arenacore plays the demo's Arena on the engine's simulation core
// alone (package scenes/arena: no graphics library, no display, no cgo),
// its player steered by the seeded autopilot, and records or replays the
// run. It is what the cross-CPU test builds for every CPU the engine
// supports, WebAssembly included, to replay one recording everywhere, and
// to write the state as bytes after tick 600 everywhere (their hash
// printed).
//
//	go run ./internal/crosscpu/arenacore -seconds 60 -record arena.input
//	go run ./internal/crosscpu/arenacore -replay arena.input
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/scenes/arena"
)

// stateTick is the tick after which the run writes the Arena's state as
// bytes (engine.Recording.AppendState) and prints their hash: the same
// bytes on every CPU.
const stateTick = 600

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "arenacore:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("arenacore", flag.ContinueOnError)
	seconds := fs.Float64("seconds", 60, "game seconds to play (a replay plays its recording's)")
	seed := fs.Uint64("seed", 1, "the random seed (a replay uses its recording's)")
	record := fs.String("record", "", "record the run to this file")
	replay := fs.String("replay", "", "replay this recording, checking the state every tick")
	detail := fs.Bool("detail", true, "record the bisector's detail: the state after every system")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := &engine.Options{Headless: &engine.Headless{}}
	if *replay != "" {
		lg, err := engine.LoadInputLog(*replay)
		if err != nil {
			return err
		}
		if *seconds, err = strconv.ParseFloat(lg.Settings["seconds"], 64); err != nil {
			return fmt.Errorf("%s: no run length in its settings: %w", *replay, err)
		}
		*seed, opts.Replay = lg.Seed, lg
	}
	if !(*seconds > 0 && *seconds <= arena.Limit.Seconds()) {
		return fmt.Errorf("-seconds %v: want a number of seconds above 0, at most %v", *seconds, arena.Limit.Seconds())
	}
	opts.StopAt = time.Duration(*seconds * float64(time.Second)) //detcheck:ok in (0, 60] seconds: checked above
	opts.Record = &engine.InputLog{Seed: *seed, Settings: map[string]string{"seconds": fmt.Sprint(*seconds)}, Detail: *detail}
	if *record != "" {
		if err := opts.Record.Create(*record); err != nil {
			return err
		}
	}
	var state engine.StateInfo
	var stateErr error
	opts.AfterUpdate = []engine.EventHook{func(loop *engine.Loop, ev engine.Event) {
		if ev.Group == 0 && ev.Tick == stateTick {
			f, err := loop.Recording().AppendState(nil)
			if err == nil {
				state, err = engine.ParseStateInfo(f)
			}
			stateErr = err
		}
	}}
	err := engine.Run(&arena.Scene{Options: arena.Options{Seed: *seed, Autopilot: true}}, opts)
	if err == nil {
		err = stateErr
	}
	if cerr := opts.Record.Close(); err == nil {
		err = cerr
	}
	fmt.Fprintf(out, "run: %d ticks\n", opts.Record.Ticks())
	if r := opts.Replay; r != nil {
		fmt.Fprintf(out, "replayed %d ticks, %d checksums matched, finished %v\n", r.Replayed().Ticks, r.Replayed().Checked, r.Replayed().Finished)
	}
	if state.Bytes > 0 {
		fmt.Fprintf(out, "state after tick %d: %d bytes, hash %016x\n", stateTick, state.Bytes, state.Hash)
	}
	if sum, ok := opts.Record.RunChecksum(); ok {
		fmt.Fprintf(out, "checksum %016x\n", sum)
	}
	return err
}
