package netplay

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// Join joins the session hosted at cfg.Addr as a player, and waits for it
// to start (or ctx to be done, or the host to fall silent for
// cfg.Timeout). The session's seed and settings are the host's
// (Session.Seed, Session.Settings). Joining a session under way, it takes
// the seat of a player who left, if one waits (the host's
// Config.SeatWait), and begins from the host's state: run with
// engine.Options.FromState set to Session.State (nil when it simulates
// from the first tick: see Config.FromFirstTick).
func Join(ctx context.Context, cfg Config) (*Session, error) { return join(ctx, cfg, rolePlayer) }

// Spectate joins the session hosted at cfg.Addr as a spectator: it gets
// every player's confirmed input and simulates the game as they play it,
// behind them by their round trip to the host, predicting nothing. It may
// join before the session starts or once it is under way: then it begins
// from the host's state (run with engine.Options.FromState set to
// Session.State), or, where the host has none to give or with
// cfg.FromFirstTick, the host sends it every input from the first tick (it
// keeps them all: some two bytes a tick a player). Either way its loop
// simulates the ticks it lacks as fast as it may (the session is an
// engine.Follower) until it has caught up. A spectator compares the host's
// state checksums with its own as far as the host still keeps them (its
// last ringTicks ticks, some 8 s).
func Spectate(ctx context.Context, cfg Config) (*Session, error) {
	return join(ctx, cfg, roleSpectator)
}

func join(ctx context.Context, cfg Config, role uint8) (*Session, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	hostAddr, err := net.ResolveUDPAddr("udp", c.Addr)
	if err != nil {
		return nil, fmt.Errorf("netplay: join %s: %w", c.Addr, err)
	}
	bind := "0.0.0.0:0"
	if hostAddr.IP.To4() == nil {
		bind = "[::]:0"
	}
	if hostAddr.IP.IsLoopback() {
		bind = hostAddr.IP.String() + ":0"
		if hostAddr.IP.To4() == nil {
			bind = "[" + hostAddr.IP.String() + "]:0"
		}
	}
	udp, conn, err := listen(bind, &c)
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: c, conn: conn, udp: udp, timeout: c.Timeout, start: time.Now()}
	host := &peer{addr: unmap(hostAddr.AddrPort()), udpAddr: hostAddr, player: 0, heard: time.Now()}
	s.peers = []*peer{host}
	if err := s.handshake(ctx, host, role); err != nil {
		conn.Close()
		return nil, err
	}
	s.run()
	return s, nil
}

// handshake says hello to the host until it answers, then waits for the
// start.
func (s *Session) handshake(ctx context.Context, host *peer, role uint8) error {
	var nonce [8]byte
	rand.Read(nonce[:])
	host.nonce = binary.LittleEndian.Uint64(nonce[:])
	var d datagram
	var in incoming
	var early [][]byte // state pieces that passed the welcome on the way (their payloads, the session's id first)
	welcomed := false
	takeState := func(session uint32, payload []byte) {
		if !s.underWay || session != s.id {
			return
		}
		if !s.takeState(&in, payload) {
			s.stats.Dropped[dropMalformed]++
			return
		}
		host.heard = time.Now()
		s.ackState(host, &in)
	}
	lastHello := time.Time{}
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("netplay: joining %s: %w", s.cfg.Addr, err)
		}
		if time.Since(host.heard) > s.timeout {
			if welcomed {
				return fmt.Errorf("netplay: joining %s: the host fell silent for %v before the session began", s.cfg.Addr, s.timeout)
			}
			return fmt.Errorf("netplay: joining %s: no answer in %v (is a game hosting there?)", s.cfg.Addr, s.timeout)
		}
		if !welcomed && time.Since(lastHello) > 250*time.Millisecond {
			s.w.begin(kindHello, 0, 0)
			s.w.u64(host.nonce)
			s.w.u8(role)
			s.w.str(s.cfg.Game)
			s.w.str(s.cfg.Version)
			s.w.u8(engine.Determinism)
			given := uint8(0)
			if s.cfg.SeedGiven {
				given = 1
			}
			s.w.u8(given)
			s.w.u64(s.cfg.Seed)
			s.w.settings(s.cfg.Settings, MaxPacket-200)
			fromStart := uint8(0)
			if s.cfg.FromFirstTick {
				fromStart = 1
			}
			s.w.u8(fromStart)
			s.write(host.udpAddr, s.w.end())
			lastHello = time.Now()
		}
		from, h, payload, ok, err := s.readHandshake(&d, 50*time.Millisecond)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if from != host.addr {
			s.stats.Dropped[dropStranger]++
			continue
		}
		r := reader{wirebytes.Reader{B: payload}}
		switch h.kind {
		case kindRefuse:
			nonce, reason, ok := readRefuse(payload)
			if !ok {
				s.stats.Dropped[dropMalformed]++
				continue
			}
			if nonce == host.nonce {
				return fmt.Errorf("netplay: %s refused to let us join: %s", s.cfg.Addr, printable(reason))
			}
		case kindWelcome:
			if r.U64() != host.nonce {
				continue
			}
			if err := s.takeWelcome(&r, h.session); err != nil {
				return err
			}
			if !welcomed {
				welcomed = true
				switch {
				case s.underWay && s.local >= 0:
					s.logf("joined %s on %s under way, taking the seat of player %d of %d", s.cfg.Game, s.cfg.Addr, s.local+1, s.players)
				case s.underWay:
					s.logf("watching %s on %s (%d players), under way", s.cfg.Game, s.cfg.Addr, s.players)
				case s.local >= 0:
					s.logf("joined %s on %s as player %d of %d: waiting for the others", s.cfg.Game, s.cfg.Addr, s.local+1, s.players)
				default:
					s.logf("watching %s on %s (%d players): waiting for the start", s.cfg.Game, s.cfg.Addr, s.players)
				}
				for _, b := range early {
					takeState(binary.LittleEndian.Uint32(b), b[4:])
				}
				early = nil
			}
			host.heard = time.Now()
		case kindState:
			if !welcomed { // kept for the welcome, a few: the host sends what is lost again
				if len(early) < stateWindow {
					early = append(early, binary.LittleEndian.AppendUint32(nil, h.session))
					early[len(early)-1] = append(early[len(early)-1], payload...)
				}
				continue
			}
			takeState(h.session, payload)
		case kindStart, kindInput: // an input packet from the host: its start was lost, or passed the welcome
			if welcomed && h.session == s.id && (!s.underWay || in.done) {
				if s.underWay {
					if err := s.beginFrom(host, &in); err != nil {
						return err
					}
				}
				s.udp.SetReadDeadline(time.Time{})
				host.heard = time.Now()
				return nil
			}
		}
	}
}

// readRefuse reads a refusal: the nonce of the hello it answers and why;
// false when it is malformed.
func readRefuse(payload []byte) (nonce uint64, reason string, ok bool) {
	r := reader{wirebytes.Reader{B: payload}}
	nonce, reason = r.U64(), r.str()
	return nonce, reason, r.Done()
}

// takeWelcome reads the session's terms from a welcome, of the session
// numbered id (never 0: a hello's).
func (s *Session) takeWelcome(r *reader, id uint32) error {
	player, players, delay, maxPred := r.U8(), r.U8(), r.U8(), r.U8()
	seed := r.U64()
	settings := r.settings()
	underWay := r.U8()
	if !r.Done() || underWay > 1 || id == 0 || players < 2 || players > input.MaxPlayers || (player >= players && player != spectator) ||
		player == 0 || delay > MaxDelay || maxPred < 1 || maxPred > MaxPrediction {
		return fmt.Errorf("netplay: %s sent a welcome that makes no sense", s.cfg.Addr)
	}
	s.id, s.players, s.delay, s.maxPred, s.seed, s.settings = id, int(players), int64(delay), int64(maxPred), seed, settings
	s.local, s.underWay = int(player), underWay == 1
	if player == spectator {
		s.local, s.maxPred = -1, 0
	}
	s.q.reset(s.players, s.delay)
	return nil
}
