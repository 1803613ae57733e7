package assets_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/assets"
)

// Tests that read pixels back from the GPU need a running game: TestMain runs
// the whole test binary inside the first Update of a tiny game, as ebiten's
// internal/testing does. Without a display the game is not started, the
// tests that need it skip (or fail when CI is set), and the rest run.

var (
	gameRunning bool   // set while m.Run runs inside the game's Update
	noGameWhy   string // why the game is not running
)

// early is uploaded while the package initialises, before ebiten.RunGame:
// TestUploadBeforeRunGame checks that its pixels arrive.
var early = func() *assets.Bundle {
	b, err := assets.LoadDefault()
	if err != nil {
		panic(err)
	}
	return b
}()

type testGame struct {
	m    *testing.M
	code int
	ran  bool
}

func (g *testGame) Update() error {
	g.ran = true
	gameRunning = true
	g.code = g.m.Run()
	gameRunning = false
	return ebiten.Termination
}

func (*testGame) Draw(*ebiten.Image)         {}
func (*testGame) Layout(int, int) (int, int) { return 64, 64 }

func TestMain(m *testing.M) {
	// On Linux a window needs X11 or Wayland; elsewhere there is always one.
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		noGameWhy = "no display (DISPLAY is empty): run under xvfb-run"
		os.Exit(m.Run())
	}
	g := &testGame{m: m}
	err := ebiten.RunGame(g)
	if !g.ran {
		// The game never started; images can no longer be created, but the
		// tests that do not need them can still run.
		noGameWhy = fmt.Sprintf("ebiten.RunGame: %v", err)
		os.Exit(m.Run())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ebiten.RunGame:", err)
		os.Exit(1)
	}
	os.Exit(g.code)
}

// needGame skips the test unless the game loop is running, or fails it when
// the environment variable CI is set.
func needGame(tb testing.TB) {
	tb.Helper()
	if gameRunning {
		return
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("needs a running ebiten game: %s", noGameWhy)
	}
	tb.Skipf("needs a running ebiten game: %s", noGameWhy)
}
