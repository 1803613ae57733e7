package netplay

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// Desync reports: when the players' final state checksums after a tick
// differ, each run makes a report of that tick (engine.DesyncReport: the
// state after each system, after each component type, and the world as
// text), and the two players send each other theirs, in pieces:
//
//	report  tick:uvarint pieces:u16 index:u16 ack:u16 size:uvarint data
//
// where the report is encoded (encodeReport) and cut into pieces of at
// most reportPiece bytes, index is the piece carried (none when pieces is
// 0: the sender has no report yet and only acknowledges), and ack how many
// of the receiver's pieces the sender holds, from the first. Pieces are
// sent again until acknowledged. The session then ends with a DesyncError
// that holds both reports and says where they first differ.

const (
	reportPiece    = MaxPacket - 64 // the bytes of a report in one packet
	maxReportBytes = 4 << 20        // the largest report sent or taken
	maxDumpBytes   = 64 << 20       // the largest world dump a report's unpacks to
	reportResend   = 50 * time.Millisecond
)

// DesyncError ends a session whose players' runs went different ways: the
// state checksum after tick Tick differs between this run and player
// Other's; every earlier tick's matched. With the two runs' reports it
// says more: System is the first update system after which the state
// differs (in tick SystemTick of group Group), Components the component
// types that differ after the tick; Dumps are where the two worlds were
// written as text (cli.App writes them: this run's first).
type DesyncError struct {
	Tick        int64         // the session's tick (first-group ticks since the run began)
	Found       int64         // the tick this run had reached when it found the desync
	Took        time.Duration // from then to the end of the reports' exchange
	Other       int           // the other player's number
	Ours, Their uint64

	Report, OtherReport *engine.DesyncReport // this run's and the other's; nil when it did not arrive
	System, Group       string
	SystemTick          int64
	SystemNote          string // what else the two runs ran differently
	Components          []string
	Dumps               []string
}

func (e *DesyncError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "netplay: desync: after tick %d", e.Tick)
	if differ := e.otherScenes(); differ != "" {
		// Every component would differ, and no system is to blame: the
		// scenes are the cause, said alone.
		b.WriteString(differ)
		e.writeDumps(&b)
		return b.String()
	}
	if r := e.Report; r != nil && r.Scene > 0 {
		fmt.Fprintf(&b, " (scene %d, %s, its tick %d)", r.Scene, r.SceneName, r.SceneTick)
	}
	fmt.Fprintf(&b, " the state differs from player %d's (checksum %016x here, %016x there)", e.Other+1, e.Ours, e.Their)
	switch {
	case e.System != "":
		fmt.Fprintf(&b, "; it first differed after system %q in tick %d of group %q", e.System, e.SystemTick, e.Group)
	case e.Report != nil && e.OtherReport != nil && len(e.Report.Systems) > 0 && e.SystemNote == "":
		b.WriteString("; no system's state differs (the state before the tick's systems did)")
	}
	if e.SystemNote != "" {
		b.WriteString(" (" + e.SystemNote + ")")
	}
	if len(e.Components) > 0 {
		b.WriteString("; component types that differ: " + strings.Join(e.Components, ", "))
	}
	switch {
	case e.Report == nil || !e.Report.Simulated:
		b.WriteString("; the state before the tick was no longer kept here: no detail")
	case e.OtherReport == nil:
		fmt.Fprintf(&b, "; player %d's report did not arrive", e.Other+1)
	case len(e.Report.Systems) == 0:
		b.WriteString("; the scene's systems are not probed (see engine.Recording.Probed): no system named")
	}
	e.writeDumps(&b)
	return b.String()
}

func (e *DesyncError) writeDumps(b *strings.Builder) {
	if len(e.Dumps) > 0 {
		b.WriteString("; the worlds after the tick: " + strings.Join(e.Dumps, ", "))
	}
}

// otherScenes says where the two runs were, when the desynced tick ran
// in different scenes on each (or in a scene begun on another tick), or
// returns "".
func (e *DesyncError) otherScenes() string {
	a, o := e.Report, e.OtherReport
	if a == nil || o == nil || a.Scene == 0 || o.Scene == 0 ||
		a.Scene == o.Scene && a.SceneName == o.SceneName && a.SceneTick == o.SceneTick {
		return ""
	}
	cause := "the scene before ended into another scene on each run"
	if a.Tick-a.SceneTick != o.Tick-o.SceneTick {
		cause = "a scene ended on a different tick on each run"
	}
	return fmt.Sprintf(" the players' runs are in different scenes: here %s; on player %d's, %s: %s "+
		"(decided from something other than the ticks' input and the game state, or by code that differs)",
		where(a), e.Other+1, where(o), cause)
}

// where names the scene a report's tick ran in, where it began, and the
// systems the tick ran.
func where(r *engine.DesyncReport) string {
	if r.SceneTick <= 0 {
		return fmt.Sprintf("a scene before scene %d (%s)", r.Scene, r.SceneName)
	}
	s := fmt.Sprintf("scene %d (%s) at its tick %d, begun after tick %d", r.Scene, r.SceneName, r.SceneTick, r.Tick-r.SceneTick)
	var names []string
	for _, sys := range r.Systems {
		if !slices.Contains(names, sys.System) {
			names = append(names, sys.System)
		}
	}
	if len(names) > 0 {
		s += ", systems " + strings.Join(names, ", ")
	}
	return s
}

// explain fills in where the two reports first differ.
func (e *DesyncError) explain() {
	a, b := e.Report, e.OtherReport
	if a == nil || b == nil {
		return
	}
	if e.otherScenes() != "" {
		return // the scenes differ: every component would
	}
	if a.Simulated && b.Simulated && a.Start != b.Start {
		// No system is to blame: the tick began from states that differ.
		e.SystemNote = "the state differed before the tick's first system ran"
		if a.SceneTick == 1 {
			e.SystemNote += ": the scene's first tick, so the players' scenes set themselves up differently"
		}
	} else {
		e.firstSystem(a, b)
	}
	theirs := map[string]uint64{}
	for _, p := range b.Parts {
		theirs[p.Name] = p.Sum
	}
	for _, p := range a.Parts {
		if sum, ok := theirs[p.Name]; !ok || sum != p.Sum {
			e.Components = append(e.Components, p.Name)
		}
		delete(theirs, p.Name)
	}
	for name := range theirs {
		e.Components = append(e.Components, name)
	}
	slices.Sort(e.Components)
	e.Components = slices.Compact(e.Components)
}

// firstSystem finds the first system after which reports a and b differ,
// or says how the systems they ran differ.
func (e *DesyncError) firstSystem(a, b *engine.DesyncReport) {
	for i := range min(len(a.Systems), len(b.Systems)) {
		x, y := a.Systems[i], b.Systems[i]
		if x.System != y.System || x.Group != y.Group || x.Tick != y.Tick {
			e.SystemNote = fmt.Sprintf("here %q ran where player %d's run ran %q", x.System, e.Other+1, y.System)
			return
		}
		if x.Sum != y.Sum {
			e.System, e.Group, e.SystemTick = x.System, x.Group, x.Tick
			return
		}
	}
	if len(a.Systems) != len(b.Systems) {
		e.SystemNote = fmt.Sprintf("this run ran %d systems in the tick, player %d's %d", len(a.Systems), e.Other+1, len(b.Systems))
	}
}

// encodeReport returns r in the report's wire form, its dump gzipped.
func encodeReport(r *engine.DesyncReport) []byte {
	var w writer
	w.uvarint(uint64(r.Tick))
	w.uvarint(uint64(r.Scene))
	w.str(r.SceneName)
	w.uvarint(uint64(r.SceneTick))
	simulated := uint8(0)
	if r.Simulated {
		simulated = 1
	}
	w.u8(simulated)
	w.u64(r.Start)
	w.uvarint(uint64(len(r.Systems)))
	for _, s := range r.Systems {
		w.str(s.Group)
		w.uvarint(uint64(s.Tick))
		w.str(s.System)
		w.u32(s.Sum)
	}
	w.uvarint(uint64(len(r.Parts)))
	for _, p := range r.Parts {
		w.str(p.Name)
		w.u64(p.Sum)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(r.Dump)
	zw.Close()
	w.uvarint(uint64(z.Len()))
	w.b = append(w.b, z.Bytes()...)
	if len(w.b) > maxReportBytes { // a world too big to send: the rest of the report goes
		return encodeReport(&engine.DesyncReport{Tick: r.Tick, Scene: r.Scene, SceneName: r.SceneName, SceneTick: r.SceneTick,
			Simulated: r.Simulated, Start: r.Start, Systems: r.Systems, Parts: r.Parts, Dump: []byte("# the world was too big to send\n")})
	}
	return w.b
}

// decodeReport reads a report in its wire form; a malformed one is an
// error. Its counts are checked against the bytes left before anything is
// read by them (a system takes 7 bytes at least, a part 9), its names are
// made printable (printable): they are shown.
func decodeReport(b []byte) (*engine.DesyncReport, error) {
	r := reader{wirebytes.Reader{B: b}}
	tick, scene, sceneName, sceneTick, simulated, start := r.tick(), r.Uvarint(), r.str(), r.tick(), r.U8(), r.U64()
	if scene > math.MaxInt32 || simulated > 1 {
		r.Bad = true
	}
	rep := &engine.DesyncReport{Tick: tick, Scene: int(scene), SceneName: printable(sceneName), SceneTick: sceneTick,
		Simulated: simulated == 1, Start: start}
	n := r.Uvarint()
	if n > uint64(r.Left()/7) {
		r.Bad = true
	}
	for i := uint64(0); i < n && !r.Bad; i++ {
		group, tick, system, sum := r.str(), r.tick(), r.str(), r.U32()
		rep.Systems = append(rep.Systems, engine.SystemSum{Group: printable(group), Tick: tick, System: printable(system), Sum: sum})
	}
	n = r.Uvarint()
	if n > uint64(r.Left()/9) {
		r.Bad = true
	}
	for i := uint64(0); i < n && !r.Bad; i++ {
		name, sum := r.str(), r.U64()
		rep.Parts = append(rep.Parts, engine.StatePart{Name: printable(name), Sum: sum})
	}
	n = r.Uvarint()
	if n > uint64(r.Left()) {
		r.Bad = true
	}
	z := r.Take(int(n))
	if !r.Done() {
		return nil, fmt.Errorf("netplay: a desync report that makes no sense")
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("netplay: a desync report's world: %w", err)
	}
	dump, err := io.ReadAll(io.LimitReader(zr, maxDumpBytes+1))
	if err != nil || len(dump) > maxDumpBytes {
		return nil, fmt.Errorf("netplay: a desync report's world: %v (%d bytes)", err, len(dump))
	}
	rep.Dump = dump
	return rep, nil
}

// reportExchange is a desync report's way between this run and the other
// player's.
type reportExchange struct {
	peer     *peer
	ours     []byte // encoded; nil until the run made it
	acked    int    // pieces of ours the peer holds, from the first
	lastSend time.Time
	found    time.Time // when the desync was found
	deadline time.Time // when the run gives up waiting for theirs
	theirs   []byte
	pieces   int    // theirs, in pieces; 0: not known yet
	have     []bool // which of their pieces arrived
	got      int    // how many, from the first
	report   *engine.DesyncReport
}

// Desync reports the first tick whose final state checksum differs from
// another player's, once found (engine.Reporter).
func (s *Session) Desync() (int64, bool) {
	if s.desync == nil {
		return 0, false
	}
	return s.desync.Tick, true
}

// Compared is the last tick up to which this run's final state checksums
// were compared with every player's that can still send them, and found
// the same (engine.Reporter): a joiner compares with the host, the host
// with every player, a spectator with the host.
func (s *Session) Compared() int64 {
	c := int64(math.MaxInt64)
	for _, p := range s.peers {
		if p.player >= 0 && p.gone == "" && !(p.underWay && !p.started) { // a joiner under way compares from its state on
			c = min(c, p.compared)
		}
	}
	return c
}

// Report takes this run's report of the desync, to send to the other
// player (engine.Reporter).
func (s *Session) Report(r *engine.DesyncReport) {
	if s.desync == nil || s.desync.Report != nil {
		return
	}
	s.desync.Report = r
	s.exchange.ours = encodeReport(r)
	s.exchange.deadline = time.Now().Add(s.timeout)
}

// pieces returns how many pieces b is cut into.
func pieces(b []byte) int { return (len(b) + reportPiece - 1) / reportPiece }

// sendReport sends the other player the pieces of our report it lacks,
// and our acknowledgement of theirs, when it is time.
func (s *Session) sendReport(now time.Time) {
	x := &s.exchange
	if x.peer == nil || x.peer.gone != "" || now.Sub(x.lastSend) < reportResend {
		return
	}
	x.lastSend = now
	n := pieces(x.ours)
	from := x.acked
	if from >= n { // all of ours arrived: acknowledge theirs
		from, n = 0, 0
	}
	for i := from; i < n || i == 0 && n == 0; i++ {
		x.peer.sent++
		s.w.begin(kindReport, s.id, x.peer.sent)
		s.w.uvarint(uint64(s.desync.Tick))
		s.w.u16(uint16(n))
		s.w.u16(uint16(i))
		s.w.u16(uint16(x.got))
		s.w.uvarint(uint64(len(x.ours)))
		if n > 0 {
			s.w.b = append(s.w.b, x.ours[i*reportPiece:min((i+1)*reportPiece, len(x.ours))]...)
		}
		s.write(x.peer.udpAddr, s.w.end())
		if n == 0 {
			break
		}
	}
}

// takeReport takes a piece of the other player's report; it reports false
// when the packet is malformed, having changed nothing: a piece must be
// the size its index and the report's size make it, an acknowledgement
// alone (no pieces) carries no piece, and every piece of a report says the
// same size.
func (s *Session) takeReport(p *peer, payload []byte) bool {
	r := reader{wirebytes.Reader{B: payload}}
	tick, n, i, ack, size := r.tick(), int(r.U16()), int(r.U16()), int(r.U16()), r.Uvarint()
	if r.Bad || size > maxReportBytes {
		return false
	}
	data := r.B[r.Off:]
	switch {
	case n == 0 && (i != 0 || len(data) != 0):
		return false
	case n > 0 && (i >= n || (int(size)+reportPiece-1)/reportPiece != n || len(data) != min(reportPiece, int(size)-i*reportPiece)):
		return false
	}
	x := &s.exchange
	if s.desync == nil || x.peer != p || tick != s.desync.Tick {
		return true // a report of a desync not found here (yet): it is sent again
	}
	if n > 0 && x.report == nil && x.pieces != 0 && (x.pieces != n || len(x.theirs) != int(size)) {
		return false // another report than its first piece said
	}
	x.acked = max(x.acked, min(ack, pieces(x.ours)))
	if n == 0 || x.report != nil {
		return true
	}
	if x.pieces == 0 {
		x.pieces, x.theirs, x.have = n, make([]byte, size), make([]bool, n)
	}
	if !x.have[i] {
		copy(x.theirs[i*reportPiece:], data)
		x.have[i] = true
		for x.got < n && x.have[x.got] {
			x.got++
		}
	}
	if x.got == n {
		rep, err := decodeReport(x.theirs)
		if err != nil || rep.Tick != s.desync.Tick {
			s.logf("player %d's desync report: %v", p.player+1, err)
			x.report = &engine.DesyncReport{Tick: s.desync.Tick} // what it sent is useless: none
		} else {
			x.report = rep
		}
	}
	return true
}

// desyncDone ends the session with the desync once both reports are in,
// or the wait for theirs is over.
func (s *Session) desyncDone(now time.Time) {
	x := &s.exchange
	d := s.desync
	if d.Report == nil {
		return
	}
	theirs := x.report != nil && x.report.Scene > 0
	if !theirs && now.Before(x.deadline) && x.peer.gone == "" {
		return
	}
	if x.acked < pieces(x.ours) && now.Before(x.deadline) && x.peer.gone == "" {
		return // ours is on its way: it needs it too
	}
	if theirs {
		d.OtherReport = x.report
	}
	d.explain()
	d.Took = now.Sub(x.found)
	s.err = d
}
