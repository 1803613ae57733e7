package input_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// -seats lists are read back as they are written, and a bad one says
// what is wrong with which seat.
func TestParseSeats(t *testing.T) {
	for _, spec := range []string{"", "kb", "kb1,kb2", "kb1,pad0,pad1,pad3", "kb1,kb2,pad0@2", "kb@2,kb@3,kb@4,kb"} {
		s, err := input.ParseSeats(spec)
		if err != nil {
			t.Fatalf("ParseSeats(%q): %v", spec, err)
		}
		if got := s.String(); got != spec {
			t.Errorf("ParseSeats(%q).String() = %q", spec, got)
		}
	}
	for spec, want := range map[string]string{
		"kb3":                    "unknown device \"kb3\"",
		"kb1,,kb2":               "unknown device \"\"",
		"pad4":                   "unknown device \"pad4\"",
		"kb1,kb1":                "seat 2 (kb1): player 1 plays at kb1 already: a device plays one seat",
		"kb,kb2":                 "seat 2 (kb2): player 1 plays at kb, which holds it",
		"pad0,kb1,pad0":          "seat 3 (pad0): player 1 plays at pad0 already",
		"kb1,kb2,pad0,pad1,pad2": "seat 5 (pad2): a run has at most 4 players",
		"pad0@0":                 "@0 is not a player of a networked run (1 to 4)",
		"pad0@x":                 "@x is not a player",
		"pad0@5":                 "@5 is not a player",
	} {
		_, err := input.ParseSeats(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSeats(%q): %v, want %q", spec, err, want)
		}
	}
	// One device on two machines is two devices.
	if _, err := input.ParseSeats("pad0,pad0@2"); err != nil {
		t.Errorf("pad0 on two machines: %v", err)
	}
}

// Each seat sees its own device and nothing else: a half of the keyboard
// its keys, a pad its pad (in slot 0), the whole keyboard the mouse too.
func TestSplitGivesEachSeatItsDevice(t *testing.T) {
	seats, err := input.ParseSeats("kb1,kb2,pad1,kb@2")
	if err != nil {
		t.Fatal(err)
	}
	var m [2]input.State
	m[0].SetKey(input.KeyD, true)
	m[0].SetKey(input.KeyArrowUp, true)
	m[0].SetKey(input.KeyEscape, true)
	m[0].SetGamepadAxis(1, input.AxisLeftStickHorizontal, 0.5)
	m[0].SetGamepadButton(0, input.GamepadRightBottom, true)
	m[0].SetMouseButton(input.MouseButtonLeft, true)
	m[1].SetKey(input.KeyArrowUp, true)
	m[1].SetMouseButton(input.MouseButtonLeft, true)
	m[1].CursorX = 7
	var prev [2]input.State
	m[0].DeriveEdges(&prev[0])
	m[1].DeriveEdges(&prev[1])
	var out [input.MaxPlayers]input.State
	p := seats.Split(m[:], &out)
	if len(p) != 4 {
		t.Fatalf("%d players, want 4", len(p))
	}
	kb1, kb2, pad, remote := &p[0], &p[1], &p[2], &p[3]
	if !kb1.KeyDown(input.KeyD) || !kb1.KeyPressed(input.KeyD) || kb1.KeyDown(input.KeyArrowUp) || kb1.KeyDown(input.KeyEscape) ||
		kb1.MouseDown(input.MouseButtonLeft) || kb1.GamepadDown(0, input.GamepadRightBottom) {
		t.Errorf("kb1 sees %+v", kb1.Keys)
	}
	if !kb2.KeyDown(input.KeyArrowUp) || kb2.KeyDown(input.KeyD) || kb2.KeyDown(input.KeyEscape) {
		t.Errorf("kb2 sees %+v", kb2.Keys)
	}
	if pad.GamepadAxis(0, input.AxisLeftStickHorizontal) != 0.5 || pad.GamepadDown(0, input.GamepadRightBottom) ||
		pad.GamepadAxis(1, input.AxisLeftStickHorizontal) != 0 || pad.KeyDown(input.KeyD) {
		t.Errorf("pad1 sees %+v", pad.Gamepads)
	}
	if !remote.KeyDown(input.KeyArrowUp) || !remote.MouseDown(input.MouseButtonLeft) || remote.CursorX != 7 || remote.KeyDown(input.KeyD) {
		t.Errorf("kb@2 sees %+v", remote)
	}
	// A machine the run does not have gives nothing.
	p = seats.Split(m[:1], &out)
	if p[3] != (input.State{}) {
		t.Errorf("kb@2 without a second machine: %+v", p[3])
	}
}

// Splitting a tick's input and joining allocate nothing.
func TestSeatsAllocateNothing(t *testing.T) {
	seats, _ := input.ParseSeats("kb1,kb2,pad0,pad1")
	var m [1]input.State
	m[0].SetKey(input.KeyW, true)
	var out [input.MaxPlayers]input.State
	if n := testing.AllocsPerRun(100, func() { seats.Split(m[:], &out) }); n != 0 {
		t.Errorf("Split: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		var s input.Seats
		s.Join(m[:], 4)
	}); n != 0 {
		t.Errorf("Join: %v allocations", n)
	}
}

// A join screen seats devices in the order they are pressed, the ones of
// one tick in a fixed order, each once, up to the game's most.
func TestJoin(t *testing.T) {
	var s input.Seats
	press := func(f func(*input.State)) []input.State {
		var prev, in input.State
		f(&in)
		in.DeriveEdges(&prev)
		return []input.State{in}
	}
	if n := s.Join(press(func(in *input.State) { in.SetGamepadButton(2, input.GamepadRightBottom, true) }), 3); n != 1 {
		t.Fatalf("pad2 pressed: %d joined", n)
	}
	both := press(func(in *input.State) { in.SetKey(input.KeyArrowLeft, true); in.SetKey(input.KeySpace, true) })
	if n := s.Join(both, 3); n != 2 || s.String() != "pad2,kb1,kb2" {
		t.Fatalf("kb2 and kb1 pressed: %d joined, seats %v", n, s)
	}
	if n := s.Join(both, 4); n != 0 {
		t.Errorf("seated devices pressed again: %d joined", n)
	}
	full := press(func(in *input.State) { in.SetGamepadButton(0, input.GamepadRightBottom, true) })
	if n := s.Join(full, 3); n != 0 || s.N != 3 {
		t.Errorf("a fourth with at most 3: %d joined, seats %v", n, s)
	}
	if n := s.Join(press(func(in *input.State) { in.SetKey(input.KeyEscape, true); in.SetKey(input.KeyF3, true) }), 4); n != 0 {
		t.Errorf("Escape and F3 are no seat's: %d joined", n)
	}
}

// Two players on the halves of one keyboard: each one's input holds only
// the keys of its half, so that a system reading the arrows or WASD (as
// systems.PlayerControl does) moves each by its own keys.
func ExampleSeats_Split() {
	seats, err := input.ParseSeats("kb1,kb2")
	if err != nil {
		panic(err)
	}
	var machine input.State // what the keyboard holds this tick
	machine.SetKey(input.KeyW, true)
	machine.SetKey(input.KeyArrowRight, true)
	var players [input.MaxPlayers]input.State
	for n, in := range seats.Split([]input.State{machine}, &players) {
		fmt.Printf("player %d (%v): W %v, right %v\n", n+1, seats.Seat[n], in.KeyDown(input.KeyW), in.KeyDown(input.KeyArrowRight))
	}
	// Output:
	// player 1 (kb1): W true, right false
	// player 2 (kb2): W false, right true
}
