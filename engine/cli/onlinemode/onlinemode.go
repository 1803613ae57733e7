// Package onlinemode is online play from the command line, a mode a game
// on cli.App opts into (App.Modes): -server URL finds a match of the
// game (Mode.Game) for -players on that game server (Nakama with the
// project's plugin: make server), or makes one of -seconds, joins it,
// waits for its players, and plays it in the loop: every tick is the
// server's, run with the inputs the server ran it with and checked
// against its checksum (client.Session).
//
//	online := &onlinemode.Mode{Game: &arena.Spec}
//	app := &cli.App{Name: "demo", Modes: []cli.Mode{&netplaymode.Mode{}, online}}
//
// The match's seed, the player's seat and the match's settings are the
// run's (App.Seed, App.Player, Mode.Settings), as a joiner takes a
// host's. The run ends with the match; a summary line says how many ticks
// were checked. A server that sends nothing for client.DefaultSilence
// (30 s) ends the run with an error that says so (client.NoAnswerError);
// one that sends anything, a pong to the client's pings included, is
// waited for.
//
// -server URL -watch ID plays again a match the server kept when it ended
// (client.Kept, client.Replay): every tick with the server's inputs,
// checked against its checksum, to the match's last tick; with -record,
// the run's recording replays alone (-replay) as a player's would.
//
// -server-netsim LINK sends the connection to the server through a bad
// link (package engine/online/streamsim): a proxy on 127.0.0.1, in the
// run's process, forwards it to the server, both ways late by the link's
// latency and jitter, and stalled by its loss, as TCP's resends stall a
// stream (-server-netsim 50ms,10ms is a round trip of 100 ms ± 20 ms).
//
// The player's input is the loop's, as in any run: the devices, or the
// scene's engine.TickInput (an autopilot: the demo's -autopilot);
// headless without one, the player holds nothing (lockstep.Game's bot plays
// server/cmd/bots's clients, not the App's).
//
// It links the Nakama client (engine/online/client: websocket, protobuf),
// which a game that does not list it does not. In a browser (GOOS=js, the
// page cmd/web builds) -server plays as on a machine, the page's query
// string its flags (?server=http://127.0.0.1:7350&autopilot): the client
// reaches the server through the browser's fetch and WebSocket, and
// -server-netsim is refused, there being no connection of the page's own
// for its proxy to carry.
package onlinemode

import (
	"flag"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// Mode is online play, a cli.Mode. Use it by pointer, in one App.
type Mode struct {
	// Game is the game a game server plays (its name and version): -server
	// plays a match of it. Nil: -server is refused.
	Game *lockstep.Game

	// Silence is how long the client waits for a server that sends
	// nothing (client.Options.Silence); 0 means client.DefaultSilence.
	Silence time.Duration

	// FromState says that the game's first scene, made from a match's
	// settings, reads the server's state (engine.Options.FromState):
	// joining a match under way, the run begins from the server's state of
	// a recent tick and simulates the ticks since. The scene's simulation
	// must be the server's; what a window adds to it for drawing (the
	// entities' sprites, left out of its checksum with
	// stage.Options.Ignore) it gives the entities of the state read again
	// (core.Stage.OnRead). Without FromState, or with -record (a recording
	// holds a run from its first tick), the run simulates every tick from
	// the match's first (client.JoinTicks).
	FromState bool

	server, serverKey, device string
	watch                     string // -watch: a kept match's id
	predict                   bool   // -predict
	netLink                   string // -server-netsim
	fs                        *flag.FlagSet
	run                       *cli.Run
	match                     *match // the match played; nil: none
}

// Flags defines -server, -server-key, -device, -server-netsim, -watch
// and -players (unless another mode did); -server starts the mode.
func (m *Mode) Flags(fs *flag.FlagSet) []string {
	m.fs = fs
	fs.StringVar(&m.server, "server", "", "play an online match on this game server (http://127.0.0.1:7350: make server): one found or made for -players")
	fs.StringVar(&m.serverKey, "server-key", "defaultkey", "with -server: the server's socket key")
	fs.StringVar(&m.device, "device", "", "with -server: the device id the player signs in as (10 to 128 characters; default: a new one each run)")
	fs.StringVar(&m.netLink, "server-netsim", "", "with -server: send the connection to the server through a bad link, both ways, by a proxy on 127.0.0.1 "+
		"in this process: latency[,jitter[,loss[,stall]]] each way (50ms,10ms: a 100 ms round trip; a lost chunk stalls the stream, 200ms by default, as TCP's resend does)")
	fs.BoolVar(&m.predict, "predict", false, "with -server: run ahead of the server by the round trip, the player's input applied at once and the others' predicted, "+
		"rolling back where the server's ticks differ (client.Predicting)")
	fs.StringVar(&m.watch, "watch", "", "with -server: play again this match that the server kept when it ended, every tick checked against the server's checksum "+
		"(-record records it, for -replay)")
	usage := fmt.Sprintf("with -server: the players of the match to find (1 to %d, default 1)", input.MaxPlayers)
	if f := fs.Lookup("players"); f != nil { // another mode's too
		f.Usage += "; " + usage
	} else {
		fs.Int("players", 1, usage)
	}
	return []string{"server"}
}

// players is -players if given, else 1.
func (m *Mode) players(r *cli.Run) int {
	if !r.Given("players") {
		return 1
	}
	n, _ := strconv.Atoi(m.fs.Lookup("players").Value.String())
	return n
}

// Check refuses -server with what it cannot go with, and its flags
// without it.
func (m *Mode) Check(r *cli.Run) error {
	m.run = r
	if m.server == "" {
		for _, f := range []string{"server-key", "device", "server-netsim", "watch", "predict"} {
			if r.Given(f) {
				return &cli.FlagError{Flag: f, Reason: "goes with -server"}
			}
		}
		return nil
	}
	u, err := url.Parse(m.server)
	players := m.players(r)
	switch {
	case m.Game == nil:
		return &cli.FlagError{Flag: "server", Value: m.server, Reason: "this game has no online play"}
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return &cli.FlagError{Flag: "server", Value: m.server, Reason: "want the server's HTTP API, such as http://127.0.0.1:7350"}
	case r.Value("replay") != "":
		return &cli.FlagError{Flag: "server", Value: m.server, Reason: "a replay's input is recorded: drop -replay"}
	case r.Value("load") != "":
		return &cli.FlagError{Flag: "server", Value: m.server, Reason: "a match starts from the first scene: drop -load"}
	case r.Value("synctest") != "0":
		return &cli.FlagError{Flag: "server", Value: m.server, Reason: "drop -synctest: the server's ticks are final"}
	case r.Value("seats") != "":
		return &cli.FlagError{Flag: "seats", Value: r.Value("seats"), Reason: "a game server's match seats one player a machine: drop -seats"}
	case m.watch != "" && r.Given("players"):
		return &cli.FlagError{Flag: "players", Value: fmt.Sprint(players), Reason: "-watch plays a match that was: it has its players"}
	case m.watch != "" && m.predict:
		return &cli.FlagError{Flag: "predict", Reason: "-watch plays a match that was: there is nothing to predict"}
	case m.watch != "" && m.netLink != "":
		return &cli.FlagError{Flag: "server-netsim", Value: m.netLink, Reason: "-watch fetches a match once: there is no link to condition"}
	case players < 1 || players > input.MaxPlayers:
		return &cli.FlagError{Flag: "players", Value: fmt.Sprint(players), Reason: fmt.Sprintf("must be 1 to %d", input.MaxPlayers)}
	case m.device != "" && (len(m.device) < 10 || len(m.device) > 128):
		return &cli.FlagError{Flag: "device", Value: m.device, Reason: "must be 10 to 128 characters"}
	}
	if m.netLink != "" {
		if _, err := streamsim.ParseLink(m.netLink); err != nil {
			return &cli.FlagError{Flag: "server-netsim", Value: m.netLink, Reason: err.Error()}
		}
		if u.Scheme != "http" {
			return &cli.FlagError{Flag: "server-netsim", Value: m.netLink, Reason: "the proxy on 127.0.0.1 carries an http:// server's connection: " +
				"an https:// server's certificate does not name 127.0.0.1"}
		}
	}
	return nil
}

// Settings returns the settings of the match -server joined (the game's
// own, as the server's game reads them), nil in a run that is not online.
// A recording (and a save) of the match keeps them: a replay (or a load)
// of it returns them too, so that a game made from them replays the match
// it played. They are known when the game's first scene is made.
func (m *Mode) Settings() map[string]string {
	if m.run == nil {
		return nil
	}
	return m.run.Kept(keep)
}

// keep prefixes the match's settings among a recording's.
const keep = "server"

// Playing reports whether the run plays a match of a game server
// (-server), or one the server kept (-watch), once the game's first scene
// is being made.
func (m *Mode) Playing() bool { return m.match != nil }
