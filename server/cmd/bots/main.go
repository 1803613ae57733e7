// Command bots plays matches of a game (-game arena, the demo's Arena, or
// rally) on a game server with headless
// clients: each client authenticates as a device of its own, the first of
// each match creates it, the others join, and every client's bot plays its
// seat while it checks the server's checksum at every tick.
//
//	go run ./cmd/bots -server http://127.0.0.1:7350 -game arena -matches 1 -players 2 -seconds 30
//
// It prints, per match, the ticks each client checked and the bytes a
// second it received and sent, and at the end the server's own figures for
// each match (sent with the match's end: its tick time, the interval
// between its ticks, what it refused). -blind clients do not simulate (a load test's: their CPU is not
// the server's); they send a scripted input instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/fixedstep/fixedstep/cmd/bounce/rally"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/server/match"
)

// served are the games a server of this module serves, by name.
var served = map[string]*lockstep.Game{arena.Spec.Name: &arena.Spec, rally.Spec.Name: &rally.Spec}

func main() {
	server := flag.String("server", "http://127.0.0.1:7350", "the server's HTTP API")
	key := flag.String("key", "defaultkey", "the server's socket key")
	name := flag.String("game", "arena", "the game: arena or rally")
	matches := flag.Int("matches", 1, "matches to play at once")
	players := flag.Int("players", 2, "players in each match (1 to 4)")
	seconds := flag.Int("seconds", 30, "each match's length")
	blind := flag.Bool("blind", false, "clients do not simulate or check; they send a scripted input")
	flag.Parse()
	game, ok := served[*name]
	if !ok {
		fmt.Fprintf(os.Stderr, "bots: no game %q: choose arena or rally\n", *name)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, game, *server, *key, *matches, *players, *seconds, *blind); err != nil {
		fmt.Fprintln(os.Stderr, "bots:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, game *lockstep.Game, server, key string, matches, players, seconds int, blind bool) error {
	run := time.Now().UnixNano()
	errs := make([]error, matches)
	var wg sync.WaitGroup
	for i := range matches {
		wg.Go(func() {
			errs[i] = playMatch(ctx, game, server, key, fmt.Sprintf("bots-%d-%d", run, i), players, seconds, blind)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// playMatch plays one match with players clients.
func playMatch(ctx context.Context, game *lockstep.Game, server, key, name string, players, seconds int, blind bool) error {
	clients := make([]*client.Client, players)
	for i := range clients {
		c, err := client.Dial(ctx, server, client.Options{ServerKey: key, Device: fmt.Sprintf("%s-%d", name, i)})
		if err != nil {
			return err
		}
		defer c.Close()
		clients[i] = c
	}
	id, err := clients[0].Create(ctx, game, match.Params{Players: players, Seconds: seconds})
	if err != nil {
		return err
	}
	results := make([]client.Result, players)
	errs := make([]error, players)
	var wg sync.WaitGroup
	for i, c := range clients {
		m, err := c.Join(ctx, game, id)
		if err != nil {
			return err
		}
		wg.Go(func() {
			opts := client.Play{Blind: blind}
			if blind {
				opts.Script = sway
			}
			results[i], errs[i] = m.Play(ctx, opts)
		})
	}
	wg.Wait()
	for i, r := range results {
		secs := r.Elapsed.Seconds()
		fmt.Printf("match %s player %d: %d ticks, %d checked, %d inputs sent (%d moved), in %.0f B/s, out %.0f B/s; ended: %s; err: %v\n",
			id, i+1, r.Ticks, r.Checked, r.Sent, r.Moved, float64(r.BytesIn)/secs, float64(r.BytesOut)/secs, r.End.Reason, errs[i])
	}
	fmt.Printf("match %s server: %s\n", id, results[0].End.Stats)
	return errors.Join(errs...)
}

// sway is a blind client's input: right for a second, left for a second.
func sway(tick int64, in *input.State) {
	if tick/60%2 == 0 {
		in.SetKey(input.KeyArrowRight, true)
	} else {
		in.SetKey(input.KeyArrowLeft, true)
	}
}
