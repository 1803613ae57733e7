package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"sync/atomic"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// ErrGameTimeLimit ends a loop whose game time would pass what a
// time.Duration holds (292 years): the loop stops with it rather than wrap
// around, once game time is within two MaxDelta of the largest Duration.
var ErrGameTimeLimit = errors.New("engine: game time reached the largest time.Duration (292 years): the loop stopped rather than wrap around")

// addSaturated adds d >= 0 to *sum, stopping at the largest time.Duration.
func addSaturated(sum *time.Duration, d time.Duration) {
	if *sum > math.MaxInt64-d {
		*sum = math.MaxInt64
		return
	}
	*sum += d
}

type loopState uint8

const (
	stateFrame   loopState = iota // next: start a frame (clock, input, advance game time)
	stateUpdates                  // next: deliver due ticks, then render
	stateRender                   // next: render
)

// scaleOne is time scale 1 in the loop's fixed-point time scale.
const scaleOne = 1 << 20

// group is the loop's state for one rate group in the current timeline.
type group struct {
	Group
	rate    rate.Rate
	dt      float64       // 1/Hz seconds
	ticks   int64         // ticks delivered since the timeline began
	lastDue time.Duration // due time of tick `ticks`
	nextDue time.Duration // due time of tick `ticks+1`
	inFrame int           // new ticks delivered in the current frame
	ran     int64         // the most ticks delivered: a tick at or below it is simulated again (a rollback)

	pending input.State                   // edges since this group's last tick
	srcPrev input.State                   // the held state a TickInput gave the tick before
	players [input.MaxPlayers]input.State // what the current tick sees, per player: players[0] is Event.Input
	netAcc  [input.MaxPlayers]input.State // a session: the first group's players' input since this group's last tick
}

// Loop is the game loop: a value that a scene pulls events from and hands on to
// the next scene, as in Piston. It runs one or more fixed-rate groups over one
// timeline of game time, and renders once per frame with an interpolation
// alpha. A Loop is driven by one goroutine (the scene's); only [Loop.Stop] may
// be called from others. Next and everything it calls allocate nothing.
//
// The rules it keeps, each tested in loop_test.go:
//
//  1. Time is integer nanoseconds read from a [Clock], once per frame.
//  2. Tick k of a group at Hz is due at exactly k*1e9/Hz ns of game time;
//     due ticks of all groups arrive in due-time order, ties in declaration order.
//  3. Game time advances by real time times the time scale, at most MaxDelta a
//     frame. Pause stops it; a single step runs exactly one tick of the first group.
//  4. Input comes first, and each press reaches exactly one tick of each group
//     (a press made while paused reaches none: keys and buttons held still do).
//  5. At most MaxUpdatesPerFrame ticks of a group run between two renders; the
//     rest is dropped (reported) or carried.
//  6. Render gets Alpha in [0,1) and ExtDT.
//  7. A frame whose length is within PacingTolerance of whole ticks is snapped
//     to them, the difference carried: no 0/2 alternation.
//  8. A scene starts a fresh timeline, so its loading time is never caught up.
//  9. Window close, Stop, Fail or a cancelled context end the event stream,
//     after the current event.
//  10. A recording is the whole run: a replay feeds every tick its recorded
//     input, checks the state, and ends where the recording ended (see
//     [InputLog]).
type Loop struct {
	cfg       Config
	driver    Driver
	holder    Holder     // the driver, if it holds game time
	ender     FrameEnder // the driver, if it is told of each frame drawn
	input     InputSource
	tickInput TickInput   // Options.TickInput
	tickSrc   []TickInput // per group, set by the scene (SetTickInput)
	ctx       context.Context
	done      <-chan struct{} // the context's, nil if it cannot be cancelled
	cancelled atomic.Bool     // the context was cancelled: Stop, with its error
	release   func() bool     // unregisters the context's callback
	sceneName string          // the scene Run is running

	onEvent     []EventHook  // Options.OnEvent
	afterFrame  []EventHook  // Options.AfterFrame
	afterUpdate []EventHook  // Options.AfterUpdate
	onFinish    []FinishHook // Options.OnFinish

	rec        recorder      // recording, replay, checksums, the bisector, rewinds
	updateDone bool          // the Update event delivered last has been followed up
	drawn      bool          // a Render was delivered: EndFrame and AfterFrame are due
	stopAt     time.Duration // Options.StopAt
	syncTest   int           // Options.SyncTest
	keyframes  int64         // Options.Keyframes
	game       GameInfo      // Options.Game
	ranBefore  time.Duration // game time of the first groups of the timelines before this one
	players    int           // players whose input every tick holds: 1, a session's, a replay's
	pathNames  bool          // the run replays a recording whose checksums name types by package path
	net        netplay       // Options.Session's side of the loop (session.go)
	again      bool          // in SimulateAgain: a scene's own second pass over past ticks

	// the current timeline
	groups      []group
	begun       bool          // Start has run for the current scene
	clockSeen   bool          // the timeline has read the clock once
	lastNow     time.Duration // the latest clock reading: real time is counted up to it
	lastRead    time.Duration // the previous frame's clock reading
	gameTime    time.Duration
	tickedUntil time.Duration // game time at the frame start, then the due time of each tick delivered
	scaleNum    uint64        // time scale in units of 1/scaleOne
	scaleRem    uint64        // remainder of scaled time, carried
	pacingCarry time.Duration // real minus snapped game time, carried
	pacingTol   time.Duration
	paused      bool
	focusPaused bool // held by the driver (a Holder): a window lost focus
	stepWanted  bool
	stepping    bool // this frame is a single step

	state              loopState
	ev                 Event
	frame              int64
	sample, prevSample input.State
	scratch            input.State // a tick source's answer that the recording's replaces
	stopWanted         atomic.Bool
	stopped            bool
	err                error
	stats              LoopStats
	scenes             int  // timelines started
	finished           bool // Finish has run
}

// NewLoop returns a loop on driver d with the configuration, input,
// context, recording and replay of opts (nil: the defaults), for a driver
// that runs the chain itself: it calls [Loop.Run] (package engine/window
// does, inside ebiten's game loop). A bad option is an error here, before
// anything runs: a *ConfigError for a bad Config or StopAt, an error for a
// recording that is not new.
func NewLoop(d Driver, opts *Options) (*Loop, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Record != nil && (opts.Record.Scenes() > 0 || opts.Record.Complete()) {
		return nil, errors.New("engine: Run: Options.Record holds a recording already: give it a new InputLog")
	}
	cfg, err := opts.Config.withDefaults()
	if err != nil {
		return nil, err
	}
	input := opts.Input
	if src, ok := d.(InputSource); ok && input == nil {
		input = src
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.StopAt < 0 {
		return nil, &ConfigError{"Options.StopAt", opts.StopAt, "must not be negative (0 means no limit)"}
	}
	if opts.SyncTest < 0 || opts.SyncTest > MaxSyncTest {
		return nil, &ConfigError{"Options.SyncTest", opts.SyncTest, fmt.Sprintf("must be in [0, %d] ticks (0: off)", MaxSyncTest)}
	}
	if opts.Keyframes < 0 || opts.Keyframes > MaxKeyframes {
		return nil, &ConfigError{"Options.Keyframes", opts.Keyframes, fmt.Sprintf("must be in [0, %d] ticks (0: none)", MaxKeyframes)}
	}
	if opts.Load != nil && opts.Replay != nil {
		return nil, errors.New("engine: Run: Options.Load and Options.Replay: a run goes on from a save or replays a recording, not both")
	}
	if opts.Load != nil {
		if err := opts.Load.CheckGame(opts.Game); err != nil {
			return nil, err
		}
		if err := checkDeterminism("save", opts.Load.log); err != nil {
			return nil, err
		}
	}
	if opts.Replay != nil {
		if err := checkDeterminism("recording", opts.Replay); err != nil {
			return nil, err
		}
	}
	pathNames := opts.Replay != nil && opts.Replay.pathNames() || opts.Load != nil && opts.Load.log.pathNames()
	if opts.Record != nil {
		opts.Record.determinism = Determinism
		if pathNames { // its checksums are named as the recording's: it is one of that format
			opts.Record.version = inputlog.LastPathNames
			if f := opts.Record.log.File; f != nil {
				f.SetVersion(inputlog.LastPathNames)
			}
		}
	}
	if err := checkSession(opts); err != nil {
		return nil, err
	}
	players := 1
	switch {
	case opts.Session != nil:
		players = opts.Session.Players()
	case opts.Replay != nil:
		players = max(opts.Replay.log.Players, 1)
	case opts.Load != nil:
		players = max(opts.Load.log.log.Players, 1)
	}
	if r := opts.Record; r != nil && max(r.Players, 1) != players {
		if r.log.File != nil {
			return nil, fmt.Errorf("engine: Run: Options.Record has %d players and a file already; the run has %d: set InputLog.Players before Create", max(r.Players, 1), players)
		}
		r.Players = players
	}
	l := &Loop{cfg: cfg, driver: d, input: input, tickInput: opts.TickInput, ctx: ctx, done: ctx.Done(),
		scaleNum: scaleFixed(cfg.TimeScale), onEvent: opts.OnEvent, afterFrame: opts.AfterFrame,
		afterUpdate: opts.AfterUpdate, stopAt: opts.StopAt, syncTest: opts.SyncTest, keyframes: int64(opts.Keyframes),
		game: opts.Game, onFinish: opts.OnFinish, players: players, pathNames: pathNames, net: netplay{session: opts.Session, sparse: opts.SparseSaving}}
	l.rec = recorder{loop: l, record: opts.Record, replay: opts.Replay, onDivergence: opts.OnDivergence,
		restart: opts.Restart}
	if err := l.rec.begin(opts); err != nil { // Options.Load, Options.FromState
		return nil, err
	}
	l.holder, _ = d.(Holder)
	l.ender, _ = d.(FrameEnder)
	if a, ok := d.(interface{ attach(*Loop) }); ok {
		a.attach(l)
	}
	// The callback wakes a driver that waits (a sleep, a suspended
	// coroutine); Next also looks at the context itself, so that a cancel
	// ends the stream after the current event, as Stop does.
	l.release = context.AfterFunc(ctx, func() {
		l.cancelled.Store(true)
		l.stopWanted.Store(true)
	})
	return l, nil
}

func scaleFixed(s float64) uint64 { return uint64(math.Round(s * scaleOne)) } //detcheck:ok s in [0, maxTimeScale]: checkScale

// Start begins a fresh timeline with the given rate groups (one group "update"
// at 60 Hz if none are given): game time 0, no ticks, and a clock base taken at
// the first frame, so that the time spent before it (loading a scene) never
// becomes catch-up ticks. It clears pause. A bad rate is a *ConfigError naming
// the group, also kept in [Loop.Err].
//
// A scene calls Start (or [Loop.Events], which calls it) once it has loaded;
// a scene that calls [Loop.Next] without it gets the default group.
func (l *Loop) Start(groups ...Group) error {
	if len(groups) == 0 {
		groups = []Group{{Name: "update", Hz: DefaultHz}}
	}
	rates, err := checkGroups(groups)
	if err != nil {
		l.fail(err)
		return err
	}
	if l.begun { // the scene starts another timeline: the last one ends here
		if err := l.endTimeline(EndRestarted, nil); err != nil {
			l.fail(err)
			return err
		}
	}
	if cap(l.groups) < len(groups) {
		l.groups = make([]group, len(groups))
	}
	l.groups = l.groups[:len(groups)]
	for i := range l.groups {
		r := rates[i]
		l.groups[i] = group{Group: groups[i], rate: r, dt: 1 / r.Hz(), nextDue: r.Due(1)}
	}
	l.begun, l.clockSeen = true, false
	l.gameTime, l.pacingCarry, l.scaleRem = 0, 0, 0
	l.paused, l.stepWanted, l.stepping = false, false, false
	l.pacingTol = min(l.cfg.PacingTolerance, l.groups[0].rate.Period()/4)
	l.state = stateFrame
	l.scenes++
	l.net.beginTimeline()
	return l.rec.beginTimeline(groups)
}

// Events starts a fresh timeline with the given groups (see [Loop.Start]) and
// returns its events, ending when the loop stops:
//
//	for ev := range loop.Events(sched.Groups()...) { ... }
//
// After the range ends, [Loop.Err] says why.
func (l *Loop) Events(groups ...Group) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		if l.Start(groups...) != nil {
			return
		}
		for l.Next() {
			if !yield(l.ev) {
				return
			}
		}
	}
}

// Next advances to the next event, blocking until it is due, and reports false
// once the loop has stopped. The event is read with [Loop.Event].
func (l *Loop) Next() bool {
	if !l.begun && l.Start() != nil {
		return false
	}
	if l.drawn { // the scene has drawn the last Render event's frame
		l.drawn = false
		if l.ender != nil {
			l.ender.EndFrame()
		}
		for _, f := range l.afterFrame {
			f(l, l.ev)
		}
	}
	l.followUp()
	if !l.next() {
		return false
	}
	for _, f := range l.onEvent {
		f(l, l.ev)
	}
	return true
}

// next is Next without the hooks.
func (l *Loop) next() bool {
	if l.rec.save != nil {
		l.rec.maybeSave()
	}
	for {
		if l.Stopped() {
			l.halt()
			return false
		}
		switch l.state {
		case stateFrame:
			if !l.beginFrame() {
				l.halt()
				return false
			}
			l.state = stateUpdates
			l.ev = Event{Kind: Input, Frame: l.frame, Time: l.tickedUntil, Input: &l.sample}
			return true
		case stateUpdates:
			if r := &l.rec; r.rewind != nil && r.rewind.keyframe {
				if err := r.restoreKeyframe(); err != nil {
					l.fail(err)
					continue
				}
			}
			if l.nextTick() {
				return true
			}
			l.state = stateRender
		case stateRender:
			if err := l.rec.beforeRender(); err != nil {
				l.fail(err)
				continue
			}
			if l.net.session != nil && !l.net.endFrame(l) {
				continue
			}
			screen, ok := l.driver.BeginRender()
			if !ok {
				l.stopped = true
				return false
			}
			l.state = stateFrame
			g := &l.groups[0]
			l.ev = Event{Kind: Render, Frame: l.frame, Time: l.gameTime,
				Alpha: l.Alpha(0), ExtDT: l.gameTime - g.lastDue, Screen: screen}
			l.drawn = l.ender != nil || len(l.afterFrame) > 0
			return true
		}
	}
}

// Event returns the current event.
func (l *Loop) Event() Event { return l.ev }

// halt ends the event stream, with the context's error if it was cancelled.
func (l *Loop) halt() {
	l.stopped = true
	if l.cancelled.Load() {
		l.fail(l.ctx.Err())
	}
}

// contextDone reports whether the context was cancelled, without waiting
// for its callback.
func (l *Loop) contextDone() bool {
	if l.done == nil {
		return false
	}
	select {
	case <-l.done:
		l.cancelled.Store(true)
		return true
	default:
		return false
	}
}

// beginFrame writes the recording so far, waits for the driver, samples
// input and advances game time.
func (l *Loop) beginFrame() bool {
	if err := l.rec.beginFrame(); err != nil {
		l.fail(err)
		return false
	}
	now, ok := l.driver.BeginFrame()
	if !ok || l.stopWanted.Load() { // the window may have closed while it waited
		return false
	}
	if l.holder != nil && l.net.session == nil { // a session plays on: the other players do
		l.focusPaused = l.holder.Held()
	}
	if l.net.session != nil && !l.net.beginFrame(l) {
		return false
	}
	l.rec.frameBegun()
	l.frame++
	l.stats.Frames = l.frame
	l.prevSample = l.sample
	l.sample = input.State{}
	if l.input != nil {
		l.input.Sample(l.frame, &l.sample)
	}
	l.sample.DeriveEdges(&l.prevSample)
	l.tickedUntil = l.gameTime
	if !l.advance(now) {
		return false
	}
	if l.cfg.Overrun == Drop && !l.stepping && l.rec.seek == nil {
		l.dropOverrun()
	}
	held := l.held()
	for i := range l.groups {
		g := &l.groups[i]
		g.inFrame = 0
		g.pending.Accumulate(&l.sample)
		if held { // rule 4: a press made while paused was for the pause, not for a tick
			g.pending.ClearEdges()
		}
	}
	return true
}

// nextTick delivers the next due tick, if any, in steps: which group's
// tick is due, whether it may run now, the session's and the recorder's
// work before it, its input, and the Update event.
func (l *Loop) nextTick() bool {
	i := l.dueGroup()
	if i < 0 {
		return false
	}
	g := &l.groups[i]
	fresh := g.ticks >= g.ran // not a rollback's tick simulated again
	if !l.mayRun(i, fresh) || !l.beforeTick(i, fresh) {
		return false
	}
	l.startTick(g, fresh)
	l.tickInputOf(i, g)
	l.deliver(i, g)
	return true
}

// held reports whether game time stands still (rule 3): paused or held by
// the driver, but for a single step and a rewind's re-run (which goes back
// to a paused game).
func (l *Loop) held() bool {
	return (l.paused || l.focusPaused) && !l.stepping && l.rec.seek == nil
}

// dueGroup returns the group whose next tick is due first (rule 2: ties in
// declaration order), or -1: none is due, game time is held (rule 3), or a
// session's rollback failed. A session rolls back first when a tick ran
// with a wrong prediction: the tick due is then the one after the tick it
// went back to.
func (l *Loop) dueGroup() int {
	if l.held() {
		return -1
	}
	if l.net.session != nil && !l.net.rollback(l) {
		return -1
	}
	best := -1
	for i := range l.groups {
		g := &l.groups[i]
		if g.nextDue <= l.gameTime && (best < 0 || g.nextDue < l.groups[best].nextDue) {
			best = i
		}
	}
	return best
}

// mayRun reports whether the due tick of group i may run in this frame:
// a replay runs no tick past its recording's end (rule 10); at most
// tickLimit fresh ticks of a group run between two renders (rule 5: Drop
// has cut game time already, this bounds Carry), while a rollback's ticks
// simulated again do not count; and in a session no fresh tick of any group
// runs once the scene, or the run, is over.
func (l *Loop) mayRun(i int, fresh bool) bool {
	switch {
	case !l.rec.mayTick(i):
		return false
	case !fresh:
		return true
	case l.groups[i].inFrame >= l.tickLimit(i):
		return false
	}
	return l.net.session == nil || !l.net.settle && !l.net.stopWhenFinal
}

// tickLimit is how many ticks of group g a frame may run (rule 5): a
// single step runs one tick of the first group and the others up to it, a
// rewind's re-run everything up to where it goes.
func (l *Loop) tickLimit(g int) int {
	switch {
	case l.rec.seek != nil:
		return math.MaxInt
	case l.stepping && g > 0:
		return math.MaxInt
	case l.stepping:
		return 1
	}
	return l.cfg.MaxUpdatesPerFrame
}

// beforeTick does what is due before a tick of the first group, and
// reports whether the tick runs now: the session may hold it back (its
// players' input is not there yet) and keeps the state before it, for a
// rollback; the recorder takes a keyframe when one is due
// (Options.Keyframes).
func (l *Loop) beforeTick(i int, fresh bool) bool {
	if i != 0 {
		return true
	}
	if jumped, err := l.jump(); jumped || err != nil {
		l.net.restored = 0 // the state is another
		if err != nil {
			l.fail(err)
		}
		return false
	}
	if l.net.session != nil && !l.net.beforeTick(l, fresh) {
		return false
	}
	if l.keyframes > 0 && l.rec.state != nil {
		if err := l.rec.maybeKeyframe(); err != nil {
			l.fail(err)
			return false
		}
	}
	return true
}

// startTick moves group g's clock on to its due tick.
func (l *Loop) startTick(g *group, fresh bool) {
	g.ticks++
	if fresh {
		g.ran = g.ticks
		g.inFrame++
	}
	l.net.resim = !fresh
	g.lastDue, g.nextDue = g.nextDue, g.rate.Due(g.ticks+1)
	l.tickedUntil = g.lastDue
}

// deliver makes the Update event of group g's tick, whose input is set:
// the recording keeps the input and the state checksum is due (rule 10),
// and the first group's tick that reaches Options.StopAt is the run's last.
func (l *Loop) deliver(i int, g *group) {
	players := g.players[:l.players]
	l.rec.tickDelivered(i, g.ticks, players)
	l.ev = Event{Kind: Update, Frame: l.frame, Time: g.lastDue, Group: i, Tick: g.ticks,
		DT: g.dt, Input: &g.players[0], Players: players}
	l.updateDone = false
	if i == 0 && l.reachesStop(g.lastDue) {
		l.stopAfter() // after this tick: Options.StopAt
	}
}

// reachesStop reports whether the first group's tick due at lastDue in this
// timeline reaches Options.StopAt. The game times of the timelines before
// and of the tick are each rounded down to the nanosecond (rate.Due): a
// nanosecond a timeline is added back, so that a run of several scenes
// stops at the tick where the sum of their exact times reaches StopAt, as
// a run of one scene does, and not a tick after it. A replay adds none:
// its recording ends where the recorded run stopped, at or before the tick
// this gives, and a recording made by an engine that added none (a tick
// later) replays to its end too.
func (l *Loop) reachesStop(lastDue time.Duration) bool {
	slack := time.Duration(l.scenes)
	if l.rec.replay != nil {
		slack = 0
	}
	return l.stopAt > 0 && l.ranBefore+lastDue+slack >= l.stopAt
}

// followUp does what is due once the scene has handled an Update event: the
// bisector's detail of the tick, Options.AfterUpdate, the state checksum.
func (l *Loop) followUp() {
	if l.ev.Kind == Update && !l.updateDone {
		l.updateDone = true
		l.rec.tickHandled(&l.ev)
		for _, f := range l.afterUpdate {
			f(l, l.ev)
		}
		if l.ev.Group == 0 && l.net.session != nil {
			l.net.ticked(l)
		}
	}
	l.rec.checkState()
}

// Alpha returns how far game time is past group g's last tick, in units of its
// step: the exact fraction (now-lastDue)/(nextDue-lastDue), in [0, 1). Under
// Carry, with ticks owed, it stays just below 1. It returns 0 for a group that
// does not exist.
func (l *Loop) Alpha(g int) float64 {
	if uint(g) >= uint(len(l.groups)) {
		return 0
	}
	gr := &l.groups[g]
	a := float64(l.gameTime-gr.lastDue) / float64(gr.nextDue-gr.lastDue)
	if a >= 1 {
		return math.Nextafter(1, 0)
	}
	return max(a, 0)
}

// Ticks returns how many ticks group g has run in the current timeline.
func (l *Loop) Ticks(g int) int64 {
	if uint(g) >= uint(len(l.groups)) {
		return 0
	}
	return l.groups[g].ticks
}

// GameTime returns game time in the current timeline.
func (l *Loop) GameTime() time.Duration { return l.gameTime }

// Stats returns the loop's counters.
func (l *Loop) Stats() LoopStats {
	s := l.stats
	s.GameTime = l.gameTime
	if l.cfg.Overrun == Carry {
		for i := range l.groups {
			g := &l.groups[i]
			if owed := g.rate.Due(g.rate.TicksAt(l.gameTime)) - g.lastDue; owed > s.Owed {
				s.Owed = owed
			}
		}
	}
	return s
}

// Config returns the loop's configuration, defaults filled in.
func (l *Loop) Config() Config { return l.cfg }

// CountSound counts a sound the game takes (package systems/sound calls
// it), for Stats and the run's summary.
func (l *Loop) CountSound() { l.stats.Sounds++ }

// Stop ends the event stream: the next call to Next reports false, and
// [Run] ends after the current scene returns. Safe from any goroutine.
func (l *Loop) Stop() { l.stopWanted.Store(true) }

// stopAfter stops the loop after the tick just delivered (Options.StopAt):
// in a session, once every tick is final (see LoopSession.Settle), so that every
// player's run ends on the same state.
func (l *Loop) stopAfter() {
	if l.net.session != nil {
		l.net.stopWhenFinal = true
		return
	}
	l.Stop()
}

// Stopped reports whether the event stream has ended (or will end before
// the next event: Stop was called, the context cancelled).
func (l *Loop) Stopped() bool { return l.stopped || l.stopWanted.Load() || l.contextDone() }

// Err returns why the event stream ended: nil for a closed window or Stop, the
// context's error for a cancelled context, a configuration error, or the
// error given to [Loop.Fail].
func (l *Loop) Err() error { return l.err }

// Fail ends the event stream with err, as a system that finds the game in a
// state it cannot go on from does: the next call to Next reports false, Err
// returns err (the first error kept if the loop has failed already), and [Run]
// returns it wrapped in a *SceneError naming the scene. A nil err is Stop.
// Call it from the goroutine that drives the loop (a scene or its systems).
func (l *Loop) Fail(err error) {
	if err == nil {
		l.Stop()
		return
	}
	l.fail(err)
}

func (l *Loop) fail(err error) {
	if l.err == nil {
		l.err = err
	}
	l.stopped = true
}

// endTimeline ends the current timeline (a scene returned, stopped,
// failed, or started another): the recording keeps how, and a replay
// checks it did not end before its recording's.
func (l *Loop) endTimeline(end SceneEnd, cause error) error {
	if !l.begun {
		return nil
	}
	l.begun = false
	l.rec.save = nil // a scene that ends on the tick of a save asked for is not saved after it (Save)
	l.ranBefore += l.groups[0].lastDue
	l.net.base += l.groups[0].ticks
	return l.rec.endTimeline(end, cause)
}

// Run runs the scene chain that starts with first on the loop, as [Run]
// does (with rewinds: [Rewinder.Back] makes it run again from a fresh first
// scene), then ends the loop ([Loop.Finish]) and returns the chain's
// error. Call it once.
func (l *Loop) Run(first Scene) error {
	if first == nil {
		return l.Finish(ErrNilScene)
	}
	return l.Finish(l.runChains(first))
}

// Finish ends the loop's run, with err the error it ended with: the
// context is let go, and the recording (Options.Record) is marked whole and
// its file written. It returns err, or the recording's error if err is
// nil. Run calls it; a driver that could not run the chain at all (no
// window could be opened) calls it instead. A second call returns err and
// does nothing.
func (l *Loop) Finish(err error) error {
	if l.finished {
		return err
	}
	l.finished = true
	l.release()
	for _, f := range l.onFinish {
		f(l)
	}
	return l.rec.finish(err)
}
