package physics_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// oneWayRig is a one-way platform (its top solid, y down) at y 100 and a
// ball, with every contact event logged by tick.
type oneWayRig struct {
	w        donburi.World
	p        *physics.Physics
	ball     donburi.Entity
	platform donburi.Entity
	tick     int
	log      []string
}

func newOneWayRig(t *testing.T, ballAt cp.Vector, ballV cp.Vector) *oneWayRig {
	r := &oneWayRig{}
	r.w, r.p = newPhysics(cp.Vector{Y: 400})
	r.platform = r.p.SpawnBox(200, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}, OneWay: cp.Vector{Y: -1}}, tagB)
	r.ball = r.p.SpawnCircle(5, &physics.BodyOptions{Position: ballAt, Velocity: ballV}, tagA)
	r.p.OnCollide(tagA, tagB, func(donburi.World, physics.Contact) { r.log = append(r.log, fmt.Sprint("begin ", r.tick)) })
	r.p.OnSeparate(tagA, tagB, func(donburi.World, physics.Contact) { r.log = append(r.log, fmt.Sprint("end ", r.tick)) })
	physics.CollisionBegin.Subscribe(r.w, func(donburi.World, physics.Collision) { r.log = append(r.log, fmt.Sprint("event ", r.tick)) })
	return r
}

func (r *oneWayRig) run(ticks int) {
	for range ticks {
		r.tick++
		step(r.w, r.p, 1)
	}
}

func (r *oneWayRig) y() float64 { return r.p.Body(r.ball).Position().Y }

// A ball that falls onto a one-way platform lands on it, and the contact is
// reported; one thrown up from below passes through it unreported, falls
// back and lands on it, reported once.
func TestOneWayPlatform(t *testing.T) {
	r := newOneWayRig(t, cp.Vector{Y: 40}, cp.Vector{})
	r.run(120)
	if y := r.y(); y < 85 || y > 91 || len(r.log) != 2 || !strings.HasPrefix(r.log[0], "event ") || !strings.HasPrefix(r.log[1], "begin ") {
		t.Errorf("fallen on it: the ball rests at y %v, events %q; want about 90 and one begin", y, r.log)
	}

	r = newOneWayRig(t, cp.Vector{Y: 160}, cp.Vector{Y: -330})
	passed := false
	for range 180 {
		r.run(1)
		if r.y() < 80 && !passed {
			passed = true
			if len(r.log) != 0 {
				t.Errorf("thrown up through the platform: events %q on the way, want none", r.log)
			}
		}
	}
	if y := r.y(); !passed || y < 85 || y > 91 || len(r.log) != 2 || !strings.HasPrefix(r.log[1], "begin ") {
		t.Errorf("thrown up from below: passed %v, rests at y %v, events %q; want through, then landed, one begin", passed, y, r.log)
	}
}

// An entity with the DropThrough tag falls through the platform it stands
// on (the contact's end is reported, as its beginning was) and through any
// other; without it again, it lands on the next one.
func TestDropThrough(t *testing.T) {
	r := newOneWayRig(t, cp.Vector{Y: 40}, cp.Vector{})
	r.p.SpawnBox(200, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 200}, OneWay: cp.Vector{Y: -1}}, tagB)
	r.run(120)
	if y := r.y(); y > 91 || len(r.log) != 2 {
		t.Fatalf("not resting on the first platform: y %v, %q", y, r.log)
	}
	r.w.Entry(r.ball).AddComponent(physics.DropThroughC)
	r.run(30)
	if y := r.y(); y < 110 || len(r.log) != 3 || !strings.HasPrefix(r.log[2], "end ") {
		t.Fatalf("dropping through: y %v, events %q; want below the first platform and its contact ended", y, r.log)
	}
	r.run(60) // through the second platform too
	if y := r.y(); y < 210 {
		t.Fatalf("dropping through the second platform: y %v", y)
	}
	r = newOneWayRig(t, cp.Vector{Y: 40}, cp.Vector{})
	r.p.SpawnBox(200, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 200}, OneWay: cp.Vector{Y: -1}}, tagB)
	r.run(120)
	r.w.Entry(r.ball).AddComponent(physics.DropThroughC)
	r.run(15)
	r.w.Entry(r.ball).RemoveComponent(physics.DropThroughC)
	r.run(90)
	if y := r.y(); y < 185 || y > 191 {
		t.Errorf("dropped through the first, landed on the second: y %v, want about 190; events %q", y, r.log)
	}
}

// Shapes spawned with collision types report their contacts once, whatever
// the types' order: a pair of two types, of one type, and of a type with
// the default.
func TestCollisionTypesReportOnce(t *testing.T) {
	w, p := newPhysics(cp.Vector{Y: 400})
	var begins []physics.Collision
	physics.CollisionBegin.Subscribe(w, func(_ donburi.World, c physics.Collision) { begins = append(begins, c) })
	for i, types := range [][2]cp.CollisionType{{7, 3}, {3, 7}, {5, 5}, {0, 9}, {9, 0}} {
		x := float64(i) * 100
		p.SpawnBox(40, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: x, Y: 100}, CollisionType: types[0]})
		p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: x, Y: 60}, CollisionType: types[1]})
	}
	step(w, p, 60)
	if len(begins) != 5 {
		t.Errorf("%d contacts begun, want 5 (one per pair): %v", len(begins), begins)
	}
}

// Bad one-way or collision type settings are refused at spawn.
func TestOneWayOptionsRefused(t *testing.T) {
	_, p := newPhysics(cp.Vector{})
	for _, c := range []struct {
		o    physics.BodyOptions
		says string
	}{
		{physics.BodyOptions{Kind: physics.Static, OneWay: cp.Vector{Y: -1}, CollisionType: 3}, "not both"},
		{physics.BodyOptions{Kind: physics.Static, OneWay: cp.Vector{Y: -1}, Sensor: true}, "sensor"},
		{physics.BodyOptions{CollisionType: physics.OneWayCollisionType}, "reserved"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.says) {
					t.Errorf("%+v: %v, want a panic saying %q", c.o, r, c.says)
				}
			}()
			p.SpawnBox(10, 10, &c.o)
		}()
	}
}

// A snapshot taken while the ball passes up through the platform (its
// contact ignored in cp's arbiter) restores to the same pass: the ticks
// after a restore give the same positions and the same events.
func TestOneWaySnapshotRestore(t *testing.T) {
	r := newOneWayRig(t, cp.Vector{Y: 160}, cp.Vector{Y: -330})
	for r.y() > 101 {
		r.run(1)
	}
	var snap physics.Snapshot
	if err := r.p.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	play := func() string {
		r.log = r.log[:0]
		var ys []string
		for range 120 {
			r.run(1)
			ys = append(ys, fmt.Sprintf("%.9g", r.y()))
		}
		return strings.Join(ys, " ") + " | " + strings.Join(r.log, ",")
	}
	first := play()
	if err := r.p.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	r.tick -= 120
	if again := play(); again != first || !strings.Contains(first, "begin") {
		t.Errorf("after the restore:\n%s\nfirst:\n%s", again, first)
	}
}
