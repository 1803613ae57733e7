package physics_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Hits counts a ball's touches of the walls: game state that contact
// callbacks write.
type Hits struct{ N int }

var (
	hitsC = donburi.NewComponentType[Hits]()
	wallT = donburi.NewTag("wall")
)

// bin is a physics world for the snapshot tests: balls and boxes poured
// into a walled bin, sleeping on, a callback counting touches into the
// world, and a script that spawns and removes entities as it runs.
type bin struct {
	w   donburi.World
	p   *physics.Physics
	pcg *rand.PCG
	rng *rand.Rand
}

func newBin() *bin {
	w := donburi.NewWorld()
	b := &bin{w: w, p: physics.New(w, physics.Config{Gravity: cp.Vector{Y: 300}, SleepTimeThreshold: 0.5, IdleSpeedThreshold: 20}), pcg: rand.NewPCG(5, 6)}
	b.rng = rand.New(b.pcg)
	b.p.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 0, Y: 300}, {X: 300, Y: 300}, {X: 300, Y: 0}}, 3,
		&physics.BodyOptions{Kind: physics.Static, Friction: 0.8}, wallT)
	b.p.OnCollide(hitsC, wallT, func(w donburi.World, c physics.Contact) { hitsC.Get(w.Entry(c.A)).N++ })
	for range 40 {
		b.spawn()
	}
	return b
}

func (b *bin) spawn() {
	o := &physics.BodyOptions{Position: cp.Vector{X: 20 + 260*b.rng.Float64(), Y: 20 + 100*b.rng.Float64()},
		Friction: 0.6, Elasticity: 0.3}
	if b.rng.IntN(3) == 0 {
		b.p.SpawnBox(10, 8, o, hitsC)
	} else {
		b.p.SpawnCircle(3+4*b.rng.Float64(), o, hitsC)
	}
}

// tick runs tick t: a spawn every 17th, a removal every 23rd, the step.
func (b *bin) tick(t int64) {
	switch {
	case t%17 == 0:
		b.spawn()
	case t%23 == 0:
		var all []donburi.Entity
		for e := range hitsC.Iter(b.w) {
			all = append(all, e.Entity())
		}
		b.w.Remove(all[b.rng.IntN(len(all))])
	}
	b.p.Update(b.w, engine.Event{Kind: engine.Update, Tick: t, DT: 1.0 / 60})
}

// A physics world restored from a snapshot gives, tick for tick, the
// state checksums (every component of every entity, bodies included) of
// the ticks that followed the snapshot; restored again, the same again.
func TestPhysicsSnapshotRestoreIsExact(t *testing.T) {
	b := newBin()
	for tick := int64(1); tick <= 300; tick++ {
		b.tick(tick)
	}
	var snap physics.Snapshot
	if err := b.p.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	pcg := *b.pcg
	want := make([]uint64, 240)
	for i := range want {
		b.tick(301 + int64(i))
		want[i] = state.Checksum(b.w)
	}
	hits := 0
	for e := range hitsC.Iter(b.w) {
		hits += hitsC.Get(e).N
	}
	if hits == 0 {
		t.Fatal("nothing touched the walls: the test does not cover contacts")
	}
	for round := range 2 {
		if err := b.p.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		*b.pcg = pcg
		for i := range want {
			b.tick(301 + int64(i))
			if got := state.Checksum(b.w); got != want[i] {
				t.Fatalf("restore %d: tick %d's checksum %016x, the run after the snapshot had %016x", round+1, 301+i, got, want[i])
			}
		}
	}
	if err := newBin().p.Restore(&snap); err == nil {
		t.Fatal("restore into another physics system: no error")
	}
}

// Setting every body's pose and velocity back is not a restore: cp's
// hidden state (cached impulses, the spatial index, sleep) makes the next
// ticks differ. This is why the snapshot copies the whole space.
func TestPosesAloneAreNotARestore(t *testing.T) {
	b := newBin()
	for tick := int64(1); tick <= 300; tick++ {
		b.tick(tick)
	}
	type pose struct {
		p, v cp.Vector
		a, w float64
	}
	saved := map[*cp.Body]pose{}
	b.p.Space().EachBody(func(body *cp.Body) {
		saved[body] = pose{body.Position(), body.Velocity(), body.Angle(), body.AngularVelocity()}
	})
	var snap physics.Snapshot
	b.p.Snapshot(&snap)
	for tick := int64(301); tick <= 360; tick++ {
		b.p.Update(b.w, engine.Event{Kind: engine.Update, Tick: tick, DT: 1.0 / 60})
	}
	want := state.Checksum(b.w)
	b.p.Restore(&snap)
	for tick := int64(301); tick <= 360; tick++ {
		b.p.Update(b.w, engine.Event{Kind: engine.Update, Tick: tick, DT: 1.0 / 60})
	}
	if got := state.Checksum(b.w); got != want {
		t.Fatalf("a full restore differs: %016x, want %016x", got, want)
	}
	b.p.Restore(&snap)
	for tick := int64(301); tick <= 330; tick++ { // the space moves on
		b.p.Update(b.w, engine.Event{Kind: engine.Update, Tick: tick, DT: 1.0 / 60})
	}
	for body, s := range saved { // and only the poses go back
		body.SetPosition(s.p)
		body.SetVelocity(s.v.X, s.v.Y)
		body.SetAngle(s.a)
		body.SetAngularVelocity(s.w)
	}
	b.p.Sync(b.w)
	for tick := int64(301); tick <= 360; tick++ {
		b.p.Update(b.w, engine.Event{Kind: engine.Update, Tick: tick, DT: 1.0 / 60})
	}
	if got := state.Checksum(b.w); got == want {
		t.Fatal("poses alone restored the run: the full snapshot would not be needed")
	}
}

// Once warm, a snapshot and a restore of a physics world allocate nothing.
func TestPhysicsSnapshotAllocatesNothingOnceWarm(t *testing.T) {
	b := newBin()
	for tick := int64(1); tick <= 120; tick++ {
		b.tick(tick)
	}
	var snap physics.Snapshot
	b.p.Snapshot(&snap)
	if n := testing.AllocsPerRun(20, func() {
		b.p.Snapshot(&snap)
		b.p.Restore(&snap)
	}); n != 0 {
		t.Fatalf("a warm snapshot and restore allocate %v times", n)
	}
}

// BenchmarkPhysicsSnapshot snapshots the physics world of Chipmunk's
// SimpleTerrainCircles scene (bodies=N entities with Transform, Body and
// Shape, settled 5 s), steps it once through the physics system and
// restores it, each timed, every iteration (so the three always see the
// same state). It reports their medians, the snapshot and restore over the
// step (the goal: below 1), and the snapshot's bytes.
func BenchmarkPhysicsSnapshot(b *testing.B) {
	skipShort(b)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			w, p, _ := physicsScene(n)
			for range 300 {
				p.Update(w, ev)
			}
			var snap physics.Snapshot
			if err := p.Snapshot(&snap); err != nil {
				b.Fatal(err)
			}
			var snapNs, stepNs, restoreNs []float64
			for b.Loop() {
				t0 := time.Now()
				p.Snapshot(&snap)
				t1 := time.Now()
				p.Update(w, ev)
				t2 := time.Now()
				if err := p.Restore(&snap); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				snapNs = append(snapNs, float64(t1.Sub(t0)))
				stepNs = append(stepNs, float64(t2.Sub(t1)))
				restoreNs = append(restoreNs, float64(t3.Sub(t2)))
			}
			s, st, r := median(snapNs), median(stepNs), median(restoreNs)
			b.ReportMetric(s, "ns/snapshot")
			b.ReportMetric(r, "ns/restore")
			b.ReportMetric(st, "ns/step")
			b.ReportMetric((s+r)/st, "snapshot+restore/step")
			b.ReportMetric(float64(snap.Bytes()), "bytes/snapshot")
		})
	}
}

// What the physics noted between two ticks is state too: an entity removed
// after a step separates at once and is reported with the next step's
// events; a snapshot taken in between has the next step report it again
// after a restore, and a restore to before it was noted forgets it (its
// entity may not exist in the world restored).
func TestSnapshotKeepsWhatWasNotedBetweenTicks(t *testing.T) {
	w, p := newPhysics(cp.Vector{Y: 200})
	p.SpawnBox(400, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}}, tagB)
	ball := p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{Y: 85}}, tagA)
	var log []string
	physics.CollisionSeparate.Subscribe(w, func(_ donburi.World, c physics.Collision) { log = append(log, fmt.Sprint("event ", c.A, c.B)) })
	p.OnSeparate(nil, nil, func(_ donburi.World, c physics.Contact) { log = append(log, fmt.Sprint("separate ", c.A, c.B)) })
	step(w, p, 5)
	var before, noted physics.Snapshot
	if err := p.Snapshot(&before); err != nil {
		t.Fatal(err)
	}
	late := p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: 50, Y: 85}}, tagA)
	step(w, p, 2)
	w.Remove(ball)
	w.Remove(late)
	if err := p.Snapshot(&noted); err != nil {
		t.Fatal(err)
	}
	step(w, p, 1)
	want := slices.Clone(log)
	if len(want) != 2 {
		t.Fatalf("the step after the removals reported %q, want the two separations' events", want)
	}
	log = log[:0]
	if err := p.Restore(&noted); err != nil {
		t.Fatal(err)
	}
	step(w, p, 1)
	if !slices.Equal(log, want) {
		t.Errorf("restored between the removals and the step: %q, want %q", log, want)
	}

	w.Remove(ball) // noted, then undone by the restore
	log = log[:0]
	if err := p.Restore(&before); err != nil {
		t.Fatal(err)
	}
	step(w, p, 1)
	if len(log) != 0 || !w.Valid(ball) {
		t.Errorf("restored to before the removal: %q reported", log)
	}
}
