package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A System is one piece of game logic, called with the scene's world and the
// event that runs it: an [Update] of its group, or a [Render]. Systems are
// plain function values (often method values) and are called directly.
type System func(w donburi.World, ev Event)

// The phases of systems that are not in an update group, in
// [SystemStats.Group].
const (
	RenderPhase = -1 // a render system
	InputPhase  = -2 // an input system
)

// SystemStats is the measured time of one system. Durations are from the
// runtime's monotonic clock, read once between consecutive systems, in a
// sample of the calls (see [Scheduler.SetTimingEvery]): Count is every
// call, Timed those timed, and the figures are the timed calls'.
//
// Times holds every timed call's time in a fixed-size histogram (about 4
// KB per system, whatever the number of calls), for percentiles: a mean
// hides the calls that make a frame hitch, the p99 does not. Recording a
// call in it allocates nothing and costs a few nanoseconds beside the
// clock read (BenchmarkSchedulerTiming).
type SystemStats struct {
	Name  string
	Group int // index of its update group, or RenderPhase or InputPhase
	Layer int // render layer (render systems only)

	Count int64         // calls
	Timed int64         // calls timed
	Total time.Duration // sum of their times
	Max   time.Duration // the longest
	Last  time.Duration // the latest
	Times Histogram     // every timed call's time
}

// Mean returns the mean time per timed call, 0 before the first.
func (s *SystemStats) Mean() time.Duration {
	if s.Timed == 0 {
		return 0
	}
	return s.Total / time.Duration(s.Timed)
}

// Quantile returns the q-quantile of the time per call (Quantile(0.99) is
// the p99) over the timed calls, within 6.25% and never below the true
// value; 0 before the first. See [Histogram.Quantile].
func (s *SystemStats) Quantile(q float64) time.Duration { return s.Times.Quantile(q) }

func (s *SystemStats) add(d time.Duration) {
	s.Timed++
	s.Total += d
	s.Last = d
	s.Max = max(s.Max, d)
	s.Times.Record(d)
}

// DefaultTimingEvery is how many calls a scheduler's timing samples one of,
// by default: the clock read between systems costs tens of nanoseconds on
// a VM, more than many systems take, so timing every call would weigh on
// the frame it measures (BenchmarkFrame's timed beside its untimed case).
const DefaultTimingEvery = 16

// Scheduler runs a scene's systems over its donburi.World: update systems in
// fixed-rate groups, in the order they were added, render systems by layer
// (ascending; equal layers in the order added), and input systems on Input
// events, in the order added. Update, Render and Input call each system
// directly, time it, and allocate nothing.
//
// Build it once when the scene loads; adding systems is not for the hot path.
type Scheduler struct {
	world   donburi.World
	groups  []Group
	updates [][]int // per group: indexes into systems
	renders []int   // indexes into systems, sorted by layer
	inputs  []int   // indexes into systems
	fns     []System
	stats   []SystemStats
	untimed bool
	every   uint32 // time one run in every (on average); 0: DefaultTimingEvery
	sample  uint32 // the sampler's state (xorshift)
	probe   SystemProbe
	cmds    *Commands // applied after every system (commands.go)
}

// A SystemProbe sees the state after every update system (the desync
// bisector: the loop's [Recording] is one, see [Recording.Detailed]).
type SystemProbe interface {
	AfterSystem(ev Event, name string)
}

// SetProbe makes p see the state after every update system, in every tick
// (nil: none, the default). stage.Stage sets the loop's Recording as the
// probe when the run records or replays the detail the desync bisector
// needs. The probe's time is not counted in the systems' timings.
func (s *Scheduler) SetProbe(p SystemProbe) { s.probe = p }

// SetTiming turns the timing of system calls on (the default) or off.
// Timing reads the runtime's monotonic clock once per system call
// (BenchmarkNanotime measures the read) and records the time in the
// system's histogram (BenchmarkSchedulerTiming measures both), in a sample
// of the calls (SetTimingEvery); off, Stats still counts calls but its
// durations and histograms stay as they were.
func (s *Scheduler) SetTiming(on bool) { s.untimed = !on }

// SetTimingEvery sets how many of the scheduler's runs (an event's
// systems: an Update of a group, a Render, an Input) timing samples one
// of, at random so that no periodic work is always or never sampled: 1
// times every run, as a profiler would want; the default is
// DefaultTimingEvery. A spike in a run not sampled is not seen in Max.
func (s *Scheduler) SetTimingEvery(n int) {
	if n < 1 {
		n = 1
	}
	s.every = uint32(n)
}

// NewScheduler returns a scheduler for world with the given update groups
// (one group "update" at 60 Hz if none are given). Rates are checked by
// [Loop.Start], which the scene passes them to through [Scheduler.Groups].
func NewScheduler(world donburi.World, groups ...Group) *Scheduler {
	if len(groups) == 0 {
		groups = []Group{{Name: "update", Hz: DefaultHz}}
	}
	return &Scheduler{world: world, groups: slices.Clone(groups), updates: make([][]int, len(groups))}
}

// World returns the world the systems run over.
func (s *Scheduler) World() donburi.World { return s.world }

// Groups returns the update groups, for [Loop.Events] or [Loop.Start].
func (s *Scheduler) Groups() []Group { return s.groups }

// Group returns the index of the group with this name. It panics if there is
// none: asking for a group that was never declared is a programming error,
// found the first time the scene is built.
func (s *Scheduler) Group(name string) int {
	for i, g := range s.groups {
		if g.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("engine: scheduler has no group %q", name))
}

// AddUpdate adds a system to update group group (an index, see
// [Scheduler.Group]), after those already there. It panics on a group index
// out of range or a nil system (programming errors).
func (s *Scheduler) AddUpdate(group int, name string, fn System) *Scheduler {
	if uint(group) >= uint(len(s.groups)) || fn == nil {
		panic(fmt.Sprintf("engine: AddUpdate(%d, %q): no such group or nil system", group, name))
	}
	s.updates[group] = append(s.updates[group], s.add(name, group, 0, fn))
	return s
}

// AddRender adds a render system in layer layer: lower layers draw first.
func (s *Scheduler) AddRender(layer int, name string, fn System) *Scheduler {
	if fn == nil {
		panic(fmt.Sprintf("engine: AddRender(%d, %q): nil system", layer, name))
	}
	i := s.add(name, RenderPhase, layer, fn)
	pos := len(s.renders)
	for k, j := range s.renders {
		if s.stats[j].Layer > layer {
			pos = k
			break
		}
	}
	s.renders = slices.Insert(s.renders, pos, i)
	return s
}

// AddInput adds a system run on Input events, with the frame's live input:
// presentation that answers the player at once (the dev keys, a camera's
// zoom, a menu's highlight), never a game decision, which a replay would
// not repeat (see the package doc).
func (s *Scheduler) AddInput(name string, fn System) *Scheduler {
	if fn == nil {
		panic(fmt.Sprintf("engine: AddInput(%q): nil system", name))
	}
	s.inputs = append(s.inputs, s.add(name, InputPhase, 0, fn))
	return s
}

func (s *Scheduler) add(name string, group, layer int, fn System) int {
	s.fns = append(s.fns, fn)
	s.stats = append(s.stats, SystemStats{Name: name, Group: group, Layer: layer})
	return len(s.fns) - 1
}

// Update runs the systems of ev's group, in order. Other events are ignored,
// so a scene may pass every event it gets.
func (s *Scheduler) Update(ev Event) {
	if ev.Kind != Update || uint(ev.Group) >= uint(len(s.updates)) {
		return
	}
	systems := s.updates[ev.Group]
	if s.probe == nil {
		s.run(systems, ev)
		return
	}
	for k, i := range systems {
		s.run(systems[k:k+1], ev)
		s.probe.AfterSystem(ev, s.stats[i].Name)
	}
}

// Render runs the render systems, layer by layer.
func (s *Scheduler) Render(ev Event) {
	if ev.Kind != Render {
		return
	}
	s.run(s.renders, ev)
}

// Input runs the input systems. Other events are ignored.
func (s *Scheduler) Input(ev Event) {
	if ev.Kind != Input {
		return
	}
	s.run(s.inputs, ev)
}

// Handle runs what ev asks for: the input systems for an Input, the group's
// systems for an Update, the render systems for a Render.
func (s *Scheduler) Handle(ev Event) {
	switch ev.Kind {
	case Input:
		s.run(s.inputs, ev)
	case Update:
		s.Update(ev)
	case Render:
		s.Render(ev)
	}
}

// applyCommands applies the commands the system that just returned
// queued, if any: their time counts as the system's.
func (s *Scheduler) applyCommands() {
	if s.cmds != nil && len(s.cmds.ops) > 0 {
		s.cmds.Apply(s.world)
	}
}

func (s *Scheduler) run(systems []int, ev Event) {
	if s.untimed || !s.sampled() {
		for _, i := range systems {
			s.fns[i](s.world, ev)
			s.applyCommands()
			s.stats[i].Count++
		}
		return
	}
	t := nanotime()
	for _, i := range systems {
		s.fns[i](s.world, ev)
		s.applyCommands()
		now := nanotime()
		s.stats[i].Count++
		s.stats[i].add(time.Duration(now - t))
		t = now
	}
}

// sampled reports whether this run is timed: one in `every`, at random.
func (s *Scheduler) sampled() bool {
	every := s.every
	if every == 0 {
		every = DefaultTimingEvery
	}
	if every == 1 {
		return true
	}
	x := s.sample
	if x == 0 {
		x = 0x9e3779b9
	}
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	s.sample = x
	return x%every == 0
}

// Stats returns every system's timing, in the order the systems were added.
// The slice is the scheduler's own, updated in
// place: read it, do not keep or change it. Reading it allocates nothing.
func (s *Scheduler) Stats() []SystemStats { return s.stats }

// ResetStats zeroes every system's counters and empties its histogram.
func (s *Scheduler) ResetStats() {
	for i := range s.stats {
		st := &s.stats[i]
		st.Count, st.Timed, st.Total, st.Max, st.Last = 0, 0, 0, 0, 0
		st.Times.Reset()
	}
}
