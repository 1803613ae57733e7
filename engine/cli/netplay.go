package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netsim"
)

// Networked play from the command line: -host ADDR opens a session that
// -join ADDR joins as a player and -spectate ADDR as a spectator (package
// engine/netplay). The host's seed and settings (its recorded flags) are
// every peer's: a joiner takes them as a replay takes a recording's, but
// for the game's flags in App.PerPlayer, which each player sets for
// itself (an autopilot). A headless peer runs in real time: its ticks
// must keep pace with the others'.

// netFlags are the standard flags of networked play.
var netFlags = []standardFlag{
	{name: "host", value: func(a *App) any { return &a.host },
		usage: "host a networked game on this address (:7777, 127.0.0.1:7777): the other players -join it",
		check: func(a *App) error { return a.checkNet("host", a.host) }},
	{name: "join", value: func(a *App) any { return &a.join },
		usage: "join the networked game hosted at this address (host:7777) as a player: its seed and settings too",
		check: func(a *App) error { return a.checkNet("join", a.join) }},
	{name: "spectate", value: func(a *App) any { return &a.spectate },
		usage: "watch the networked game hosted at this address (host:7777) as it is played, from its start or joining it under way (it is simulated from its start, caught up)",
		check: func(a *App) error { return a.checkNet("spectate", a.spectate) }},
	{name: "players", value: func(a *App) any { return &a.players }, def: 2,
		usage: fmt.Sprintf("with -host: the players, the host included (2 to %d); with -server: the players of the match to find (1 to %d, default 1)", input.MaxPlayers, input.MaxPlayers),
		check: func(a *App) error {
			switch {
			case a.server != "" && (a.players < 1 || a.players > input.MaxPlayers):
				return &FlagError{"players", fmt.Sprint(a.players), fmt.Sprintf("must be 1 to %d", input.MaxPlayers)}
			case a.server == "" && (a.players < 2 || a.players > input.MaxPlayers):
				return &FlagError{"players", fmt.Sprint(a.players), fmt.Sprintf("must be 2 to %d", input.MaxPlayers)}
			case a.given("players") && a.host == "" && a.server == "":
				return &FlagError{"players", fmt.Sprint(a.players), "goes with -host (the host says how many play) or -server"}
			}
			return nil
		}},
	{name: "delay", value: func(a *App) any { return &a.delay }, def: netplay.DefaultDelay,
		usage: "with -host: the input delay in ticks: a press plays this many ticks later, and fewer are predicted",
		check: func(a *App) error {
			switch {
			case a.delay < 0 || a.delay > netplay.MaxDelay:
				return &FlagError{"delay", fmt.Sprint(a.delay), fmt.Sprintf("must be 0 to %d ticks", netplay.MaxDelay)}
			case a.given("delay") && a.host == "":
				return &FlagError{"delay", fmt.Sprint(a.delay), "goes with -host: the host sets the session's delay"}
			}
			return nil
		}},
	{name: "netsim", value: func(a *App) any { return &a.netLink },
		usage: "send this player's packets through a bad link: latency[,jitter[,loss[,duplicate[,reorder]]]] (80ms,10ms,2%)",
		check: func(a *App) error {
			if a.netLink == "" {
				return nil
			}
			if _, err := netsim.ParseLink(a.netLink); err != nil {
				return &FlagError{"netsim", a.netLink, err.Error()}
			}
			if a.host == "" && a.join == "" && a.spectate == "" {
				return &FlagError{"netsim", a.netLink, "goes with -host, -join or -spectate"}
			}
			return nil
		}},
}

// given reports whether the command line (or a recording's settings) set
// the flag named.
func (a *App) given(name string) bool {
	found := false
	a.flags.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// networked reports whether the run is networked.
func (a *App) networked() bool { return a.host != "" || a.join != "" || a.spectate != "" }

// checkNet refuses a networked run with what it cannot go with.
func (a *App) checkNet(flag, addr string) error {
	if addr == "" {
		return nil
	}
	n := 0
	for _, v := range []string{a.host, a.join, a.spectate} {
		if v != "" {
			n++
		}
	}
	switch {
	case n > 1:
		return &FlagError{flag, addr, "one of -host, -join and -spectate"}
	case a.replay != "":
		return &FlagError{flag, addr, "a replay's input is recorded: drop -replay (a networked run's recording replays alone)"}
	case a.load != "":
		return &FlagError{flag, addr, "every player starts from the first scene: drop -load"}
	case a.syncTest > 0:
		return &FlagError{flag, addr, "a networked run rolls back on its own: drop -synctest"}
	case a.save != "":
		return &FlagError{flag, addr, "a networked run's ticks may not be final when a save is due: -record the run, then save from its replay (-replay FILE -save ...)"}
	}
	return nil
}

// netConfig is the session's configuration from the flags.
func (a *App) netConfig(addr string) (netplay.Config, error) {
	g := a.game()
	cfg := netplay.Config{Addr: addr, Game: g.Name, Version: g.Version, Seed: a.seed, SeedGiven: a.given("seed"),
		Players: a.players, Delay: a.delay, DelayGiven: true, Log: a.errOut()}
	if a.netLink != "" {
		link, _ := netsim.ParseLink(a.netLink) // checked with the flags
		cfg.Link = &link
	}
	return cfg, nil
}

// joinSession joins the session of -join or -spectate, before the game
// builds its first scene: the host's seed and settings become the run's.
func (a *App) joinSession(ctx context.Context) (*netplay.Session, error) {
	addr, join := a.join, netplay.Join
	if a.spectate != "" {
		addr, join = a.spectate, netplay.Spectate
	}
	cfg, err := a.netConfig(addr)
	if err != nil {
		return nil, err
	}
	cfg.Settings = map[string]string{} // those given, for the host to check before it lets us join
	for name, value := range a.settings() {
		if a.given(name) && !slices.Contains(a.PerPlayer, name) {
			cfg.Settings[name] = value
		}
	}
	s, err := join(ctx, cfg)
	if err != nil {
		return nil, err
	}
	settings := maps.Clone(s.Settings())
	for name := range settings {
		if slices.Contains(a.PerPlayer, name) {
			delete(settings, name) // the host's own: ours stays
		}
	}
	if err := a.applySettings("join", addr, "session", settings); err != nil {
		s.Close()
		return nil, err
	}
	a.seed, a.local = s.Seed(), s.Player()
	return s, nil
}

// Player returns the local player's number in a networked run: 0 for the
// host (and a run of one player), 1 and up for a joiner, -1 for a
// spectator. It is known when the game's first scene is made.
func (a *App) Player() int { return a.local }

// hostSession opens the session of -host and waits for its players, once
// the game has built its first scene (its flags are then what the run
// uses: the session's settings).
func (a *App) hostSession(ctx context.Context) (*netplay.Session, error) {
	cfg, err := a.netConfig(a.host)
	if err != nil {
		return nil, err
	}
	cfg.Settings = a.settings()
	for _, name := range a.PerPlayer {
		delete(cfg.Settings, name)
	}
	cfg.Seed = a.seed
	return netplay.Host(ctx, cfg)
}

// netSummary is the summary's line of a networked run.
func netSummary(out io.Writer, s *netplay.Session, st engine.SessionStats, seconds float64) {
	ns := s.Stats()
	who := fmt.Sprintf("player %d of %d", s.Player()+1, s.Players())
	if s.Player() < 0 {
		who = fmt.Sprintf("a spectator of %d players", s.Players())
	}
	rate := func(n int64) string {
		if seconds <= 0 {
			return fmt.Sprintf("%d B", n)
		}
		return fmt.Sprintf("%.0f B/s", float64(n)/seconds)
	}
	caught := ""
	if st.CaughtUp > 0 { // a spectator that joined under way
		caught = fmt.Sprintf(", %d caught up", st.CaughtUp)
	}
	fmt.Fprintf(out, "netplay: %s, delay %d; %d rollbacks (%d ticks simulated again), %d frames held, %d waited%s; "+
		"sent %s, received %s; round trip %v; %d packets dropped\n",
		who, s.Delay(), st.Rollbacks, st.Resimulated, st.Held, st.Waited, caught, rate(ns.BytesSent), rate(ns.BytesReceived),
		ns.RTT, ns.DroppedTotal())
}

// writeDesync writes the worlds of a desync's two reports as text, this
// run's and the other player's, to desync-T-playerN.txt in the current
// folder (T the session's tick), and names them in the error.
func (a *App) writeDesync(de *netplay.DesyncError, local int) {
	for i, r := range []*engine.DesyncReport{de.Report, de.OtherReport} {
		if r == nil || len(r.Dump) == 0 {
			continue
		}
		player := local
		if i == 1 {
			player = de.Other
		}
		path := fmt.Sprintf("desync-%d-player%d.txt", de.Tick, player+1)
		if err := atomicfile.Write(path, r.Dump); err != nil {
			fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), err)
			continue
		}
		whose := "this machine's"
		if i == 1 {
			whose = fmt.Sprintf("player %d's", player+1)
		}
		de.Dumps = append(de.Dumps, fmt.Sprintf("%s (%s)", path, whose))
	}
}

// interrupted is err, or the InterruptedError of a signal that ended the
// wait for a session.
func (a *App) interrupted(sig os.Signal, err error) error {
	if sig != nil && errors.Is(err, context.Canceled) {
		return &InterruptedError{Signal: sig, Status: signalStatus(sig)}
	}
	return err
}
