package cp

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// world is a test scene: a bin of balls and boxes on a static floor, a
// pendulum on a pin joint, a spring, a motor, a collision handler that
// counts, and a script that adds and removes bodies as it runs; with
// sleeping, and with the spatial hash or cp's default tree.
type world struct {
	space   *Space
	pcg     *rand.PCG
	rng     *rand.Rand
	touches int
	bodies  []*Body // the script's, removed ones included

	beforeStep func(t int) // if set, called before each step, after the script's tick
}

func newWorld(hash bool) *world {
	w := &world{space: NewSpace(), pcg: rand.NewPCG(1, 2)}
	w.rng = rand.New(w.pcg)
	s := w.space
	s.SetGravity(Vector{Y: 300})
	s.SleepTimeThreshold = 0.5
	s.IdleSpeedThreshold = 5
	if hash {
		s.UseSpatialHash(20, 2000)
	}
	walls := [][2]Vector{{{0, 400}, {400, 400}}, {{0, 0}, {0, 400}}, {{400, 0}, {400, 400}}}
	for _, wall := range walls {
		seg := s.AddShape(NewSegment(s.StaticBody, wall[0], wall[1], 2))
		seg.SetFriction(0.8)
		seg.SetCollisionType(2)
	}
	for range 60 {
		w.spawn()
	}
	anchor := s.AddBody(NewKinematicBody())
	anchor.SetPosition(Vector{X: 200, Y: 50})
	bob := s.AddBody(NewBody(1, MomentForCircle(1, 0, 8, Vector{})))
	bob.SetPosition(Vector{X: 260, Y: 50})
	s.AddShape(NewCircle(bob, 8, Vector{})).SetFriction(0.5)
	s.AddConstraint(NewPinJoint(anchor, bob, Vector{}, Vector{}))
	a, b := w.bodies[0], w.bodies[1]
	s.AddConstraint(NewDampedSpring(a, b, Vector{}, Vector{}, 30, 20, 1))
	s.AddConstraint(NewSimpleMotor(w.bodies[2], w.bodies[3], 1))
	s.AddConstraint(NewPivotJoint(w.bodies[4], w.bodies[5], w.bodies[4].Position()))
	h := s.NewCollisionHandler(1, 2)
	h.BeginFunc = func(arb *Arbiter, space *Space, data any) bool { w.touches++; return true }
	return w
}

// spawn adds a ball or a box somewhere over the bin.
func (w *world) spawn() *Body {
	s := w.space
	x, y := 20+360*w.rng.Float64(), 20+200*w.rng.Float64()
	var b *Body
	if w.rng.IntN(3) == 0 {
		b = s.AddBody(NewBody(1, MomentForBox(1, 12, 10)))
		s.AddShape(NewBox(b, 12, 10, 0)).SetFriction(0.6)
	} else {
		r := 4 + 4*w.rng.Float64()
		b = s.AddBody(NewBody(1, MomentForCircle(1, 0, r, Vector{})))
		sh := s.AddShape(NewCircle(b, r, Vector{}))
		sh.SetFriction(0.7)
		sh.SetElasticity(0.2)
		sh.SetCollisionType(1)
	}
	b.SetPosition(Vector{X: x, Y: y})
	w.bodies = append(w.bodies, b)
	return b
}

// step runs tick t of the script: a body added every 7th tick, one removed
// every 11th (with its shapes), a push every 13th.
func (w *world) step(t int) {
	s := w.space
	switch {
	case t%7 == 0:
		w.spawn()
	case t%11 == 0:
		b := w.bodies[10+t%40]
		if b.space != nil { // its joints, shapes and then itself, as cp asks
			var joints []*Constraint
			b.EachConstraint(func(c *Constraint) { joints = append(joints, c) })
			for _, c := range joints {
				s.RemoveConstraint(c)
			}
			for _, sh := range append([]*Shape(nil), b.shapeList...) {
				s.RemoveShape(sh)
			}
			s.RemoveBody(b)
		}
	case t%13 == 0:
		b := w.bodies[t%len(w.bodies)]
		if b.space != nil {
			b.Activate()
			b.ApplyImpulseAtLocalPoint(Vector{X: 40, Y: -80}, Vector{})
		}
	}
	if w.beforeStep != nil {
		w.beforeStep(t)
	}
	s.Step(1.0 / 60)
}

// state hashes everything observable of the space, in its own order: each
// body's pose, velocities, forces and sleep, each arbiter's impulse and
// contacts, the counts, and the handler's count.
func (w *world) state() uint64 {
	h := fnv.New64a()
	put := func(fs ...float64) {
		for _, f := range fs {
			var b [8]byte
			u := math.Float64bits(f)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			h.Write(b[:])
		}
	}
	w.space.EachBody(func(b *Body) {
		put(b.p.X, b.p.Y, b.v.X, b.v.Y, b.a, b.w, b.f.X, b.f.Y, b.t, b.sleepingIdleTime)
		if b.IsSleeping() {
			put(1)
		}
		b.EachArbiter(func(a *Arbiter) {
			j := a.TotalImpulse()
			put(j.X, j.Y, float64(a.Count()), float64(a.state))
		})
	})
	put(float64(len(w.space.arbiters)), float64(w.touches), float64(w.space.stamp))
	return h.Sum64()
}

// A snapshot restored gives, step for step, what the steps after it gave:
// bodies added and removed since, sleeping piles, contacts and joints, with
// either spatial index; restored again, the same once more.
func TestSnapshotRestoreIsExact(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprintf("hash=%v", hash), func(t *testing.T) {
			w := newWorld(hash)
			for tick := 1; tick <= 240; tick++ {
				w.step(tick)
			}
			var snap Snapshot
			if err := w.space.Snapshot(&snap); err != nil {
				t.Fatal(err)
			}
			pcg, touches, nbodies := *w.pcg, w.touches, len(w.bodies)
			const ahead = 300
			want := make([]uint64, ahead)
			sleeping := 0
			for i := range want {
				w.step(241 + i)
				want[i] = w.state()
				w.space.EachBody(func(b *Body) {
					if b.IsSleeping() {
						sleeping++
					}
				})
			}
			if sleeping == 0 {
				t.Fatal("no body ever slept: the test does not cover sleeping")
			}
			for round := range 2 {
				if err := w.space.Restore(&snap); err != nil {
					t.Fatal(err)
				}
				*w.pcg, w.touches, w.bodies = pcg, touches, w.bodies[:nbodies]
				for i := range want {
					w.step(241 + i)
					if got := w.state(); got != want[i] {
						t.Fatalf("restore %d: tick %d differs from the run after the snapshot", round+1, 241+i)
					}
				}
			}
		})
	}
}

// While no body sleeps, the arbiters on the bodies' lists are the step's
// (space.arbiters): Snapshot then saves them from there and does not walk
// the lists, and Step empties the lists without unthreading each arbiter.
// The world's script adds bodies, removes them (asleep or not) and pushes
// them awake, and piles fall asleep; every 50 ticks every sleeping pile is
// woken. After each step, before each step (the script's changes made)
// and after each waking, with no body asleep, the lists are checked.
// Snapshots taken then, and taken with piles asleep just before they are
// woken, restore the next 60 steps exactly.
func TestArbiterListsAreTheStepsWhileNoneSleeps(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprintf("hash=%v", hash), func(t *testing.T) {
			w := newWorld(hash)
			slept, checked, woken := false, 0, 0
			check := func(tick int) {
				t.Helper()
				step := map[*Arbiter]bool{}
				for _, a := range w.space.arbiters {
					step[a] = true
				}
				bodies := append([]*Body{w.space.StaticBody}, w.space.dynamicBodies...)
				for _, b := range append(bodies, w.space.staticBodies...) {
					for a := b.arbiterList; a != nil; a = a.Next(b) {
						if !step[a] {
							t.Fatalf("tick %d, no body asleep: an arbiter on a body's list is not the step's", tick)
						}
					}
				}
				checked++
			}
			w.beforeStep = func(tick int) {
				if len(w.space.sleepingComponents) == 0 {
					check(tick)
				}
			}
			for tick := 1; tick <= 900; tick++ {
				w.step(tick)
				if len(w.space.sleepingComponents) > 0 {
					slept = true
				} else {
					check(tick)
				}
				if tick%50 != 0 || len(w.space.sleepingComponents) == 0 {
					continue
				}
				wake := func() {
					for len(w.space.sleepingComponents) > 0 {
						w.space.sleepingComponents[0].Activate()
					}
				}
				if woken%4 == 2 { // a snapshot with piles asleep, woken after it
					w.snapshotRestores(t, tick, 60, wake)
				}
				wake()
				woken++
				check(tick)
				if woken%4 == 1 {
					w.snapshotRestores(t, tick, 60, func() {})
				}
			}
			if !slept || woken < 4 || checked < 100 {
				t.Fatalf("slept %v, woken %d times, checked %d times: the test does not cover waking", slept, woken, checked)
			}
		})
	}
}

// snapshotRestores takes a snapshot after tick, calls then and steps n
// ticks, restores it, calls then and steps the n ticks again, and fails t
// unless they give the same states; the world goes on from there.
func (w *world) snapshotRestores(t *testing.T, tick, n int, then func()) {
	t.Helper()
	var snap Snapshot
	if err := w.space.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	pcg, touches, nbodies := *w.pcg, w.touches, len(w.bodies)
	want := make([]uint64, n)
	then()
	for i := range want {
		w.step(tick + 1 + i)
		want[i] = w.state()
	}
	if err := w.space.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	*w.pcg, w.touches, w.bodies = pcg, touches, w.bodies[:nbodies]
	then()
	for i := range want {
		w.step(tick + 1 + i)
		if got := w.state(); got != want[i] {
			t.Fatalf("snapshot after tick %d: tick %d differs once restored", tick, tick+1+i)
		}
	}
}

// A restore puts every free list back as it was, each of its own objects
// in its own order: the space's free arbiters, and each index's free
// nodes, pairs, bins, handles and set bins (a list joined to another
// would hand one object out twice).
func TestSnapshotRestoresFreeLists(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprintf("hash=%v", hash), func(t *testing.T) {
			w := newWorld(hash)
			for tick := 1; tick <= 240; tick++ {
				w.step(tick)
			}
			var snap Snapshot
			if err := w.space.Snapshot(&snap); err != nil {
				t.Fatal(err)
			}
			want := freeLists(w.space)
			for tick := 241; tick <= 540; tick++ {
				w.step(tick)
			}
			if err := w.space.Restore(&snap); err != nil {
				t.Fatal(err)
			}
			got := freeLists(w.space)
			for name, list := range want {
				if len(list) == 0 && name != "static.pairs" { // the static tree pairs nothing
					t.Errorf("%s: empty when the snapshot was taken: the test does not cover it", name)
				}
				if !slices.Equal(got[name], list) {
					t.Errorf("%s: %d objects after the restore, %d when the snapshot was taken, or others", name, len(got[name]), len(list))
				}
			}
		})
	}
}

// freeLists returns the space's free lists by name, each in its order.
func freeLists(space *Space) map[string][]any {
	lists := map[string][]any{"arbiters": nil, "cachedArbiters.bins": listOf(space.cachedArbiters.pooledBins,
		func(b *HashSetBin[*Arbiter]) *HashSetBin[*Arbiter] { return b.next })}
	for _, p := range space.pooledArbiters {
		lists["arbiters"] = append(lists["arbiters"], p)
	}
	for name, idx := range map[string]*SpatialIndex{"static": space.staticShapes, "dynamic": space.dynamicShapes} {
		switch c := idx.class.(type) {
		case *BBTree:
			lists[name+".nodes"] = listOf(c.pooledNodes, func(n *Node) *Node { return n.parent })
			lists[name+".pairs"] = listOf(c.pooledPairs, func(p *Pair) *Pair { return p.a.next })
			lists[name+".leaves.bins"] = listOf(c.leaves.pooledBins, func(b *HashSetBin[*Node]) *HashSetBin[*Node] { return b.next })
		case *SpaceHash:
			lists[name+".bins"] = listOf(c.pooledBins, func(b *SpaceHashBin) *SpaceHashBin { return b.next })
			lists[name+".handleSet.bins"] = listOf(c.handleSet.pooledBins,
				func(b *HashSetBin[*Handle]) *HashSetBin[*Handle] { return b.next })
			for _, h := range c.pooledHandles {
				lists[name+".handles"] = append(lists[name+".handles"], h)
			}
		}
	}
	return lists
}

func listOf[T any](head *T, next func(*T) *T) []any {
	var l []any
	for p := head; p != nil; p = next(p) {
		l = append(l, p)
	}
	return l
}

// Snapshot and Restore refuse what they cannot do exactly.
func TestSnapshotRefusals(t *testing.T) {
	w := newWorld(false)
	var snap Snapshot
	if err := NewSpace().Restore(&snap); err == nil {
		t.Fatal("Restore of an empty snapshot: no error")
	}
	if err := w.space.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	if err := NewSpace().Restore(&snap); err == nil {
		t.Fatal("Restore into another space: no error")
	}
	w.space.NewCollisionHandler(1, 2).PreSolveFunc = func(arb *Arbiter, space *Space, data any) bool {
		if err := space.Snapshot(&Snapshot{}); err != ErrSnapshotLocked {
			t.Errorf("Snapshot during a step: %v", err)
		}
		return true
	}
	for range 60 {
		w.space.Step(1.0 / 60)
	}
}

// Once a snapshot has held the space, taking it again allocates nothing.
func TestSnapshotAllocatesNothingOnceWarm(t *testing.T) {
	w := newWorld(true)
	for tick := 1; tick <= 120; tick++ {
		w.space.Step(1.0 / 60)
	}
	var snap Snapshot
	w.space.Snapshot(&snap)
	if n := testing.AllocsPerRun(20, func() {
		if err := w.space.Snapshot(&snap); err != nil {
			t.Fatal(err)
		}
		if err := w.space.Restore(&snap); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("a warm snapshot and restore allocate %v times", n)
	}
}
