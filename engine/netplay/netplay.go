package netplay

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/netip"
	"slices"
	"sync/atomic"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// Limits of a session.
const (
	// DefaultDelay is the input delay of a session whose Config gives none:
	// a player's input plays two ticks after it is sampled (33 ms at 60 Hz),
	// so that on a link under about 70 ms round trip it arrives before it
	// is needed and nothing is predicted.
	DefaultDelay = 2
	// MaxDelay is the longest input delay.
	MaxDelay = 15
	// DefaultMaxPrediction is how many ticks past the last tick whose
	// inputs are all confirmed a session runs, predicting, before it
	// waits (GGPO's default): a rollback simulates at most that many ticks
	// again.
	DefaultMaxPrediction = 8
	// MaxPrediction bounds Config.MaxPrediction, below what the loop can
	// roll back (engine.RollbackSlots).
	MaxPrediction = 32
	// DefaultTimeout is how long a peer may be silent before it has left.
	DefaultTimeout = 5 * time.Second
	// MaxSpectators is the most spectators a host takes.
	MaxSpectators = 8
)

// Config configures a session: the host's says what the session is, a
// joiner's what it must match.
type Config struct {
	// Addr is where the host listens (":7777", "127.0.0.1:7777"), or the
	// host a joiner joins.
	Addr string

	// Game and Version name the game: a joiner of another game or version
	// is refused by name.
	Game, Version string

	// Seed is the session's seed (the host's); a joiner's is checked
	// against the host's when SeedGiven.
	Seed      uint64
	SeedGiven bool

	// Settings are the host's: what else every peer's run needs to be the
	// same game (netplaymode sends the cli.App's recorded flags). A joiner gets them. A
	// joiner's own, when set, are those it was given: the host refuses it
	// when one differs from the session's, naming it, before it joins.
	Settings map[string]string

	// Players is the host's: how many players play, itself included (2 to
	// input.MaxPlayers).
	Players int

	// Delay is the host's input delay, in ticks of the first group: 0 to
	// MaxDelay, DefaultDelay when 0 and not DelayGiven.
	Delay      int
	DelayGiven bool

	// MaxPrediction is the host's: how many ticks a peer runs ahead of
	// the confirmed inputs (0: DefaultMaxPrediction; at most
	// MaxPrediction).
	MaxPrediction int

	// Link, if set, conditions this peer's packets (latency, jitter, loss:
	// package engine/netsim), for tests and for trying a bad link.
	Link *netsim.Link

	// Timeout is how long a silent peer has before it has left (0:
	// DefaultTimeout); joining waits that long for an answer.
	Timeout time.Duration

	// SeatWait is the host's: how long a player's seat waits for it once
	// it left a session under way (it quit, fell silent, or its run failed
	// on its own), the others playing on with the seat's input empty, for
	// it (or another player) to Join again and take it back. 0: a player
	// who leaves ends the session once a tick needs its input.
	SeatWait time.Duration

	// FromFirstTick is a joiner's: joining a session under way, it
	// simulates the session from its first tick, with every input from the
	// host, rather than beginning from the host's state (Session.State):
	// its run's recording then holds the whole session.
	FromFirstTick bool

	// Log, if set, is told how the session goes: who joined, who left.
	Log io.Writer
}

// Stats is what a session's network did.
type Stats struct {
	PacketsSent, PacketsReceived int64
	BytesSent, BytesReceived     int64 // UDP payloads, headers and CRCs included
	Dropped                      [dropReasons]int64
	RTT                          time.Duration // the latest round trip to the host (the host: the longest of its peers')
}

// DroppedTotal returns how many packets were dropped, for any reason.
func (s *Stats) DroppedTotal() int64 {
	var n int64
	for _, d := range s.Dropped {
		n += d
	}
	return n
}

// DropReasons names the reasons a packet is dropped, as Stats.Dropped
// counts them, in order.
func DropReasons() []string { return dropNames[:] }

// A PeerError ends a session when a peer leaves: it quit, its run ended
// before ours, it failed, or it fell silent.
type PeerError struct {
	Player int    // the peer's player number; -1 for a spectator
	Addr   string // where it was
	Reason string
}

func (e *PeerError) Error() string {
	who := fmt.Sprintf("player %d", e.Player+1)
	if e.Player < 0 {
		who = "a spectator"
	}
	return fmt.Sprintf("netplay: %s (%s) left: %s", who, e.Addr, e.Reason)
}

// Session is a rollback session: an engine.Session (Options.Session) over
// UDP. Host, Join and Spectate make one; Close ends it.
type Session struct {
	cfg       Config
	conn      net.PacketConn // writes go through it (conditioned, with Config.Link)
	udp       *net.UDPConn   // reads come from it
	host      bool
	local     int // the local player; -1 for a spectator
	players   int
	delay     int64
	maxPred   int64
	seed      uint64
	settings  map[string]string
	id        uint32
	timeout   time.Duration
	peers     []*peer
	q         queue
	hist      *history // the host's: every input from the first tick, for spectators that join late
	w         writer
	start     time.Time
	err       error // what ended the session, kept and returned from then on
	stats     Stats
	finishing bool // Close runs: a peer's bye is no error
	quit      bool // the local player quit (Quit): the goodbye says so
	lastPoll  time.Time
	failed    error // the local run failed on its own (Fail): the goodbye says why
	closed    bool  // Close ran, with closeErr
	closeErr  error
	decoded   *scratch       // a packet's inputs, before any is kept
	desync    *DesyncError   // found: the run makes its report, the players exchange them
	exchange  reportExchange // the reports' way
	queueFull atomic.Int64

	// Joiners under way (seat.go).
	fill       [input.MaxPlayers]bool      // the host's: a seat whose input it gives, empty
	emptySince [input.MaxPlayers]time.Time // the host's: since when a filled seat waits for a player; zero once taken
	underWay   bool                        // a joiner's: it joined the session under way
	ownFrom    int64                       // a joiner's under way: the first tick of its own input
	from       int64                       // a joiner's: the tick of the state its run begins from
	state      []byte                      // that state's file

	in, free chan *datagram
	stop     chan struct{}
	readDone chan struct{}
}

// datagram is a packet as the reader took it in.
type datagram struct {
	n    int
	from netip.AddrPort
	b    [MaxPacket + 1]byte // one more: a longer packet is seen as longer
}

// peer is another machine in the session, as this one sees it.
type peer struct {
	addr      netip.AddrPort
	udpAddr   *net.UDPAddr
	player    int // -1: a spectator
	nonce     uint64
	heard     time.Time // when a packet of it last arrived
	seq       uint32    // the last sequence number taken from it
	sent      uint32    // the last sequence number sent to it
	lastSend  time.Time
	started   bool                    // host: it has sent input since the start
	ack       [input.MaxPlayers]int64 // each player's input it holds, up to this tick
	sentTo    [input.MaxPlayers]int64 // each player's input sent it, up to this tick
	sumAck    int64                   // the last of our checksums it holds
	sums      [ringTicks]uint64
	sumAt     [ringTicks]int64
	sumTo     int64 // its checksums arrive up to here, contiguously
	compared  int64 // the last tick whose checksums were compared
	tick      int64 // its latest tick, as it said
	adv       int64 // how far it is ahead of us, as it sees it
	echo      uint32
	echoAt    time.Time
	rtt       time.Duration
	gone      string // why it left, "" while it plays
	goneAfter int64  // the last tick of its own input it sent
	finished  bool   // it left as its run ended: the others end too, or once they need its input

	// A joiner under way, as the host sees it (seat.go).
	underWay   bool
	fromStart  bool        // it asked for every tick from the first (Config.FromFirstTick)
	offer      *stateOffer // what it begins from, once the loop gave it
	ownFrom    int64       // a player's: the first tick of its own input; the host's fill before it
	stateHave  int         // the offer's pieces it holds, from the first
	stateNext  int         // the next piece to send
	stateAt    time.Time   // when a piece was last sent, or acknowledged first
	stateAcked bool        // it acknowledged the offer's pieces
	statePace              // how fast its pieces go (seat.go)
	seatSince  time.Time   // a player's: since when the seat it took had waited
}

// clock returns the milliseconds since the session began, as packets carry
// them.
func (s *Session) clock(now time.Time) uint32 { return uint32(now.Sub(s.start).Milliseconds()) }

func (c *Config) withDefaults() (Config, error) {
	cfg := *c
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Delay == 0 && !cfg.DelayGiven {
		cfg.Delay = DefaultDelay
	}
	if cfg.MaxPrediction == 0 {
		cfg.MaxPrediction = DefaultMaxPrediction
	}
	switch {
	case cfg.Timeout < 0:
		return cfg, fmt.Errorf("netplay: timeout %v: must be positive", cfg.Timeout)
	case cfg.Delay < 0 || cfg.Delay > MaxDelay:
		return cfg, fmt.Errorf("netplay: input delay %d: must be 0 to %d ticks", cfg.Delay, MaxDelay)
	case cfg.MaxPrediction < 1 || cfg.MaxPrediction > MaxPrediction:
		return cfg, fmt.Errorf("netplay: prediction of %d ticks: must be 1 to %d", cfg.MaxPrediction, MaxPrediction)
	case len(cfg.Game) > maxString || len(cfg.Version) > maxString:
		return cfg, fmt.Errorf("netplay: a game's name and version must be at most %d bytes", maxString)
	}
	if cfg.Link != nil {
		if err := cfg.Link.Validate(); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// readBuffer is the receive buffer a session's socket asks for: a state's
// pieces in flight (maxStateWindow) and the input packets beside them.
const readBuffer = 1 << 20

// listen opens the session's socket on addr, its writes conditioned by
// the config's link.
func listen(addr string, cfg *Config) (*net.UDPConn, net.PacketConn, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("netplay: %w", err)
	}
	udp, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, nil, fmt.Errorf("netplay: %w", err)
	}
	udp.SetReadBuffer(readBuffer) // what the system allows of it: a state's pieces in flight come in a burst
	var conn net.PacketConn = udp
	if cfg.Link != nil {
		if conn, err = netsim.Wrap(udp, *cfg.Link); err != nil {
			udp.Close()
			return nil, nil, err
		}
	}
	return udp, conn, nil
}

func (s *Session) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "netplay: "+format+"\n", args...)
	}
}

// Host opens a session on cfg.Addr for cfg.Players players, itself player
// 0, and waits until the others have joined (spectators may join too until
// then), or ctx is done: Listen, then Lobby.Wait.
func Host(ctx context.Context, cfg Config) (*Session, error) {
	l, err := Listen(cfg)
	if err != nil {
		return nil, err
	}
	return l.Wait(ctx)
}

// A Lobby is a session being hosted, before its players have joined.
type Lobby struct{ s *Session }

// Listen opens a session on cfg.Addr for cfg.Players players, the host
// player 0, for them to join: Lobby.Wait waits for them.
func Listen(cfg Config) (*Lobby, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if c.Players < 2 || c.Players > input.MaxPlayers {
		return nil, fmt.Errorf("netplay: %d players: a session has 2 to %d", c.Players, input.MaxPlayers)
	}
	udp, conn, err := listen(c.Addr, &c)
	if err != nil {
		return nil, err
	}
	var id [4]byte
	rand.Read(id[:])
	s := &Session{cfg: c, conn: conn, udp: udp, host: true, local: 0, players: c.Players, delay: int64(c.Delay),
		maxPred: int64(c.MaxPrediction), seed: c.Seed, settings: c.Settings, timeout: c.Timeout, start: time.Now(),
		id: binary.LittleEndian.Uint32(id[:]) | 1, hist: &history{}}
	if err := s.checkSettings(); err != nil {
		conn.Close()
		return nil, err
	}
	s.q.reset(s.players, s.delay)
	return &Lobby{s}, nil
}

// Addr returns the address the lobby listens on (the port chosen, for an
// Addr with port 0).
func (l *Lobby) Addr() net.Addr { return l.s.udp.LocalAddr() }

// Wait takes joiners until every player has joined, or ctx is done (the
// lobby is closed then). Joiners of another game or version, with another
// seed, or beyond the players and spectators it takes, are refused and
// told why. Then the session starts.
func (l *Lobby) Wait(ctx context.Context) (*Session, error) {
	s := l.s
	s.logf("hosting %s on %s for %d players: waiting for %d to join", s.cfg.Game, s.udp.LocalAddr(), s.players, s.players-1)
	if err := s.lobby(ctx); err != nil {
		s.conn.Close()
		return nil, err
	}
	for _, p := range s.peers {
		s.send(p, kindStart)
		p.lastSend = time.Now()
	}
	s.run()
	return s, nil
}

// Close closes a lobby that will not start.
func (l *Lobby) Close() error { return l.s.conn.Close() }

// joined counts the players that have joined.
func (s *Session) joined() int {
	n := 0
	for _, p := range s.peers {
		if p.player >= 0 {
			n++
		}
	}
	return n
}

// lobby takes hellos until every player has joined.
func (s *Session) lobby(ctx context.Context) error {
	var d datagram
	lastWelcome := time.Now()
	for s.joined() < s.players-1 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("netplay: waiting for players: %w", err)
		}
		from, h, payload, ok, err := s.readHandshake(&d, 100*time.Millisecond)
		if time.Since(lastWelcome) > time.Second { // the joiners waiting know the host is there
			for _, p := range s.peers {
				s.welcome(p)
			}
			lastWelcome = time.Now()
		}
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if h.kind != kindHello || h.session != 0 {
			continue // a joiner's first inputs, sent before our start reached it: nothing to take yet
		}
		s.hello(from, payload, true)
	}
	s.udp.SetReadDeadline(time.Time{})
	return nil
}

// hello answers a hello: a welcome for a joiner the session takes (again
// for one it took: its welcome was lost), a refusal that says why for
// others.
func (s *Session) hello(from netip.AddrPort, payload []byte, open bool) {
	r := reader{wirebytes.Reader{B: payload}}
	nonce := r.U64()
	role := r.U8()
	game, version := r.str(), r.str()
	determinism := r.U8()
	seedGiven, seed := r.U8(), r.U64()
	given := r.settings()
	fromStart := r.U8()
	if !r.Done() || role > roleSpectator || seedGiven > 1 || fromStart > 1 {
		s.stats.Dropped[dropMalformed]++
		return
	}
	for _, p := range s.peers {
		if p.addr == from && p.nonce == nonce && p.gone == "" {
			s.welcome(p)
			return
		}
	}
	reason := ""
	spectators := 0
	for _, o := range s.peers {
		if o.player < 0 && o.gone == "" {
			spectators++
		}
	}
	switch {
	case game != s.cfg.Game:
		reason = fmt.Sprintf("this is a session of %q, not %q", s.cfg.Game, game)
	case version != s.cfg.Version:
		reason = fmt.Sprintf("this is %s version %q; yours is %q", s.cfg.Game, s.cfg.Version, version)
	case determinism != engine.Determinism:
		reason = fmt.Sprintf("this session's engine computes with determinism version %d, yours with %d: "+
			"the two would compute different games (build both with the same engine)", engine.Determinism, determinism)
	case seedGiven == 1 && seed != s.seed:
		reason = fmt.Sprintf("this session's seed is %d, not %d (drop -seed to play it)", s.seed, seed)
	case otherSetting(s.settings, given) != "":
		name := otherSetting(s.settings, given)
		reason = fmt.Sprintf("this session was made with -%s %s, yours with -%s %s (drop -%s to play it)",
			name, s.settings[name], name, given[name], name)
	case s.isPeer(from):
		reason = "this address is in the session already" // a peer's, with another nonce: one peer an address
	case !open && role == rolePlayer && s.seatFor() < 0:
		reason = fmt.Sprintf("the session has begun, and no seat waits for a player (a player who left is noticed after %v of silence: its seat waits for it then)", s.timeout)
	case open && role == rolePlayer && s.joined() >= s.players-1:
		reason = fmt.Sprintf("the session has its %d players", s.players)
	case role == roleSpectator && spectators >= MaxSpectators:
		reason = fmt.Sprintf("the session has its %d spectators", MaxSpectators)
	}
	if reason != "" {
		reason = printable(reason) // a joiner's setting may be in it
		s.w.begin(kindRefuse, 0, 0)
		s.w.u64(nonce)
		s.w.str(reason)
		s.write(net.UDPAddrFromAddrPort(from), s.w.end())
		s.logf("refused %s: %s", from, reason)
		return
	}
	p := &peer{addr: from, udpAddr: net.UDPAddrFromAddrPort(from), player: -1, nonce: nonce, heard: time.Now(),
		underWay: !open, fromStart: fromStart == 1}
	switch {
	case role == rolePlayer && !open:
		p.player = s.seatFor()
		p.seatSince, s.emptySince[p.player] = s.emptySince[p.player], time.Time{}
		if i := slices.IndexFunc(s.peers, func(o *peer) bool { return o.player == p.player }); i >= 0 {
			s.peers[i] = p
		} else {
			s.peers = append(s.peers, p)
		}
		s.logf("player %d joined again from %s", p.player+1, from)
	case role == rolePlayer:
		p.player = s.joined() + 1
		s.peers = append(s.peers, p)
		s.logf("player %d joined from %s (%d of %d)", p.player+1, from, s.joined()+1, s.players)
	default:
		s.peers = append(s.peers, p)
		s.logf("a spectator joined from %s", from)
	}
	// A peer that left, at the address of this one, goes, but for one
	// whose seat waits: the seat's error names it.
	s.peers = slices.DeleteFunc(s.peers, func(o *peer) bool {
		return o.gone != "" && o.addr == from && !(o.player > 0 && s.fill[o.player])
	})
	if p.underWay && p.fromStart {
		s.offer(p, &stateOffer{why: "it asked for every tick"})
	}
	s.welcome(p)
}

// isPeer reports whether a peer of the session, still in it, is at addr.
func (s *Session) isPeer(addr netip.AddrPort) bool {
	for _, p := range s.peers {
		if p.addr == addr && p.gone == "" {
			return true
		}
	}
	return false
}

// otherSetting returns the name of the first of a joiner's settings (in
// the order of their names) whose value differs from the session's, or "".
func otherSetting(session, given map[string]string) string {
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if have, ok := session[name]; ok && have != given[name] {
			return name
		}
	}
	return ""
}

// welcome sends p its welcome.
func (s *Session) welcome(p *peer) { s.write(p.udpAddr, s.welcomeFor(p)) }

// welcomeFor returns the welcome of joiner p: its player number (spectator
// for a spectator), the session's terms, and whether the session is under
// way.
func (s *Session) welcomeFor(p *peer) []byte {
	s.w.begin(kindWelcome, s.id, 0)
	s.w.u64(p.nonce)
	player := p.player
	if player < 0 {
		player = spectator
	}
	s.w.u8(uint8(player))
	s.w.u8(uint8(s.players))
	s.w.u8(uint8(s.delay))
	s.w.u8(uint8(s.maxPred))
	s.w.u64(s.seed)
	s.w.settings(s.settings, -1)
	underWay := uint8(0)
	if p.underWay {
		underWay = 1
	}
	s.w.u8(underWay)
	return s.w.end()
}

// checkSettings refuses settings a welcome cannot carry whole: a name or a
// value longer than maxString, or more than one datagram of them.
func (s *Session) checkSettings() error {
	for name, value := range s.settings {
		if len(name) > maxString || len(value) > maxString {
			return fmt.Errorf("netplay: setting %.40q: its name and its value must be at most %d bytes each (%d and %d)",
				name, maxString, len(name), len(value))
		}
	}
	if n := len(s.welcomeFor(&peer{player: 1})); n > MaxPacket {
		return fmt.Errorf("netplay: the session's %d settings make its welcome %d bytes: a datagram carries at most %d",
			len(s.settings), n, MaxPacket)
	}
	return nil
}

// run starts the reader: from now on datagrams are taken in by Poll.
func (s *Session) run() {
	const queue = 256
	s.in, s.free = make(chan *datagram, queue), make(chan *datagram, queue)
	for range queue {
		s.free <- &datagram{}
	}
	s.stop, s.readDone = make(chan struct{}), make(chan struct{})
	go s.read()
}

// read takes datagrams in from the socket until it is closed, handing them
// to Poll; when Poll falls behind, they are dropped and counted.
func (s *Session) read() {
	defer close(s.readDone)
	var spare datagram
	for {
		var d *datagram
		select {
		case d = <-s.free:
		default:
			d = &spare // the queue is full: read, to drop
		}
		n, from, err := s.udp.ReadFromUDPAddrPort(d.b[:])
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if d != &spare {
				s.free <- d
			}
			continue
		}
		if d == &spare {
			s.queueFull.Add(1)
			continue
		}
		d.n, d.from = n, unmap(from)
		s.in <- d
	}
}

// readHandshake reads a datagram of the handshake into d, waiting up to
// wait, counts it, and returns its sender, header and payload: ok is false
// when none came (the wait ended) or it was dropped (counted, with why),
// err non-nil once the socket is closed.
func (s *Session) readHandshake(d *datagram, wait time.Duration) (from netip.AddrPort, h header, payload []byte, ok bool, err error) {
	s.udp.SetReadDeadline(time.Now().Add(wait))
	n, from, err := s.udp.ReadFromUDPAddrPort(d.b[:])
	if err != nil {
		if errors.Is(err, net.ErrClosed) {
			return from, h, nil, false, err
		}
		return from, h, nil, false, nil
	}
	from = unmap(from)
	s.stats.PacketsReceived++
	s.stats.BytesReceived += int64(n)
	h, payload, why, ok := parseHeader(d.b[:n])
	if !ok {
		s.stats.Dropped[why]++
	}
	return from, h, payload, ok, nil
}

// unmap returns a, an IPv4 address in IPv6's form as an IPv4 address, so
// that a peer is the same address however the socket reports it.
func unmap(a netip.AddrPort) netip.AddrPort { return netip.AddrPortFrom(a.Addr().Unmap(), a.Port()) }

// write sends a packet.
func (s *Session) write(to *net.UDPAddr, b []byte) {
	s.stats.PacketsSent++
	s.stats.BytesSent += int64(len(b))
	s.conn.WriteTo(b, to) // a lost packet is sent again with the next; an error here is a lost packet
}

// send sends p a packet of kind k with no payload.
func (s *Session) send(p *peer, k kind) {
	p.sent++
	s.w.begin(k, s.id, p.sent)
	s.write(p.udpAddr, s.w.end())
}

// Seed returns the session's seed: the host's.
func (s *Session) Seed() uint64 { return s.seed }

// Settings returns the session's settings: the host's.
func (s *Session) Settings() map[string]string { return s.settings }

// Player returns the local player's number (0 for the host), -1 for a
// spectator.
func (s *Session) Player() int { return s.local }

// Delay returns the session's input delay in ticks.
func (s *Session) Delay() int { return int(s.delay) }

// Stats returns what the session's network did so far. Call it from the
// loop's goroutine, or after Close.
func (s *Session) Stats() Stats {
	st := s.stats
	st.Dropped[dropQueueFull] += s.queueFull.Load()
	st.RTT = 0
	for _, p := range s.peers {
		st.RTT = max(st.RTT, p.rtt)
	}
	return st
}

// Addr returns the address the session's socket is bound to.
func (s *Session) Addr() net.Addr { return s.udp.LocalAddr() }
