package core

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
)

// The sync test (engine.Options.SyncTest, the command line's -synctest N):
// before every tick of the first group, the stage rolls its state back N
// ticks (the world, the cp space, what the scene keeps with Keep), runs
// the update systems again on the same events and input, and compares the
// state checksum and every kept value at every tick boundary with the
// first pass's, as rollback netcode re-simulates, every tick. It also
// takes the checksum after every update system, in both passes, as the
// desync bisector does. A difference is the scene's error: it names the
// tick, the first system after which the state differed, the component
// types and the kept values that differ. The re-simulated ticks count in
// the systems' timings.
//
// The ticks simulated again get the events and input of the first pass,
// recorded as it ran: no tick-input source is asked again (a source that
// keeps its state with Keep is refused as it changes it: see Keep), so the
// run goes on as it would without the test, and ends on the same state.
//
// Every N ticks the state also goes through bytes (throughBytes): the run
// goes on from the state read back, and the ticks after it are checked
// against the same ticks simulated again from a snapshot that did not.

// syncTest is the stage's ring of N+1 tick boundaries.
type syncTest struct {
	n      int
	slots  []syncSlot
	taken  int64 // boundaries taken
	probed bool  // the loop is the bisector's probe too: told of the first pass's systems

	s        *Stage
	now      []state.ComponentSum // the component sums at the boundary being checked
	keptNow  []uint64             // the kept values' sums there
	keptGot  []uint64             // and as simulated again
	resim    *syncSlot            // the slot being simulated again, nil in the first pass
	cursor   int                  // the next of resim's systems
	diverged string               // where a system's state first differed in the second pass

	bytes, again []byte // the state as bytes, and as written again once read (throughBytes)
}

// syncSlot is the state before tick `tick` of the first group, and the
// update events handled from there to the next boundary.
type syncSlot struct {
	tick   int64
	sum    uint64
	parts  []state.ComponentSum
	kept   []uint64 // the kept values' sums (Keep)
	state  stateSlot
	events []syncEvent
	sums   []systemSum // the checksum after every update system, in order
}

type systemSum struct {
	name string
	sum  uint64
}

// syncEvent is an Update event handled in the first pass, with every
// player's input for its tick (the event's Input and Players point into
// the loop's, which later ticks overwrite).
type syncEvent struct {
	ev engine.Event
	in [input.MaxPlayers]input.State
}

func newSyncTest(s *Stage, n int, probed bool) *syncTest {
	t := &syncTest{n: n, slots: make([]syncSlot, n+1), probed: probed, s: s}
	s.Sched.SetProbe(t)
	return t
}

// AfterSystem takes the checksum after an update system: kept in the first
// pass, compared in the second.
func (t *syncTest) AfterSystem(ev engine.Event, name string) {
	sum := t.s.checksum()
	if sl := t.resim; sl != nil {
		if t.diverged == "" && (t.cursor >= len(sl.sums) || sl.sums[t.cursor].name != name || sl.sums[t.cursor].sum != sum) {
			t.diverged = fmt.Sprintf("; it first differed after system %q in tick %d of group %q",
				name, ev.Tick, t.s.Sched.Groups()[ev.Group].Name)
		}
		t.cursor++
		return
	}
	if t.taken > 0 {
		sl := &t.slots[(t.taken-1)%int64(len(t.slots))]
		sl.sums = append(sl.sums, systemSum{name, sum})
	}
	if t.probed {
		t.s.Loop.Recording().AfterSystem(ev, name)
	}
}

// update is told of every Update event before the scheduler handles it.
func (t *syncTest) update(s *Stage, ev engine.Event) error {
	if ev.Group == 0 {
		if err := t.boundary(s, ev.Tick); err != nil {
			return err
		}
	}
	if t.taken == 0 {
		return nil // a tick of another group before the first group's first: before any boundary
	}
	sl := &t.slots[(t.taken-1)%int64(len(t.slots))]
	sl.events = append(sl.events, syncEvent{ev: ev})
	e := &sl.events[len(sl.events)-1]
	copy(e.in[:], ev.Players)
	return nil
}

// boundary checks the ticks before tick `tick` again, then saves the state
// before it.
func (t *syncTest) boundary(s *Stage, tick int64) error {
	if t.taken > 0 && t.slots[(t.taken-1)%int64(len(t.slots))].tick >= tick {
		t.taken = 0 // the game went back (a step back from a keyframe): the ring starts over from here
	}
	sum := s.checksum()
	t.now = t.parts(s, t.now[:0]) // the first pass's, before they are hashed again
	t.keptNow = s.keptSums(t.keptNow[:0])
	if t.taken >= int64(t.n) {
		from := t.taken - int64(t.n)
		if err := t.restore(s, from); err != nil {
			return err
		}
		t.diverged = ""
		for j := from; j < t.taken; j++ {
			sl := &t.slots[j%int64(len(t.slots))]
			if j > from {
				if err := t.check(s, sl.tick, sl.sum, sl.parts, sl.kept, tick); err != nil {
					t.resim = nil
					return err
				}
			}
			t.resim, t.cursor = sl, 0
			s.Loop.Session().SimulateAgain(func() {
				for i := range sl.events {
					e := &sl.events[i]
					ev := e.ev
					ev.Input, ev.Players = &e.in[0], e.in[:len(ev.Players)]
					s.event = engine.Update
					s.Sched.Handle(s.split(ev))
				}
			})
		}
		t.resim = nil
		if err := t.check(s, tick, sum, t.now, t.keptNow, tick); err != nil {
			return err
		}
	}
	sl := &t.slots[t.taken%int64(len(t.slots))]
	sl.tick, sl.sum, sl.events, sl.sums = tick, sum, sl.events[:0], sl.sums[:0]
	sl.parts = append(sl.parts[:0], t.now...)
	sl.kept = append(sl.kept[:0], t.keptNow...)
	if err := t.save(s, sl, int(t.taken%int64(len(t.slots)))); err != nil {
		return err
	}
	t.taken++
	if (t.taken-1)%int64(t.n) == 0 && !s.ended {
		return t.throughBytes(s, tick, sum)
	}
	return nil
}

// throughBytes writes the stage's state as bytes (AppendState) and reads
// it back (ReadState), in place of the state it was: every N ticks, so
// that the run goes on from a state that went through bytes while the
// ring's snapshots, taken before, are the state that did not. The state
// read must have the same checksum and kept values and write the same
// bytes again; whatever the bytes dropped (state the stage does not
// write, a pointer the game holds into the world or the space across
// ticks, which a read replaces) makes the ticks after it differ from the
// same ticks simulated again from the snapshot, which the next
// boundaries compare.
func (t *syncTest) throughBytes(s *Stage, tick int64, sum uint64) error {
	var err error
	if t.bytes, err = s.AppendState(t.bytes[:0]); err != nil {
		return fmt.Errorf("stage: synctest: writing the state before tick %d as bytes: %w", tick, err)
	}
	if err := s.ReadState(t.bytes); err != nil {
		return fmt.Errorf("stage: synctest: reading the state before tick %d back from its bytes: %w", tick, err)
	}
	t.keptGot = s.keptSums(t.keptGot[:0])
	if got := s.checksum(); got != sum || !slices.Equal(t.keptGot, t.keptNow) {
		return fmt.Errorf("stage: synctest: the state before tick %d read back from its bytes differs (checksum %016x, "+
			"first %016x; kept values that differ: %s)", tick, got, sum, strings.Join(s.keptDiffer(t.keptGot, t.keptNow), ", "))
	}
	if t.again, err = s.AppendState(t.again[:0]); err != nil {
		return fmt.Errorf("stage: synctest: writing the state read back before tick %d: %w", tick, err)
	}
	if !bytes.Equal(t.bytes, t.again) {
		i := 0
		for i < len(t.bytes) && i < len(t.again) && t.bytes[i] == t.again[i] {
			i++
		}
		return fmt.Errorf("stage: synctest: the state before tick %d, read back from its %d bytes, writes %d bytes "+
			"that differ from byte %d", tick, len(t.bytes), len(t.again), i)
	}
	return nil
}

// check compares the state at the boundary before tick `at`, simulated
// again, with the first pass's: the world's checksum and the kept values.
func (t *syncTest) check(s *Stage, at int64, want uint64, wantParts []state.ComponentSum, wantKept []uint64, now int64) error {
	got := s.checksum()
	t.keptGot = s.keptSums(t.keptGot[:0])
	if got == want && slices.Equal(t.keptGot, wantKept) {
		return nil
	}
	group := s.Sched.Groups()[0].Name
	kept := s.keptDiffer(t.keptGot, wantKept)
	if got == want {
		return fmt.Errorf("stage: synctest: the values kept outside the world after tick %d of group %q differ when "+
			"simulated again from tick %d%s: %s; a kept value is changed by update systems only, which a rollback "+
			"repeats: not on Input or Render events, not by a tick-input source (see Keep), and the same every time "+
			"(a slice changed in place is kept with KeepSlice)", at-1, group, now-int64(t.n), t.diverged, strings.Join(kept, ", "))
	}
	var differ []string
	if s.State != nil {
		for _, p := range s.State.ComponentSums() {
			i := slices.IndexFunc(wantParts, func(w state.ComponentSum) bool { return w.Name == p.Name })
			if i < 0 || wantParts[i].Sum != p.Sum {
				differ = append(differ, p.Name)
			}
		}
	}
	what := "state kept outside the stage's world and Keep, or a system that is not deterministic"
	if len(differ) > 0 {
		what = "component types that differ: " + strings.Join(differ, ", ")
	}
	if len(kept) > 0 {
		what += "; kept values that differ: " + strings.Join(kept, ", ")
	}
	return fmt.Errorf("stage: synctest: the state after tick %d of group %q differs when simulated again from tick %d "+
		"(checksum %016x, first %016x)%s; %s", at-1, group, now-int64(t.n), got, want, t.diverged, what)
}

func (t *syncTest) parts(s *Stage, dst []state.ComponentSum) []state.ComponentSum {
	if s.State == nil {
		return dst
	}
	return append(dst, s.State.ComponentSums()...)
}

func (t *syncTest) save(s *Stage, sl *syncSlot, slot int) error { return sl.state.save(s, slot) }

func (t *syncTest) restore(s *Stage, boundary int64) error {
	slot := int(boundary % int64(len(t.slots)))
	return t.slots[slot].state.restore(s, slot)
}
