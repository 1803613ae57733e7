package main

import (
	"strings"
	"testing"
)

// -synctest 8: before every tick the scene rolls back 8 ticks and simulates
// them again, and every state is the same as the first pass's; the run
// ends with the checksum of the run without it. The Arena with its agents
// and props, the Stress scene pouring and piling up (its pile falls asleep).
func TestSyncTestPasses(t *testing.T) {
	for _, args := range [][]string{
		{"-headless", "-seconds", "10", "-seed", "3"},
		{"-headless", "-scene", "stress", "-bodies", "300", "-seconds", "8", "-seed", "3"},
	} {
		plain := run(t, args...)
		out, code := output(t, append(args, "-synctest", "8")...)
		m := checksumRE.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] != plain || !strings.Contains(out, "synctest: every tick simulated again from 8 ticks back, every state the same") {
			t.Errorf("%s -synctest 8: exit %d, want checksum %s:\n%s", strings.Join(args, " "), code, plain, out)
		}
	}
}
