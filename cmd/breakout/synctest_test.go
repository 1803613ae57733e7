package main

import (
	"strings"
	"testing"
)

// -synctest 8 over whole games (the Title, three games, the scores between
// them): every state simulated again the same, and the run's checksum that
// of the run without it.
func TestSyncTestPasses(t *testing.T) {
	args := []string{"-headless", "-seconds", "60", "-seed", "11", "-lives", "1"}
	_, plain := run(t, args...)
	out, got := run(t, append(args, "-synctest", "8")...)
	if got != plain || !strings.Contains(out, "synctest: every tick simulated again from 8 ticks back, every state the same") {
		t.Errorf("-synctest 8: checksum %s, want %s:\n%s", got, plain, out)
	}
}
