package cli

import (
	"fmt"
	"runtime/metrics"

	"github.com/fixedstep/fixedstep/engine"
)

// memoryProbe counts what the whole program allocates from the run's first
// tick to its end, and the garbage collections in between (runtime/metrics,
// read twice): -memory's line in the summary, so that a game can see
// whether its ticks make garbage. The span takes in everything the program
// does in it (a scene made in between, the window's drawing), not the
// ticks alone. A nil probe (no -memory) does nothing.
type memoryProbe struct {
	samples  [3]metrics.Sample
	from, to [3]uint64
	ticks    int64 // first-group ticks handled, simulated again ones too
}

func newMemoryProbe() *memoryProbe {
	p := &memoryProbe{}
	for i, name := range []string{"/gc/heap/allocs:objects", "/gc/heap/allocs:bytes", "/gc/cycles/total:gc-cycles"} {
		p.samples[i].Name = name
	}
	return p
}

// read returns the counters now.
func (p *memoryProbe) read() (v [3]uint64) {
	metrics.Read(p.samples[:])
	for i, s := range p.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	return v
}

// event is told of every event (Options.OnEvent): it starts counting at
// the first tick.
func (p *memoryProbe) event(_ *engine.Loop, ev engine.Event) {
	if p != nil && ev.Kind == engine.Update && ev.Group == 0 {
		if p.ticks == 0 {
			p.from = p.read()
		}
		p.ticks++
	}
}

// finish takes the counters at the run's end (Options.OnFinish).
func (p *memoryProbe) finish(*engine.Loop) {
	if p != nil && p.ticks > 0 {
		p.to = p.read()
	}
}

// line says what was allocated, and how much a tick; "" when no tick ran.
func (p *memoryProbe) line() string {
	if p == nil || p.ticks == 0 {
		return ""
	}
	objects, bytes, cycles := p.to[0]-p.from[0], p.to[1]-p.from[1], p.to[2]-p.from[2]
	return fmt.Sprintf("memory: %d allocations (%d bytes) from the first tick to the end, %.2f a tick over %d ticks; %d garbage collections",
		objects, bytes, float64(objects)/float64(p.ticks), p.ticks, cycles)
}
