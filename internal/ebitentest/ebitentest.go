// Package ebitentest runs a package's tests beside a running ebiten game,
// as ebiten's own tests do: ebiten's images can be drawn and read only
// while its game runs, and ebiten.RunGame runs once per process, on the
// main goroutine. So Main runs the tests (m.Run) on another goroutine while
// the main goroutine runs a small game, and tests that draw hand their work
// to the game's Update with OnGame.
//
// Tests that never call OnGame (physics, AI) run as they would without it,
// display or not, allocation counts included: the game does nothing between
// calls. m.Run starts only once the game has started, and Update then blocks
// until it is handed work; OnGame returns only once the frame that follows
// the work is over and the game blocks again. So ebiten's own allocations
// (starting up, each frame) never land inside another test's
// testing.AllocsPerRun.
//
// Without a DISPLAY, Main only runs m.Run; OnGame then skips the test, or
// fails it when CI is set (CI runs everything under xvfb-run: make test).
package ebitentest

import (
	"fmt"
	"os"
	"runtime/debug"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// theGame is the running test game, nil without a display.
var theGame *testGame

type testGame struct {
	calls    chan gameCall
	ready    chan struct{} // closed by the first Update
	done     chan struct{} // closed when m.Run has returned
	ended    chan struct{} // closed when RunGame has returned
	runErr   error         // RunGame's error, readable once ended is closed
	started  bool
	finished chan struct{} // the last call's, closed at the next Update
}

// gameCall is work for the game goroutine, and the channel closed once it
// and the frame after it are over.
type gameCall struct {
	f        func()
	finished chan struct{}
}

// Main runs the package's tests beside a test game, and exits with their
// status: call it from TestMain. A process with any of the environment
// variables noGame set (a child process that runs a real window of its
// own, which owns RunGame there) or without a DISPLAY runs its tests
// without the game.
func Main(m *testing.M, noGame ...string) {
	skip := os.Getenv("DISPLAY") == ""
	for _, env := range noGame {
		skip = skip || os.Getenv(env) != ""
	}
	if skip {
		os.Exit(m.Run())
	}
	g := &testGame{calls: make(chan gameCall), ready: make(chan struct{}), done: make(chan struct{}),
		ended: make(chan struct{})}
	theGame = g
	code := 0
	go func() {
		defer close(g.done)
		select { // start the tests once the game idles (or has failed)
		case <-g.ready:
		case <-g.ended:
		}
		code = m.Run()
	}()
	ebiten.SetWindowTitle("test")
	ebiten.SetWindowSize(64, 64)
	g.runErr = ebiten.RunGame(g)
	close(g.ended)
	<-g.done
	if g.runErr != nil {
		fmt.Fprintf(os.Stderr, "test: ebiten.RunGame: %v\n", g.runErr)
	}
	os.Exit(code)
}

// Update reports the previous call finished (its frame is over), then waits
// for the next call and runs it, or ends the game once the tests are done.
func (g *testGame) Update() error {
	if g.finished != nil {
		close(g.finished)
		g.finished = nil
	}
	if !g.started {
		g.started = true
		close(g.ready)
	}
	select {
	case c := <-g.calls:
		c.f()
		g.finished = c.finished
		return nil
	case <-g.done:
		return ebiten.Termination
	}
}

func (g *testGame) Draw(*ebiten.Image) {}

func (g *testGame) Layout(int, int) (int, int) { return 64, 64 }

// NeedGame skips tb, or fails it in CI, when no ebiten game is running.
func NeedGame(tb testing.TB) {
	tb.Helper()
	why := ""
	if theGame == nil {
		why = "no DISPLAY"
	} else {
		select {
		case <-theGame.ended:
			why = fmt.Sprintf("the ebiten game is not running (RunGame: %v)", theGame.runErr)
		default:
			return
		}
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s in CI: run the tests under xvfb-run -a (make test)", why)
	}
	tb.Skipf("%s: this test draws; run it under xvfb-run -a (make test)", why)
}

// OnGame runs f on ebiten's game goroutine, inside Update, and waits for it
// and for the frame after it: there f may create images, draw and read
// pixels. f must not call tb.Fatal, FailNow or Skip (they must run on the
// test's goroutine); tb.Error and tb.Log are fine. A panic in f is raised
// again on the test's goroutine. Without a running game, OnGame skips tb
// (fails it in CI).
func OnGame(tb testing.TB, f func()) {
	tb.Helper()
	NeedGame(tb)
	var (
		panicked bool
		value    any
		stack    []byte
	)
	finished := make(chan struct{})
	call := func() {
		defer func() {
			if v := recover(); v != nil {
				panicked, value, stack = true, v, debug.Stack()
			}
		}()
		f()
	}
	select {
	case theGame.calls <- gameCall{f: call, finished: finished}:
	case <-theGame.ended:
		tb.Fatalf("the ebiten game ended: %v", theGame.runErr)
	}
	select {
	case <-finished:
	case <-theGame.ended: // RunGame failed in the frame after f
	}
	if panicked {
		panic(fmt.Sprintf("on the game goroutine: %v\n%s", value, stack))
	}
}

// RaceEnabled reports whether the test binary was built with -race.
// ebiten's DrawImage takes a buffer from a sync.Pool, which the race
// detector empties at random, so allocation counts of code that draws are
// meaningful only without it.
func RaceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}
