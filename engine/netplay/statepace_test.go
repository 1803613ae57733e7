package netplay_test

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// BenchmarkStateTransfer measures how long a spectator who joins a
// session of two under way takes to receive the host's state (from its
// Spectate to its session, join-ms), for states of 10 KiB and 1 MiB and 4
// MiB (random bytes, which the state file cannot compress: a Stress scene
// of 5,000 balls writes some 3 MB), on loopback and through links of 100
// ms round trip, without and with 1% of the packets lost: the pieces
// paced by the joiner's acknowledgements in a window that grows
// (pace=adaptive), against stateWindow pieces in flight sent as the
// host's frames end (pace=fixed), in turn in the same run. The host and
// the other player play on in real time meanwhile; the session ends once
// the spectator has run its first tick.
func BenchmarkStateTransfer(b *testing.B) {
	if testing.Short() {
		b.Skip("a section of its own in BENCHMARKS.md: not under -short (make bench-full runs it)")
	}
	links := []struct {
		name string
		link *netsim.Link
	}{
		{"loopback", nil},
		{"rtt=100ms", &netsim.Link{Latency: 50 * time.Millisecond, Seed: 3}},
		{"rtt=100ms,loss=1%", &netsim.Link{Latency: 50 * time.Millisecond, Loss: 0.01, Seed: 3}},
	}
	for _, size := range []int{10 << 10, 1 << 20, 4 << 20} {
		pad := randomBytes(size, 1)
		for _, l := range links {
			for _, fixed := range []bool{true, false} {
				pace := "adaptive"
				if fixed {
					pace = "fixed"
				}
				b.Run(fmt.Sprintf("state=%dKiB/%s/pace=%s", size>>10, l.name, pace), func(b *testing.B) {
					netplay.SetFixedStatePace(fixed)
					defer netplay.SetFixedStatePace(false)
					var took time.Duration
					for range b.N {
						took += transferState(b, l.link, pad)
					}
					b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "join-ms")
					b.ReportMetric(0, "ns/op")
				})
			}
		}
	}
}

// transferState plays a session of two in real time whose state carries
// pad, has a spectator join it under way from the host's state, and
// returns how long its Spectate took.
func transferState(b *testing.B, link *netsim.Link, pad []byte) time.Duration {
	var joined atomic.Bool
	runs := play(b, setup{players: 2, link: link, realtime: true, seconds: 60, lateAt: 30, lateFromState: true,
		game: func(i int, final *uint64) engine.Scene { return gameWith(final, pad) },
		afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
			if i == 2 {
				joined.Store(true)
			}
			if joined.Load() {
				l.Stop()
			}
		}})
	late := runs[len(runs)-1]
	if late.err != nil || late.session == nil || late.session.State() == nil {
		b.Fatalf("the late spectator: %v", late.err)
	}
	return late.joinTook
}

// randomBytes returns n bytes from a source seeded with seed: a state's
// padding that its file cannot compress.
func randomBytes(n int, seed uint64) []byte {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
