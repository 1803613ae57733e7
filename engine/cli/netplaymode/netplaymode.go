// Package netplaymode is networked play from the command line, a mode a
// game on cli.App opts into (App.Modes): -host ADDR opens a session that
// -join ADDR joins as a player and -spectate ADDR as a spectator (package
// engine/netplay), for -players N (the host included) with an input delay
// of -delay N ticks; -netsim LINK sends this player's packets through a bad
// link (package engine/netsim).
//
//	app := &cli.App{Name: "breakout", Modes: []cli.Mode{&netplaymode.Mode{}}}
//
// The host's seed and settings (its recorded flags) are every peer's: a
// joiner takes them as a replay takes a recording's, but for the game's
// flags in App.PerPlayer, which each player sets for itself (an
// autopilot). A player who left a session under way takes its seat back
// with -join, while the host's -seat-wait lasts, and a spectator may join
// under way: each begins from the host's state, or with -record from the
// first tick, simulating the session so far, so that the recording holds
// it whole. A headless peer runs in real time: its ticks must keep pace
// with the others'. The run ends with a line of the session's figures; a
// desync writes both players' worlds at the tick to
// desync-T-playerN.txt and names them in its error.
package netplaymode

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// DefaultSeatWait is -seat-wait's default: how long a player's seat waits
// for it to join again.
const DefaultSeatWait = 30 * time.Second

// Mode is networked play, a cli.Mode: its zero value is ready to list in
// App.Modes. Use it by pointer, in one App.
type Mode struct {
	host, join, spectate string
	netLink              string // -netsim
	delay                int
	timeout              time.Duration // -peer-timeout
	seatWait             time.Duration // -seat-wait
	fs                   *flag.FlagSet
	session              *netplay.Session
}

// Flags defines -host, -join, -spectate, -players, -delay, -peer-timeout,
// -seat-wait and -netsim; the first three start the mode.
func (m *Mode) Flags(fs *flag.FlagSet) []string {
	m.fs = fs
	fs.StringVar(&m.host, "host", "", "host a networked game on this address (:7777, 127.0.0.1:7777): the other players -join it")
	fs.StringVar(&m.join, "join", "", "join the networked game hosted at this address (host:7777) as a player: its seed and settings too")
	fs.StringVar(&m.spectate, "spectate", "", "watch the networked game hosted at this address (host:7777) as it is played, "+
		"from its start or joining it under way (it is simulated from its start, caught up)")
	usage := fmt.Sprintf("with -host: the players, the host included (2 to %d)", input.MaxPlayers)
	if f := fs.Lookup("players"); f != nil { // another mode's too
		f.Usage = usage + "; " + f.Usage
	} else {
		fs.Int("players", 2, usage)
	}
	fs.IntVar(&m.delay, "delay", netplay.DefaultDelay, "with -host: the input delay in ticks: a press plays this many ticks later, and fewer are predicted")
	fs.DurationVar(&m.timeout, "peer-timeout", netplay.DefaultTimeout, "how long a peer may be silent before it has left "+
		"(a longer one waits out a machine that stalls; a shorter one notices a crash sooner)")
	fs.DurationVar(&m.seatWait, "seat-wait", DefaultSeatWait, "with -host: how long a player's seat waits for it once it left, "+
		"the others playing on, its input empty, for it to -join again (0: a player who leaves ends the game)")
	fs.StringVar(&m.netLink, "netsim", "", "send this player's packets through a bad link: latency[,jitter[,loss[,duplicate[,reorder]]]] (80ms,10ms,2%)")
	return []string{"host", "join", "spectate"}
}

// players is -players, whichever mode defined it.
func (m *Mode) players() int {
	n, _ := strconv.Atoi(m.fs.Lookup("players").Value.String())
	return n
}

// desyncNames are the files a desync writes in the current folder.
var desyncNames = regexp.MustCompile(`^desync-[0-9]+-player[0-9]+\.txt$`)

// Check refuses a networked run with what it cannot go with, and the
// mode's flags without it.
func (m *Mode) Check(r *cli.Run) error {
	flag, addr := "host", m.host
	switch {
	case m.join != "":
		flag, addr = "join", m.join
	case m.spectate != "":
		flag, addr = "spectate", m.spectate
	}
	mine := r.Started() == cli.Mode(m)
	players := m.players()
	switch {
	case (mine || r.Started() == nil) && (players < 2 || players > input.MaxPlayers):
		return &cli.FlagError{Flag: "players", Value: fmt.Sprint(players), Reason: fmt.Sprintf("must be 2 to %d", input.MaxPlayers)}
	case (mine || r.Started() == nil) && r.Given("players") && m.host == "":
		return &cli.FlagError{Flag: "players", Value: fmt.Sprint(players), Reason: "goes with -host: the host says how many play"}
	case m.delay < 0 || m.delay > netplay.MaxDelay:
		return &cli.FlagError{Flag: "delay", Value: fmt.Sprint(m.delay), Reason: fmt.Sprintf("must be 0 to %d ticks", netplay.MaxDelay)}
	case r.Given("delay") && m.host == "":
		return &cli.FlagError{Flag: "delay", Value: fmt.Sprint(m.delay), Reason: "goes with -host: the host sets the session's delay"}
	case m.timeout < 100*time.Millisecond || m.timeout > time.Hour:
		return &cli.FlagError{Flag: "peer-timeout", Value: m.timeout.String(), Reason: "must be 100ms to 1h"}
	case m.seatWait < 0 || m.seatWait > time.Hour:
		return &cli.FlagError{Flag: "seat-wait", Value: m.seatWait.String(), Reason: "must be 0 to 1h"}
	case r.Given("seat-wait") && m.host == "":
		return &cli.FlagError{Flag: "seat-wait", Value: m.seatWait.String(), Reason: "goes with -host: the host keeps the seats"}
	case r.Given("peer-timeout") && !mine:
		return &cli.FlagError{Flag: "peer-timeout", Value: m.timeout.String(), Reason: "goes with -host, -join or -spectate"}
	}
	if m.netLink != "" {
		if _, err := netsim.ParseLink(m.netLink); err != nil {
			return &cli.FlagError{Flag: "netsim", Value: m.netLink, Reason: err.Error()}
		}
		if !mine {
			return &cli.FlagError{Flag: "netsim", Value: m.netLink, Reason: "goes with -host, -join or -spectate"}
		}
	}
	if !mine {
		return nil
	}
	if err := r.WritesNamed(flag, addr, desyncNames, "desync-T-playerN.txt"); err != nil { // where a desync writes both players' worlds
		return err
	}
	switch {
	case r.Value("replay") != "":
		return &cli.FlagError{Flag: flag, Value: addr, Reason: "a replay's input is recorded: drop -replay (a networked run's recording replays alone)"}
	case r.Value("load") != "":
		return &cli.FlagError{Flag: flag, Value: addr, Reason: "every player starts from the first scene: drop -load"}
	case r.Value("synctest") != "0":
		return &cli.FlagError{Flag: flag, Value: addr, Reason: "a networked run rolls back on its own: drop -synctest"}
	case r.Value("save") != "":
		return &cli.FlagError{Flag: flag, Value: addr, Reason: "a networked run's ticks may not be final when a save is due: " +
			"-record the run, then save from its replay (-replay FILE -save ...)"}
	}
	return nil
}

// config is the session's configuration from the flags.
func (m *Mode) config(r *cli.Run, addr string) netplay.Config {
	g := r.Game()
	cfg := netplay.Config{Addr: addr, Game: g.Name, Version: g.Version, Seed: r.App().Seed(), SeedGiven: r.Given("seed"),
		Players: m.players(), Delay: m.delay, DelayGiven: true, Timeout: m.timeout, Log: r.Log()}
	if m.netLink != "" {
		link, _ := netsim.ParseLink(m.netLink) // checked with the flags
		cfg.Link = &link
	}
	return cfg
}

// Start joins the session of -join or -spectate before the game makes its
// first scene (the host's seed and settings become the run's), or opens
// -host's and waits for its players after (the game's flags are then the
// session's settings).
func (m *Mode) Start(ctx context.Context, r *cli.Run, at cli.Stage) (engine.Session, error) {
	switch {
	case at == cli.BeforeFirst && (m.join != "" || m.spectate != ""):
		return m.joinSession(ctx, r)
	case at == cli.AfterFirst && m.host != "":
		cfg := m.config(r, m.host)
		cfg.Settings, cfg.SeatWait = r.Shared(), m.seatWait
		s, err := netplay.Host(ctx, cfg)
		if err != nil {
			return nil, err
		}
		m.session = s
		return s, nil
	}
	return nil, nil
}

// joinSession joins -join's or -spectate's session: the host's seed and
// settings become the run's.
func (m *Mode) joinSession(ctx context.Context, r *cli.Run) (engine.Session, error) {
	flag, addr, join := "join", m.join, netplay.Join
	if m.spectate != "" {
		flag, addr, join = "spectate", m.spectate, netplay.Spectate
	}
	cfg := m.config(r, addr)
	cfg.FromFirstTick = r.Value("record") != "" // joined under way, the recording holds the session from its start
	cfg.Settings = map[string]string{}          // those given, for the host to check before it lets us join
	for name, value := range r.Shared() {
		if r.Given(name) {
			cfg.Settings[name] = value
		}
	}
	s, err := join(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := r.Adopt(cli.Joined{Flag: flag, Addr: addr, Seed: s.Seed(), Player: s.Player(), Settings: s.Settings(), State: s.State()}); err != nil {
		s.Close()
		return nil, err
	}
	m.session = s
	return s, nil
}

// End tells the other players why this run leaves (it quit, or failed),
// closes the session, and writes a desync's worlds.
func (m *Mode) End(r *cli.Run, err error) error {
	s := m.session
	switch {
	case r.Quit():
		s.Quit()
	case err != nil:
		s.Fail(err)
	}
	if cerr := s.Close(); err == nil && cerr != nil && !r.Interrupted() {
		err = cerr
	}
	if de := (*netplay.DesyncError)(nil); errors.As(err, &de) {
		writeDesync(r, de, s.Player())
	}
	return err
}

// Summary is the summary's line of a networked run.
func (m *Mode) Summary(r *cli.Run, out io.Writer) {
	s, st, seconds := m.session, r.SessionStats(), r.Elapsed().Seconds()
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
		"sent %s, received %s; round trip %v; %d packets dropped%s\n",
		who, s.Delay(), st.Rollbacks, st.Resimulated, st.Held, st.Waited, caught, rate(ns.BytesSent), rate(ns.BytesReceived),
		ns.RTT, ns.DroppedTotal(), dropped(&ns))
}

// dropped names why packets were dropped, " (2 stale, 1 stranger)", or
// says nothing when none were: a stale packet (a duplicate, or one that
// came late) and a stranger's (a peer's after it left) are ordinary on a
// real link; the others are damaged or forged bytes, or a peer too fast.
func dropped(ns *netplay.Stats) string {
	var b strings.Builder
	for i, reason := range netplay.DropReasons() {
		if n := ns.Dropped[i]; n > 0 {
			if b.Len() == 0 {
				b.WriteString(" (")
			} else {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d %s", n, reason)
		}
	}
	if b.Len() > 0 {
		b.WriteString(")")
	}
	return b.String()
}

// writeDesync writes the worlds of a desync's two reports as text, this
// run's and the other player's, to desync-T-playerN.txt in the current
// folder (T the session's tick), and names them in the error.
func writeDesync(r *cli.Run, de *netplay.DesyncError, local int) {
	for i, rep := range []*engine.DesyncReport{de.Report, de.OtherReport} {
		if rep == nil || len(rep.Dump) == 0 {
			continue
		}
		player := local
		if i == 1 {
			player = de.Other
		}
		path := fmt.Sprintf("desync-%d-player%d.txt", de.Tick, player+1)
		if err := atomicfile.Write(path, rep.Dump); err != nil {
			fmt.Fprintf(r.Log(), "%s: %v\n", r.Game().Name, err)
			continue
		}
		whose := "this machine's"
		if i == 1 {
			whose = fmt.Sprintf("player %d's", player+1)
		}
		de.Dumps = append(de.Dumps, fmt.Sprintf("%s (%s)", path, whose))
	}
}
