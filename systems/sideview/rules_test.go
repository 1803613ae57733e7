package sideview_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/sideview"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var (
	enemyC = donburi.NewTag()
	itemC  = donburi.NewTag()
	flagC  = donburi.NewTag()
)

// heroRig is a rig whose character is a Hero with 3 lives, starting where
// it stands, under rules.
func heroRig(t *testing.T, at cp.Vector, rules func(*sideview.Rules)) *rig {
	r := newRig(t, at)
	e := r.w.Entry(r.hero)
	e.AddComponent(sideview.HeroC)
	sideview.HeroC.SetValue(e, sideview.Hero{Lives: 3, Checkpoint: at})
	r.rules = sideview.NewRules(r.p)
	rules(r.rules)
	return r
}

func (r *rig) heroState() *sideview.Hero { return sideview.HeroC.Get(r.w.Entry(r.hero)) }

// enemy spawns a patrolling-size box on the floor at x.
func (r *rig) enemy(x float64) donburi.Entity {
	return r.p.SpawnBox(14, 14, &physics.BodyOptions{Position: cp.Vector{X: x, Y: -7}, Moment: 1e9}, enemyC)
}

// An enemy landed on from above is stomped: removed, counted, the hero
// bounces, and no life is lost; without the Stomp rule, it hurts.
func TestStomp(t *testing.T) {
	r := heroRig(t, cp.Vector{Y: -80}, func(rs *sideview.Rules) { rs.Stomp(enemyC).Hurt(enemyC) })
	foe := r.enemy(0)
	var events sideview.HeroEvents
	var vy float64
	for range 40 {
		r.step()
		if h := r.heroState(); h.Events.Did(sideview.HeroStomped) {
			events, vy = h.Events, r.vel().Y
		}
	}
	if h := r.heroState(); r.w.Valid(foe) || h.Stomps != 1 || h.Lives != 3 || events.Did(sideview.HeroHurt) || vy != -300 {
		t.Errorf("stomped: enemy still there %v, %+v, events %b, bounced at %v", r.w.Valid(foe), h, events, vy)
	}

	hurt := heroRig(t, cp.Vector{Y: -80}, func(rs *sideview.Rules) { rs.Hurt(enemyC) })
	hurt.enemy(0)
	hurt.run(40)
	if h := hurt.heroState(); h.Lives != 2 || h.Stomps != 0 {
		t.Errorf("landing on an enemy without the Stomp rule: %+v, want hurt", h)
	}
}

// An enemy run into hurts once: a life lost, knocked back away from it,
// invulnerable (blinking) for its ticks, during which touching it again
// does nothing.
func TestHurt(t *testing.T) {
	r := heroRig(t, cp.Vector{Y: -12}, func(rs *sideview.Rules) { rs.Hurt(enemyC) })
	r.w.Entry(r.hero).AddComponent(gfx.SpriteC)
	r.enemy(60)
	hurtAt, hurts, blinked := -1, 0, false
	var knock cp.Vector
	for i := range 200 {
		r.step(input.KeyArrowRight)
		h := r.heroState()
		if h.Events.Did(sideview.HeroHurt) {
			hurts++
			if hurtAt < 0 {
				hurtAt, knock = i, r.vel()
			}
		}
		blinked = blinked || gfx.SpriteC.Get(r.w.Entry(r.hero)).Hidden
	}
	h := r.heroState()
	if hurtAt < 0 || knock.X >= 0 || knock.Y > -200 || !blinked {
		t.Fatalf("running into an enemy: hurt at tick %d, knocked back at %v, blinked %v", hurtAt, knock, blinked)
	}
	if want := 3 - hurts; h.Lives != want || hurts > 1+(200-hurtAt)/90 {
		t.Errorf("%d hurts in %d ticks after the first (invulnerable 90), lives %d", hurts, 200-hurtAt, h.Lives)
	}
}

// Pickups vanish and count by kind and value; a checkpoint touched is
// where the hero respawns after falling below the kill plane, a life lost.
func TestPickupsCheckpointAndKillPlane(t *testing.T) {
	r := heroRig(t, cp.Vector{X: -150, Y: -12}, func(rs *sideview.Rules) {
		rs.Pickup(itemC).Checkpoint(flagC).KillBelow(200)
	})
	star := r.p.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: -100, Y: -12}}, itemC)
	gem := r.p.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: -50, Y: -12}}, itemC, sideview.PickupC)
	sideview.PickupC.SetValue(r.w.Entry(gem), sideview.Pickup{Kind: 1, Value: 5})
	flag := cp.Vector{X: 100, Y: -12}
	r.p.SpawnBox(12, 24, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: flag}, flagC)
	var all sideview.HeroEvents
	checkpoints, respawnedAt := 0, cp.Vector{}
	for range 240 {
		r.step(input.KeyArrowRight) // on, off the floor's end at x 200
		h := r.heroState()
		all |= h.Events
		if h.Events.Did(sideview.HeroCheckpoint) {
			checkpoints++
		}
		if h.Events.Did(sideview.HeroRespawned) && respawnedAt == (cp.Vector{}) {
			respawnedAt = r.pos()
		}
	}
	h := r.heroState()
	if r.w.Valid(star) || r.w.Valid(gem) || h.Counts != [4]int{1, 5} || !all.Did(sideview.HeroPicked) {
		t.Errorf("pickups: star left %v, gem left %v, counts %v", r.w.Valid(star), r.w.Valid(gem), h.Counts)
	}
	if checkpoints < 1 || h.Checkpoint != flag || respawnedAt != flag || !all.Did(sideview.HeroFell|sideview.HeroLostLife) || h.Lives >= 3 {
		t.Errorf("checkpoint touched %d times, at %v; respawned at %v; events %b; lives %d", checkpoints, h.Checkpoint, respawnedAt, all, h.Lives)
	}
}

// With Crush, a hero crushed by a lift loses one life (not one a tick)
// and respawns; the lift goes on.
func TestCrushRule(t *testing.T) {
	r := heroRig(t, cp.Vector{Y: -12}, func(rs *sideview.Rules) { rs.Crush() })
	sideview.HeroC.Get(r.w.Entry(r.hero)).Checkpoint = cp.Vector{X: 150, Y: -12}
	lift := r.spawnMover(60, 10, sideview.Mover{Path: []cp.Vector{{Y: -80}, {Y: 20}}, Period: 1})
	crushes := 0
	for range 120 {
		r.step()
		if r.heroState().Events.Did(sideview.HeroCrushed) {
			crushes++
		}
	}
	if h, m := r.heroState(), sideview.MoverC.Get(r.w.Entry(lift)); crushes != 1 || h.Lives != 2 || r.pos().X < 140 || m.Blocked {
		t.Errorf("crushed %d times, lives %d, at %v, lift blocked %v", crushes, h.Lives, r.pos(), m.Blocked)
	}
}

// The rules are the same at 24, 60 and 144 frames a second, and a snapshot
// restored goes on to the same state.
func TestRulesFrameRateAndRollback(t *testing.T) {
	build := func(t *testing.T) *rig {
		r := heroRig(t, cp.Vector{X: -150, Y: -12}, func(rs *sideview.Rules) {
			rs.Stomp(enemyC).Hurt(enemyC).Pickup(itemC).Checkpoint(flagC).KillBelow(200).Crush()
		})
		r.enemy(-40)
		r.enemy(60)
		r.p.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: -100, Y: -40}}, itemC)
		r.p.SpawnBox(12, 24, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 20, Y: -12}}, flagC)
		r.spawnMover(40, 8, sideview.Mover{Path: []cp.Vector{{X: 120, Y: -80}, {X: 120, Y: -2}}, Period: 1.5, Wait: 0.5})
		return r
	}
	keys := func(tick int64, in *input.State) {
		in.SetKey(input.KeyArrowRight, tick%160 < 120)
		in.SetKey(input.KeyArrowLeft, tick%160 >= 140)
		in.SetKey(input.KeySpace, tick%50 < 12)
	}
	type end struct {
		pos  cp.Vector
		hero sideview.Hero
	}
	var ends []end
	for _, fps := range []float64{24, 60, 144} {
		var e end
		scene := engine.NewScene("Rules", func(loop *engine.Loop) (engine.Scene, error) {
			r := build(t)
			sched := engine.NewScheduler(r.w)
			sched.AddUpdate(0, "controller", r.ctl.Update).AddUpdate(0, "movers", r.movers.Update).
				AddUpdate(0, "physics", r.p.Update).AddUpdate(0, "rules", r.rules.Update)
			for ev := range loop.Events(sched.Groups()...) {
				sched.Handle(ev)
				if ev.Kind == engine.Update && ev.Tick == 600 {
					e = end{r.pos(), *r.heroState()}
					loop.Stop()
				}
			}
			return nil, loop.Err()
		})
		script := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) { keys(ti.Tick, in) })
		if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: script}); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, e)
	}
	if ends[0] != ends[1] || ends[1] != ends[2] || ends[0].hero.Counts[0] != 1 {
		t.Errorf("ends at 24, 60, 144 fps:\n%+v\n%+v\n%+v", ends[0], ends[1], ends[2])
	}
	t.Logf("after 600 ticks: %+v", ends[0])

	r := build(t)
	step := func(i int64) {
		var in input.State
		keys(i, &in)
		held := []input.Key{}
		for _, k := range []input.Key{input.KeyArrowRight, input.KeyArrowLeft, input.KeySpace} {
			if in.KeyDown(k) {
				held = append(held, k)
			}
		}
		r.step(held...)
	}
	for i := range int64(200) {
		step(i)
	}
	var snap physics.Snapshot
	if err := r.p.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	for i := range int64(250) {
		step(200 + i)
	}
	first := end{r.pos(), *r.heroState()}
	if err := r.p.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	for i := range int64(250) {
		step(200 + i)
	}
	if again := (end{r.pos(), *r.heroState()}); again != first {
		t.Errorf("after a restore: %+v, want %+v", again, first)
	}
}

// A tick of the rules allocates nothing once warm.
func TestRulesAllocateNothing(t *testing.T) {
	r := heroRig(t, cp.Vector{Y: -12}, func(rs *sideview.Rules) { rs.Hurt(enemyC).KillBelow(200).Crush() })
	r.run(10)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	if n := testing.AllocsPerRun(100, func() { r.rules.Update(r.w, ev) }); n != 0 {
		t.Errorf("Rules.Update allocates %v times a tick", n)
	}
}
