package onlinemode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// match is a run's match on a game server.
type match struct {
	c          *client.Client
	m          *client.Match
	session    *client.Session
	predicting *client.Predicting // -predict's; nil: none
	proxy      *streamsim.Proxy   // -server-netsim's; nil: none
}

// Start signs in, finds or makes a match for -players, joins it and waits
// for its start, before the game makes its first scene: the match's seed,
// the player's seat and the match's settings become the run's.
func (m *Mode) Start(ctx context.Context, r *cli.Run, at cli.Stage) (engine.Session, error) {
	if at != cli.BeforeFirst || m.server == "" {
		return nil, nil
	}
	device := m.device
	if device == "" {
		b := make([]byte, 12)
		rand.Read(b)
		device = r.Game().Name + "-" + hex.EncodeToString(b)
	}
	server, proxy, err := m.conditioned(r)
	if err != nil {
		return nil, err
	}
	if proxy != nil {
		defer func() {
			if m.match == nil { // Start failed
				proxy.Close()
			}
		}()
	}
	c, err := client.Dial(ctx, server, client.Options{ServerKey: m.serverKey, Device: device, Silence: m.Silence})
	if err != nil {
		return nil, fmt.Errorf("-server %s: %w (is a game server running there? make server starts one)", m.server, err)
	}
	if m.watch != "" {
		return m.startWatch(ctx, r, c)
	}
	players := m.players(r)
	id, err := c.Find(ctx, m.Game, players, int(r.App().Seconds()))
	if err == nil {
		join := c.JoinTicks
		if m.FromState && r.Value("record") == "" { // joined under way, a recording holds the match from its start
			join = c.Join
		}
		var cm *client.Match
		if cm, err = join(ctx, m.Game, id); err == nil {
			fmt.Fprintf(r.Log(), "%s: joined match %s of %s on %s: waiting for %d players\n", r.Game().Name, id, m.Game.Name, m.server, players)
			var s *client.Session
			var session engine.Session
			var p *client.Predicting
			if m.predict {
				if p, err = cm.Predict(ctx, 0); err == nil {
					s, session = p.Session, p
					fmt.Fprintf(r.Log(), "%s: predicting: %d ticks ahead of the server\n", r.Game().Name, p.Ahead())
				}
			} else if s, err = cm.Session(ctx, 0); err == nil {
				session = s
			}
			if err == nil {
				start := s.Start()
				r.Keep(keep, start.Settings)
				if err = r.Adopt(cli.Joined{Flag: "server", Addr: m.server, Seed: start.Seed, Player: start.Seat, EndsRun: true,
					State: s.State()}); err == nil {
					m.match = &match{c: c, m: cm, session: s, predicting: p, proxy: proxy}
					return session, nil
				}
				cm.Leave(context.Background())
				c.Close()
				return nil, err
			}
		}
	}
	c.Close()
	return nil, fmt.Errorf("-server %s: %w", m.server, err)
}

// startWatch fetches -watch's kept match, and returns the session that
// plays it again.
func (m *Mode) startWatch(ctx context.Context, r *cli.Run, c *client.Client) (engine.Session, error) {
	k, err := c.Kept(ctx, m.Game, m.watch)
	var s *client.Session
	if err == nil {
		s, err = client.Replay(m.Game, k)
	}
	if err == nil {
		start := s.Start()
		fmt.Fprintf(r.Log(), "%s: playing again match %s of %s on %s: %d players, %d ticks (%s)\n", r.Game().Name, m.watch, m.Game.Name,
			m.server, start.Players, k.End.Tick, k.End.Reason)
		r.Keep(keep, start.Settings)
		if err = r.Adopt(cli.Joined{Flag: "watch", Addr: m.watch, Seed: start.Seed, Player: -1, EndsRun: true}); err == nil {
			m.match = &match{c: c, session: s}
			return s, nil
		}
	}
	c.Close()
	return nil, fmt.Errorf("-server %s -watch %s: %w", m.server, m.watch, err)
}

// End leaves the match and closes the connection; the run's error is none
// when the server ended the match after the loop had run its every tick.
func (m *Mode) End(r *cli.Run, err error) error {
	if m.match.m != nil {
		m.match.m.Leave(context.Background())
	}
	m.match.c.Close()
	if m.match.proxy != nil {
		m.match.proxy.Close()
	}
	if e := (*client.EndedError)(nil); errors.As(err, &e) {
		return nil
	}
	return err
}

// Summary writes the online run's line.
func (m *Mode) Summary(r *cli.Run, out io.Writer) {
	stats, seconds := r.SessionStats(), r.Elapsed().Seconds()
	in, sent := m.match.c.Bytes()
	st := m.match.session.Start()
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
	if m.match.m == nil {
		fmt.Fprintf(out, "online: match %s of %d players played again; %d ticks checked against the server's checksum; received %d B\n",
			st.Match, st.Players, m.match.session.Checked(), in)
		return
	}
	fmt.Fprintf(out, "online: player %d of %d in match %s; %d ticks checked against the server's checksum%s; received %s, sent %s\n",
		st.Seat+1, st.Players, st.Match, m.match.session.Checked(), caught, rate(in), rate(sent))
	if mean, n := m.match.session.InputDelay(); n > 0 {
		fmt.Fprintf(out, "online: the player's input ran %.1f ticks after it was sampled (the mean of %d changes)\n", mean, n)
	}
	if p := m.match.predicting; p != nil {
		per := func(n int64) float64 { return float64(n) / max(seconds, 1e-9) }
		fmt.Fprintf(out, "online: predicting %d ticks ahead of the server; %d rollbacks (%.1f a second), %d ticks simulated again (%.2f a tick); "+
			"%d of the player's inputs ran late\n", p.Ahead(), stats.Rollbacks, per(stats.Rollbacks), stats.Resimulated,
			float64(stats.Resimulated)/float64(max(m.match.session.Checked(), 1)), p.Late())
	}
}
