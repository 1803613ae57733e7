package cli

import "net/url"

// Online play from the command line: -server URL finds a match of the
// game (App.Online) for -players on that game server (Nakama with the
// project's plugin: make server), or makes one of -seconds, joins it, waits
// for its players, and plays it in the loop: every tick is the server's,
// run with the inputs the server ran it with and checked against its
// checksum (client.Session). The match's seed, the player's seat and the
// match's settings are the run's (App.Player, App.Seed,
// App.ServerSettings), as a joiner takes a host's. The run ends with the
// match; a summary line says how many ticks were checked. A server that
// sends nothing for client.DefaultSilence (30 s) ends the run with an
// error that says so (client.NoAnswerError); one that sends anything, a
// pong to the client's pings included, is waited for.

var onlineFlags = []standardFlag{
	{name: "server", value: func(a *App) any { return &a.server },
		usage: "play an online match on this game server (http://127.0.0.1:7350: make server): one found or made for -players",
		check: func(a *App) error { return a.checkServer() }},
	{name: "server-key", value: func(a *App) any { return &a.serverKey }, def: "defaultkey",
		usage: "with -server: the server's socket key"},
	{name: "device", value: func(a *App) any { return &a.device },
		usage: "with -server: the device id the player signs in as (10 to 128 characters; default: a new one each run)"},
}

// checkServer refuses -server with what it cannot go with.
func (a *App) checkServer() error {
	if a.server == "" {
		for _, f := range []string{"server-key", "device"} {
			if a.given(f) {
				return &FlagError{f, "", "goes with -server"}
			}
		}
		return nil
	}
	u, err := url.Parse(a.server)
	switch {
	case a.Online == nil:
		return &FlagError{"server", a.server, "this game has no online play"}
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return &FlagError{"server", a.server, "want the server's HTTP API, such as http://127.0.0.1:7350"}
	case a.networked():
		return &FlagError{"server", a.server, "one of -server, -host, -join and -spectate"}
	case a.replay != "":
		return &FlagError{"server", a.server, "a replay's input is recorded: drop -replay"}
	case a.load != "":
		return &FlagError{"server", a.server, "a match starts from the first scene: drop -load"}
	case a.syncTest > 0:
		return &FlagError{"server", a.server, "drop -synctest: the server's ticks are final"}
	case a.device != "" && (len(a.device) < 10 || len(a.device) > 128):
		return &FlagError{"device", a.device, "must be 10 to 128 characters"}
	}
	return nil
}

// ServerSettings returns the settings of the match -server joined (the
// game's own, as the server's game reads them), nil in a run that is not
// online. A recording (and a save) of the match keeps them: a replay (or
// a load) of it returns them too, so that a game made from them replays
// the match it played.
func (a *App) ServerSettings() map[string]string { return a.serverSettings }

// OnServer reports whether the run plays a match of a game server
// (-server), once the game's first scene is being made.
func (a *App) OnServer() bool { return a.online != nil }
