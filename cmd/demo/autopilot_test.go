package main

import "testing"

// -autopilot plays the Arena in a window (under Xvfb) to the checksum of
// the headless run of the same seed: the frames the window happens to draw
// change nothing in the game.
func TestWindowAutopilotMatchesHeadless(t *testing.T) {
	needDisplay(t)
	headless := run(t, "-headless", "-seconds", "3", "-seed", "2")
	window := run(t, "-scene", "arena", "-autopilot", "-seconds", "3", "-seed", "2")
	if window != headless {
		t.Fatalf("window checksum %s, headless %s", window, headless)
	}
}
