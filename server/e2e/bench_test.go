package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/internal/cputime"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
	"github.com/fixedstep/fixedstep/server/match"
)

// noRecords runs BenchmarkServer's server with its matches storing no
// record for a resume (match.Options.NoRecords), to weigh what storing
// them costs.
var noRecords = flag.Bool("server.norecords", false, "BenchmarkServer: the server's matches store no record for a resume")

// benchSeconds is each measured match's length.
const benchSeconds = 20

// clockTick is /proc's unit of CPU time (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuOf returns the CPU time (user and system) process pid has used.
func cpuOf(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's closing parenthesis: state is the
	// 3rd field of the line, utime the 14th, stime the 15th.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(user+sys) * clockTick, nil
}

// benchSettings keep a measured match going for its whole length.
var benchSettings = map[string]string{"undying": "true"}

// sway is a blind client's input: right for a second, left for a second.
func sway(tick int64, in *input.State) {
	if tick/hz%2 == 0 {
		in.SetKey(input.KeyArrowRight, true)
	} else {
		in.SetKey(input.KeyArrowLeft, true)
	}
}

// BenchmarkServer measures what a Nakama server spends on matches of the
// demo's Arena: for 4, 16, 64 and 100 matches at once of two blind clients
// each (they send a scripted input and simulate nothing, so that their CPU
// is theirs alone), each playing benchSeconds, it reports the server process's CPU
// per match per second of play (server-ms/match-s) and the matches one
// core would run at 60 Hz (matches/core), the bytes a second each client
// received and sent, and the largest of the matches' p99s of the interval
// between two MatchLoop calls (Nakama's ticker: 16.7 ms when it keeps up)
// and of the simulation's tick; and the CPU this process's clients took
// (clients-ms/match-s: the machine is shared with them). Its baseline,
// "bare", runs the same game in this process, lockstep.Runner alone with no
// server: the CPU a match's simulation needs per second of play (this
// process's CPU time). Run with -benchtime 1x (an iteration is a whole set
// of matches): make bench-server.
func BenchmarkServer(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			start, ok := cputime.Process()
			if !ok {
				b.Skip("no process CPU time on this system")
			}
			scene, _, err := game.New(42, benchSettings)
			if err != nil {
				b.Fatal(err)
			}
			r, err := lockstep.New(scene, lockstep.Options{Players: 2})
			if err != nil {
				b.Fatal(err)
			}
			in := make([]input.State, 2)
			for tick := int64(1); tick <= benchSeconds*hz; tick++ {
				for p := range in {
					prev := in[p]
					in[p] = input.State{}
					sway(tick, &in[p])
					in[p].DeriveEdges(&prev)
				}
				if _, _, err := r.Step(in); err != nil {
					b.Fatal(err)
				}
			}
			r.Close()
			end, _ := cputime.Process()
			perMatchSecond := (end - start) / benchSeconds
			b.ReportMetric(float64(perMatchSecond)/1e6, "server-ms/match-s")
			b.ReportMetric(float64(time.Second)/float64(perMatchSecond), "matches/core")
		}
	})
	var srv *nakamatest.Server // one server for every count of matches: the parent's, stopped as it ends
	for _, matches := range []int{4, 16, 64, 100} {
		if srv == nil {
			var opts nakamatest.Options
			if *noRecords {
				opts.Args = []string{"--runtime.env", "fixedstep_records=off"}
			}
			srv = nakamatest.Start(b, opts)
		}
		b.Run(fmt.Sprint("matches=", matches), func(b *testing.B) {
			for b.Loop() {
				benchMatches(b, srv, matches)
			}
		})
	}
}

// benchMatches plays matches matches at once on srv and reports their
// figures.
func benchMatches(b *testing.B, srv *nakamatest.Server, matches int) {
	ctx := context.Background()
	type played struct {
		res   [2]client.Result
		stats match.Stats
		err   error
	}
	all := make([]played, matches)
	var ready, wg sync.WaitGroup
	var joined sync.WaitGroup
	ready.Add(1)
	joined.Add(matches)
	run := time.Now().UnixNano()
	for i := range matches {
		wg.Go(func() {
			p := &all[i]
			var ms [2]*client.Match
			var cs [2]*client.Client
			var err error
			defer func() { p.err = err }()
			for s := range cs {
				cs[s], err = client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: fmt.Sprintf("bench-%d-%d-%d", run, i, s)})
				if err != nil {
					joined.Done()
					return
				}
				defer cs[s].Close()
			}
			ready.Wait()
			id, err := cs[0].Create(ctx, game, match.Params{Players: 2, Seconds: benchSeconds, Seed: uint64(i + 1), Settings: benchSettings})
			if err != nil {
				joined.Done()
				return
			}
			for s := range cs {
				if ms[s], err = cs[s].Join(ctx, game, id); err != nil {
					joined.Done()
					return
				}
			}
			joined.Done()
			var pw sync.WaitGroup
			errs := make([]error, 2)
			for s := range ms {
				pw.Go(func() { p.res[s], errs[s] = ms[s].Play(ctx, client.Play{Blind: true, Script: sway}) })
			}
			pw.Wait()
			if err = errors.Join(errs...); err == nil {
				err = jsonStats(p.res[0].End.Stats, &p.stats)
			}
		})
	}
	ready.Done()
	joined.Wait()
	cpu0, err := cpuOf(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	own0, _ := cputime.Process()
	began := time.Now()
	wg.Wait()
	wall := time.Since(began)
	own1, _ := cputime.Process()
	cpu1, err := cpuOf(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	var in, out int64
	var interval, step float64
	for i, p := range all {
		if p.err != nil {
			b.Fatalf("match %d: %v", i+1, p.err)
		}
		for _, r := range p.res {
			in += r.BytesIn
			out += r.BytesOut
		}
		interval = math.Max(interval, p.stats.Loop.IntervalP99)
		step = math.Max(step, p.stats.Loop.StepP99Us)
	}
	perMatchSecond := float64(cpu1-cpu0) / float64(matches) / benchSeconds
	clients := float64(2 * matches)
	b.ReportMetric(perMatchSecond/1e6, "server-ms/match-s")
	b.ReportMetric(float64(time.Second)/perMatchSecond, "matches/core")
	b.ReportMetric(float64(own1-own0)/float64(matches)/benchSeconds/1e6, "clients-ms/match-s")
	b.ReportMetric(float64(in)/clients/benchSeconds, "B/s-in/client")
	b.ReportMetric(float64(out)/clients/benchSeconds, "B/s-out/client")
	b.ReportMetric(interval, "interval-p99-ms")
	b.ReportMetric(step, "step-p99-us")
	b.ReportMetric(wall.Seconds(), "wall-s")
}

// jsonStats decodes the server's stats a match's end carries.
func jsonStats(raw []byte, s *match.Stats) error {
	if err := json.Unmarshal(raw, s); err != nil {
		return fmt.Errorf("the match's end carries no stats (%q): %w", raw, err)
	}
	return nil
}
