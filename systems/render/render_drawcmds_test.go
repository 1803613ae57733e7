package render_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
)

// drawCommandsChild, set in the environment, makes TestRenderDrawCommands
// the child: built with ebiten's ebitenginedebug tag, it draws and prints
// ebiten's log of graphics commands between markers.
const drawCommandsChild = "FIXEDSTEP_DRAWCMDS_CHILD"

// drawCommandsSprites is how many sprites the frames of
// TestRenderDrawCommands draw: from one atlas, in 4 layers, turning.
const drawCommandsSprites = 1000

// TestRenderDrawCommands proves batching where it counts, in the GPU draw
// commands ebiten executes, not in the calls made to it: it runs itself again
// as a child process built with ebiten's ebitenginedebug tag, under which
// ebiten prints every command it flushes ("draw-triangles: dst: ... num of
// indices: N ..."), and counts the draw-triangles commands of one frame of
// 1000 sprites drawn by the render system, and of the same frame drawn by a
// raw loop of DrawImage calls. Both must be a handful, not one a sprite, and
// draw 6 indices a sprite. It builds the package again (a minute the first
// time); -short skips it.
func TestRenderDrawCommands(t *testing.T) {
	if os.Getenv(drawCommandsChild) != "" {
		printDrawCommands(t)
		return
	}
	if testing.Short() {
		t.Skip("-short: builds the package with -tags ebitenginedebug")
	}
	ebitentest.NeedGame(t) // the child draws: it needs the display
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the child: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), gocmd, "test", "-tags", "ebitenginedebug", "-count=1",
		"-run", "^TestRenderDrawCommands$", "-v", ".")
	cmd.Env = append(os.Environ(), drawCommandsChild+"=1")
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child (%v): %v\nstdout:\n%s\nstderr:\n%s", cmd.Args, err, out, stderr.Bytes())
	}
	frames := parseDrawCommands(out)
	for _, name := range []string{"engine", "raw-drawimage"} {
		f, ok := frames[name]
		switch {
		case !ok:
			t.Errorf("%s: no frame in the child's output:\n%s", name, out)
		case !f.ended:
			t.Errorf("%s: the frame's log does not end:\n%s", name, out)
		case f.indices < 6*drawCommandsSprites:
			t.Errorf("%s: %d indices drawn, want at least %d (6 a sprite): did ebiten log the frame?\n%s",
				name, f.indices, 6*drawCommandsSprites, f.log)
		case f.commands < 1 || f.commands > 3:
			t.Errorf("%s: %d draw-triangles commands for %d sprites, want 1 to 3:\n%s",
				name, f.commands, drawCommandsSprites, f.log)
		default:
			t.Logf("%s: %d sprites, %d API calls, %d GPU draw-triangles commands (%d indices)",
				name, drawCommandsSprites, f.calls, f.commands, f.indices)
		}
	}
}

// drawCommandsFrame is what ebiten logged of one frame in the child.
type drawCommandsFrame struct {
	commands int    // draw-triangles commands
	indices  int    // their indices, in all
	calls    int    // the draw calls made to ebiten, as the child reported
	ended    bool   // the end marker was seen
	log      string // the lines between the markers
}

var (
	drawCommandsBegin = regexp.MustCompile(`^drawcmds: begin (\S+)$`)
	drawCommandsEnd   = regexp.MustCompile(`^drawcmds: end (\S+) calls=(\d+)$`)
	drawCommandsLine  = regexp.MustCompile(`^\s*draw-triangles: .*num of indices: (\d+),`)
)

// parseDrawCommands reads the child's output: ebiten's command log, with the
// frames to count between "drawcmds: begin NAME" and "drawcmds: end NAME
// calls=N".
func parseDrawCommands(out []byte) map[string]*drawCommandsFrame {
	frames := make(map[string]*drawCommandsFrame)
	var cur *drawCommandsFrame
	var log strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := drawCommandsBegin.FindStringSubmatch(line); m != nil {
			cur = &drawCommandsFrame{}
			frames[m[1]] = cur
			log.Reset()
			continue
		}
		if cur == nil {
			continue
		}
		if m := drawCommandsEnd.FindStringSubmatch(line); m != nil {
			cur.calls, _ = strconv.Atoi(m[2])
			cur.ended, cur.log = true, log.String()
			cur = nil
			continue
		}
		log.WriteString(line + "\n")
		if m := drawCommandsLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			cur.commands++
			cur.indices += n
		}
	}
	return frames
}

// printDrawCommands is the child: it draws the frames on the game and
// prints the markers around ebiten's log of each. Reading a pixel back
// makes ebiten flush (and log) its queue, and waits for it, so the log of a
// frame lands between its markers.
func printDrawCommands(t *testing.T) {
	if !ebitenDebug {
		t.Fatalf("%s is set, but the test was built without -tags ebitenginedebug", drawCommandsChild)
	}
	ebitentest.OnGame(t, func() {
		s := newBenchScene(drawCommandsSprites, true, 4, 0)
		ev := engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst}
		frame := func(name string, draw func() int) {
			draw() // once unlogged: ebiten settles its own atlases on first use
			s.flush.ReadPixels(s.pixel)
			s.dst.Clear()
			s.flush.ReadPixels(s.pixel)
			fmt.Printf("drawcmds: begin %s\n", name)
			calls := draw()
			s.flush.ReadPixels(s.pixel)
			fmt.Printf("drawcmds: end %s calls=%d\n", name, calls)
		}
		frame("engine", func() int {
			s.r.Draw(s.world, ev)
			return s.r.DrawCalls()
		})
		frame("raw-drawimage", func() int { return s.drawRaw() })
	})
}
