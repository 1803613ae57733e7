package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// Two predicting demos (-predict), each 50 ms ± 10 ms from the server each
// way (a round trip of about 100 ms, through -server-netsim's proxy), play
// a match of two to its end: each runs ahead of the server, its own input
// applied at once and the other's predicted, rolls back where the server's
// ticks differ, and checks every tick's checksum against the server's.
func TestPredictDemos(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	bin := buildDemo(t, t.TempDir())
	const seconds = 8
	outs, errs := runTogether(t, bin, 2, func(int) []string {
		return []string{"-headless", "-autopilot", "-players", "2", "-seconds", fmt.Sprint(seconds), "-server", srv.URL,
			"-server-key", srv.ServerKey, "-server-netsim", "50ms,10ms", "-predict"}
	})
	rollbacks := regexp.MustCompile(`predicting (\d+) ticks ahead of the server; (\d+) rollbacks`)
	for i, out := range outs {
		checked := fmt.Sprintf("%d ticks checked against the server's checksum", seconds*hz)
		m := rollbacks.FindStringSubmatch(out)
		if errs[i] != nil || !strings.Contains(out, checked) || m == nil {
			t.Errorf("demo %d: %v; want %q and its predicting in:\n%s", i+1, errs[i], checked, out)
			continue
		}
		ahead, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		if ahead < 6 || n == 0 {
			t.Errorf("demo %d, 100 ms from the server: %d ticks ahead, %d rollbacks; want at least 6 ahead (its round trip) and some rollbacks:\n%s", i+1, ahead, n, out)
		}
		lines := strings.Split(out, "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "online: predicting") })
		t.Logf("demo %d: %s", i+1, lines[at])
	}
}
