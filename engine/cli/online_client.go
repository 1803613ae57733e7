//go:build !js

package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/online/client"
)

// onlineRun is a run's match on a game server.
type onlineRun struct {
	c       *client.Client
	m       *client.Match
	session *client.Session
	players int
}

// joinOnline signs in, finds or makes a match for -players, joins it and
// waits for its start, before the game builds its first scene: the
// match's seed and the player's seat become the run's.
func (a *App) joinOnline(ctx context.Context) (*onlineRun, error) {
	device := a.device
	if device == "" {
		b := make([]byte, 12)
		rand.Read(b)
		device = a.name() + "-" + hex.EncodeToString(b)
	}
	c, err := client.Dial(ctx, a.server, client.Options{ServerKey: a.serverKey, Device: device, Silence: a.serverSilence})
	if err != nil {
		return nil, fmt.Errorf("-server %s: %w (is a game server running there? make server starts one)", a.server, err)
	}
	players := 1
	if a.given("players") {
		players = a.players
	}
	id, err := c.Find(ctx, a.Online, players, int(a.seconds))
	if err == nil {
		var m *client.Match
		if m, err = c.Join(ctx, a.Online, id); err == nil {
			fmt.Fprintf(a.errOut(), "%s: joined match %s of %s on %s: waiting for %d players\n", a.name(), id, a.Online.Name, a.server, players)
			var s *client.Session
			if s, err = m.Session(ctx, 0); err == nil {
				start := s.Start()
				a.seed, a.local, a.serverSettings = start.Seed, start.Seat, start.Settings
				return &onlineRun{c: c, m: m, session: s, players: start.Players}, nil
			}
		}
	}
	c.Close()
	return nil, fmt.Errorf("-server %s: %w", a.server, err)
}

// ended is the run's error once the match is over: none when the server
// ended it after the loop had run its every tick.
func (o *onlineRun) ended(err error) error {
	if e := (*client.EndedError)(nil); errors.As(err, &e) {
		return nil
	}
	return err
}

// summary writes the online run's line; stats are the loop's.
func (o *onlineRun) summary(out io.Writer, stats engine.SessionStats, seconds float64) {
	in, sent := o.c.Bytes()
	st := o.session.Start()
	rate := func(n int64) string {
		if seconds <= 0 {
			return fmt.Sprintf("%d B", n)
		}
		return fmt.Sprintf("%.0f B/s", float64(n)/seconds)
	}
	caught := ""
	if stats.CaughtUp > 0 {
		caught = fmt.Sprintf(" (%d frames ran faster than real time to catch up with them)", stats.CaughtUp)
	}
	fmt.Fprintf(out, "online: player %d of %d in match %s; %d ticks checked against the server's checksum%s; received %s, sent %s\n",
		st.Seat+1, st.Players, st.Match, o.session.Checked(), caught, rate(in), rate(sent))
}

// close leaves the match and closes the connection.
func (o *onlineRun) close() {
	o.m.Leave(context.Background())
	o.c.Close()
}

// engineSession is the session the loop runs.
func (o *onlineRun) engineSession() engine.Session { return o.session }
