// Command bounce is a game on the engine's simulation core alone: no
// graphics library, no display, no cgo. It links what a game server, a bot
// farm or a batch verifier of recordings links (packages engine,
// engine/input and engine/state, with donburi and cp), and records and
// replays its runs as every game on the engine does.
//
// It plays rally (package rally beside it, the game a game server runs as
// an online match) with one player, its bot: it moves a paddle along the
// floor of a box under cp's gravity, keeping balls in the air; every ball
// that reaches the floor costs a life, and a round ends when the lives are
// gone, for the next one.
//
//	go run ./cmd/bounce -seconds 30 -record run.input   # a run, recorded; then:
//	go run ./cmd/bounce -replay run.input -fps 24        # the same run, checked tick by tick
//
// Both end with a summary and a "checksum X" line, the state checksum after
// the last tick: the same at any -fps, and the same for a recording and
// its replay.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/cmd/bounce/rally"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bounce:", err)
		os.Exit(1)
	}
}

// run plays (or replays) a run as args say and prints its summary to out.
func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bounce", flag.ContinueOnError)
	seconds := fs.Float64("seconds", 20, "game seconds to play (a replay plays its recording's)")
	seed := fs.Uint64("seed", 1, "the random seed (a replay uses its recording's)")
	fps := fs.Float64("fps", 60, "the virtual frame rate")
	record := fs.String("record", "", "record the run to this file")
	replay := fs.String("replay", "", "replay this recording, checking the state every tick")
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts := &engine.Options{Headless: &engine.Headless{FPS: *fps}}
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
	if !(*seconds > 0 && *seconds < 1e6) { // a recording's too
		return fmt.Errorf("-seconds %v: want a number of seconds above 0, below a million", *seconds)
	}
	opts.StopAt = time.Duration(*seconds * float64(time.Second)) //detcheck:ok in (0, 1e6) seconds: checked above
	opts.Record = &engine.InputLog{Seed: *seed, Settings: map[string]string{"seconds": fmt.Sprint(*seconds)}}
	if *record != "" {
		if err := opts.Record.Create(*record); err != nil {
			return err
		}
	}
	// The bot plays seat 0. It is asked before each tick runs, from the
	// state the tick before left, so it plays the same at any frame rate;
	// its input is recorded like a player's.
	g := &rally.Game{Seed: *seed}
	opts.TickInput = engine.TickInputFunc(func(_ engine.TickInfo, in *input.State) { rally.Bot(g.World(), 0, in) })
	err := engine.Run(g.First(), opts)
	if cerr := opts.Record.Close(); err == nil {
		err = cerr
	}
	summarize(out, opts.Record, opts.Replay, *record)
	return err
}

// summarize prints the scenes and ticks run, the replay and the recording,
// and last the state checksum after the last tick checked.
func summarize(out io.Writer, rec, replay *engine.InputLog, path string) {
	names := make([]string, rec.Scenes())
	for i := range names {
		names[i] = rec.Scene(i).Name
	}
	fmt.Fprintf(out, "run: %d scenes (%s), %d ticks\n", rec.Scenes(), strings.Join(names, ", "), rec.Ticks())
	if replay != nil {
		r := replay.Replayed()
		fmt.Fprintf(out, "replayed %d scenes, %d ticks, %d checksums matched, finished %v\n", r.Scenes, r.Ticks, r.Checked, r.Finished)
	}
	if path != "" {
		fmt.Fprintf(out, "recorded %d scenes, %d ticks to %s\n", rec.Scenes(), rec.Ticks(), path)
	}
	for i := rec.Scenes() - 1; i >= 0; i-- {
		if s := rec.Scene(i); s.Checks > 0 {
			fmt.Fprintf(out, "checksum %016x\n", s.Checksum)
			return
		}
	}
	fmt.Fprintln(out, errors.New("checksum none"))
}
