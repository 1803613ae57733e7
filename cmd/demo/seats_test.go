package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/internal/windowtest"
	"github.com/fixedstep/fixedstep/scenes/arena"
)

// Two players at one keyboard in the demo's window (-seats kb1,kb2),
// D and the up arrow held together through the X server: player 1's body
// goes right (D is its half's), player 2's up (the arrow is its half's),
// where one player on the whole keyboard would have gone up and right.
// The recording replays headless to the window's checksum, and the
// replay's world says where the bodies went.
func TestTwoAtOneKeyboardInAWindow(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.input")
	p, err := windowtest.Start(exec.Command(demoBin, "-scene", "arena", "-seats", "kb1,kb2", "-seconds", "3", "-record", rec), "fixedstep demo")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.WaitFrames(5, windowtest.Stall); err != nil {
		t.Fatal(err)
	}
	if err := p.Press("d"); err != nil {
		t.Fatal(err)
	}
	if err := p.Press("Up"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	err = p.WaitFrames(2, windowtest.Stall)
	p.Release("d")
	p.Release("Up")
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	played := checksumRE.FindStringSubmatch(out)
	cmd := exec.Command(demoBin, "-headless", "-replay", rec, "-dump-at", "1:180")
	cmd.Dir = dir
	replay, err := cmd.CombinedOutput()
	if got := checksumRE.FindStringSubmatch(string(replay)); err != nil || played == nil || got == nil || got[1] != played[1] {
		t.Fatalf("the window's run ended on %v; its replay: %v\n%s", played, err, replay)
	}
	dump, err := os.ReadFile(filepath.Join(dir, "dump-1-180.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Each seat's body after the last tick, from where it started (a
	// third and two thirds across the Arena, in the middle).
	x0, y0 := bodyOf(t, dump, 0)
	x1, y1 := bodyOf(t, dump, 1)
	right, up := [2]float64{x0 - arena.Width/3, y0 - arena.Height/2}, [2]float64{x1 - 2*arena.Width/3, y1 - arena.Height/2}
	if !(right[0] > 50 && abs(right[1]) < right[0]/4) || !(-up[1] > 50 && abs(up[0]) < -up[1]/4) {
		t.Fatalf("player 1 moved %.0f, %.0f (want right), player 2 %.0f, %.0f (want up)", right[0], right[1], up[0], up[1])
	}
	t.Logf("player 1 moved %.0f, %.0f; player 2 %.0f, %.0f", right[0], right[1], up[0], up[1])
}

func abs(x float64) float64 { return max(x, -x) }

// bodyOf returns the position of the body of the player at seat, from a
// world's dump.
func bodyOf(t *testing.T, dump []byte, seat int) (x, y float64) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(e\d+v\d+) Seat\.Player = ` + strconv.Itoa(seat) + `$`).FindSubmatch(dump)
	if m == nil {
		t.Fatalf("no body at seat %d in the dump", seat)
	}
	get := func(field string) float64 {
		f := regexp.MustCompile(`(?m)^` + string(m[1]) + ` Body\.Body\.Position\.` + field + ` = (\S+)$`).FindSubmatch(dump)
		if f == nil {
			t.Fatalf("no position %s of %s in the dump", field, m[1])
		}
		v, err := strconv.ParseFloat(string(f[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	return get("X"), get("Y")
}
