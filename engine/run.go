package engine

import (
	"context"
	"errors"
	"time"
)

// Options configure [Run] and [RunOn]: the loop's configuration, its input,
// the recording or replay of the run, and hooks for tools. The zero value
// (or nil) runs the scenes with the default loop, headless by [Run].
type Options struct {
	// Context, when cancelled, ends the event stream after the current
	// event, as Stop does, and the scene chain with it (even scenes that
	// never ask for events); Run then returns an error wrapping the
	// context's error.
	Context context.Context

	// Config is the loop's configuration.
	Config Config

	// Headless configures [Run]'s headless driver; nil means a manual
	// clock at 60 frames a second (see [Headless]). [RunOn] ignores it.
	Headless *Headless

	// Input replaces the driver's own input, sampled once a frame: the
	// devices in a window, nothing headless. It is for devices (or a test
	// that plays a device): what a frame-sampled source gives depends on the
	// frame rate. An autopilot, a script or a bot goes in TickInput.
	Input InputSource

	// TickInput, if set, gives every tick of every group its input, one
	// tick at a time, so that it is the same at any frame rate (see
	// [TickInput]); a scene's own [Loop.SetTickInput] takes precedence for
	// its group. Input events still carry the frame's sample. It lives
	// through the whole run and is asked once per tick: a step back's
	// re-run does not ask it again (see [TickInput]: what a source may
	// hold).
	TickInput TickInput

	// Record, if set, receives the run: every scene's timeline and the input
	// of every tick (see [InputLog]). It must be new (or just given a file
	// by [InputLog.Create]); Run marks it complete when the chain ends and
	// writes its file's last records, but does not close the file.
	Record *InputLog

	// SyncTest, when positive, asks the scene to check its determinism as
	// it runs: before every tick of its first group, roll its state back
	// SyncTest ticks, simulate them again with the same input, and compare
	// every tick's state checksum with the first pass's (the test mode of
	// rollback netcode, as GGRS's SyncTest). The loop only carries it (LoopSession.SyncTest); a
	// scene built on stage.Stage does the checking. At most MaxSyncTest.
	//
	// The check never changes the run: the ticks simulated again get the
	// input the first pass recorded (no TickInput is asked again, see
	// [TickInput]), and a run under SyncTest takes the same input on the
	// same ticks and ends with the state of the run without it, or stops
	// at the first tick where it cannot, naming what differed: state the
	// scene keeps outside what it restores, a nondeterministic system, or
	// a TickInput whose state is in the scene's (refused as it changes it).
	SyncTest int

	// Keyframes, when positive, has the loop take a keyframe of the
	// scene's state (a SceneState: stage.Stage gives it) every Keyframes
	// ticks of its first group, keeping the last KeyframeSlots, so that
	// Rewinder.Back restores one and simulates fewer than Keyframes ticks
	// again instead of re-running the run (see SceneState). A keyframe
	// costs about one physics step of the scene (BenchmarkStepBack, package
	// scenes, measures both). cli.App sets DefaultKeyframes for a window
	// run. At most MaxKeyframes.
	Keyframes int

	// StopAt, when positive, stops the run (as Loop.Stop does) right after
	// the tick that brings the game time of its scenes' first groups, summed
	// over the scenes, to StopAt: the same tick at any frame rate.
	StopAt time.Duration

	// OnEvent's hooks see every event as the loop delivers it, before the
	// scene does, each in turn in the list's order: for measurements and
	// tools. AfterFrame's are called once the scene has handled each Render
	// event (its Screen then holds the frame the scene drew, until the next
	// event). They run on the loop's goroutine; calling them allocates
	// nothing, and they should not allocate either if frames are to stay
	// allocation-free.
	OnEvent, AfterFrame []EventHook

	// AfterUpdate's hooks are called, in order, once the scene has handled
	// each Update event (at the next call to Loop.Next): the state after
	// that tick, for a dump (Recording.DumpState) or a measurement.
	AfterUpdate []EventHook

	// OnFinish's hooks are called, in order, once when the run ends
	// (Loop.Finish), with the loop and its final counters (Loop.Stats):
	// for a summary.
	OnFinish []FinishHook

	// OnDivergence, if set, is told of a replay's divergence as it is
	// found, with the scene's state still as it diverged (Recording.DumpState
	// writes it); it may fill in the error's Dump.
	OnDivergence func(loop *Loop, err *DivergenceError)

	// Restart, if set, makes the run's first scene anew, for Rewinder.Back,
	// which re-runs the run from it. cli.App sets it.
	Restart func() (Scene, error)

	// Game names the game and its version in the saves the run writes
	// (Loop.Save); Load refuses a save of another.
	Game GameInfo

	// Load, if set, goes on from a save (LoadSave): the run simulates the
	// saved run again at full speed from its first scene (a fresh one, as
	// Run's first) to the save's tick, checking its checksums, and goes on
	// live from there; its recording (Record) holds the whole run, the
	// saved part included. A save of another Game, or with Replay, is an
	// error before anything runs.
	Load *Save

	// FromState, if set, is a state file (Recording.AppendState's) that the
	// run begins from: of its first scene, which is made as ever, or of a
	// later scene, which the first scene makes afresh (a SceneMaker; the
	// first is then not run). The state is read into the scene before its
	// first tick, and the run goes on from the state's tick (a session's
	// ticks too). See Recording.AppendState; a state of another Game or
	// determinism version, or of a scene the run's first does not make, is
	// an error; with Replay, Load, Record, SyncTest or Keyframes it is one too.
	FromState []byte

	// Session, if set, makes the run networked (package engine/netplay):
	// every tick's players' input comes from it, and the loop rolls back
	// and simulates again where a prediction proves wrong (see Session).
	// It needs scenes that give the loop their state (Recording.SetSceneState) and
	// end through LoopSession.Settle (stage.Stage does both); with Replay, Load
	// or SyncTest it is an error.
	Session Session

	// SparseSaving makes a Session's run keep fewer states: the state
	// before the first tick whose input is not all confirmed, each time a
	// tick at that point runs, and at least every SparseInterval ticks,
	// rather than the state before every tick that runs with a
	// prediction. A rollback then goes back to the last state kept at or
	// before the tick that proved wrong, which may be a few ticks further
	// than that tick, and simulates again from there. It suits a scene
	// whose state costs a good part of a tick to keep (many physics
	// bodies): as inputs arrive in order, each rollback keeps one state
	// instead of one for each tick it simulates again
	// (BenchmarkRollbackBodymark's sparse figure). As GGRS's sparse saving
	// mode. Without a Session it is an error.
	SparseSaving bool

	// Replay, if set, feeds every tick the input it had when recorded, in
	// place of live input and TickInput (Input events still carry the live
	// sample), checks the state, and ends the run where the recording
	// ended; [InputLog.Replayed] then says how far it went.
	Replay *InputLog
}

// Run runs the scene chain that starts with first headless (see
// [Headless]; opts.Headless configures it), handing each scene the loop,
// until a scene returns nil, [Loop.Stop] is called, a headless limit is
// reached or the context is cancelled. It returns nil in the first three
// cases, and otherwise the first error, wrapped in a *SceneError naming
// the scene. A panic in a scene is recovered into such an error. It needs
// no display and no cgo: package engine/window runs the same chain in a
// window (window.Run).
func Run(first Scene, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	h := opts.Headless
	if h == nil {
		h = &Headless{}
	}
	d, err := newHeadlessDriver(h)
	if err != nil {
		return err
	}
	return RunOn(d, first, opts)
}

// An EventHook is told of an event of the loop ([Options.OnEvent],
// [Options.AfterFrame], [Options.AfterUpdate]). A func of this shape is
// one: a list is written []engine.EventHook{probe.event, dump.afterUpdate}.
type EventHook func(loop *Loop, ev Event)

// A FinishHook is told that the run ended ([Options.OnFinish]).
type FinishHook func(loop *Loop)

// A Driver is a platform a loop runs on: it says when a frame begins and
// when it can be drawn. Both may block (the headless driver sleeps in real
// time, the window driver suspends the scene's coroutine until ebiten
// calls Update or Draw) and report false once the platform has stopped
// (its window closed). BeginFrame returns the time of the driver's clock;
// BeginRender returns what Render events carry as Event.Screen (nil: the
// frame is not drawn).
//
// A driver may also be an [InputSource], sampled once a frame unless
// Options.Input replaces it (the window driver's devices), a [Holder] and
// a [FrameEnder].
type Driver interface {
	BeginFrame() (now time.Duration, ok bool)
	BeginRender() (screen any, ok bool)
}

// A Holder is a [Driver] that can hold game time: while Held reports true
// (a window that lost the focus, when its options say to pause then), no
// tick runs, as in a pause, but apart from the scene's own pause (see
// [Loop.FocusPaused]). The loop asks once a frame.
type Holder interface {
	Held() bool
}

// A FrameEnder is a [Driver] told when the scene has drawn a whole frame:
// every render system has run on the Render event's screen, which is still
// the driver's. EndFrame runs on the loop's goroutine, before
// Options.AfterFrame sees the frame (the window driver saves screenshots
// there).
type FrameEnder interface {
	EndFrame()
}

// MaxSyncTest is the most ticks Options.SyncTest rolls back: a second of a
// 60 Hz game, each tick simulated that many times over.
const MaxSyncTest = 60

// ErrNilScene is the error of [Run], [RunOn], [Loop.Run] and the window's
// Run when the first scene is nil: nothing runs and nothing is recorded.
var ErrNilScene = errors.New("engine: Run: the first scene is nil")

// RunOn runs the scene chain that starts with first on driver d, as [Run]
// does headless: [NewLoop], then [Loop.Run].
func RunOn(d Driver, first Scene, opts *Options) error {
	if first == nil {
		return ErrNilScene
	}
	loop, err := NewLoop(d, opts)
	if err != nil {
		return err
	}
	return loop.Run(first)
}
