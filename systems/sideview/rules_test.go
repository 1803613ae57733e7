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
	spikeC = donburi.NewTag()
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

// rulesScenario is a scene of the rules and the keys held at each tick,
// and the events it must see.
type rulesScenario struct {
	name  string
	build func(t *testing.T) *rig
	keys  func(tick int64) []input.Key
	want  sideview.HeroEvents
}

var rulesScenarios = []rulesScenario{
	{"stomp", func(t *testing.T) *rig {
		r := heroRig(t, cp.Vector{Y: -80}, func(rs *sideview.Rules) { rs.Stomp(enemyC).Hurt(enemyC) })
		r.enemy(0)
		return r
	}, func(int64) []input.Key { return nil }, sideview.HeroStomped},
	{"hurt", func(t *testing.T) *rig {
		r := heroRig(t, cp.Vector{Y: -12}, func(rs *sideview.Rules) { rs.Hurt(enemyC).Hurt(spikeC) })
		r.enemy(60)
		r.p.SpawnBox(16, 6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: -60, Y: -3}}, spikeC)
		return r
	}, func(tick int64) []input.Key {
		if tick%200 < 100 {
			return []input.Key{input.KeyArrowRight}
		}
		return []input.Key{input.KeyArrowLeft}
	}, sideview.HeroHurt | sideview.HeroLostLife},
	{"pickups, checkpoint, kill plane", func(t *testing.T) *rig {
		r := heroRig(t, cp.Vector{X: -150, Y: -12}, func(rs *sideview.Rules) { rs.Pickup(itemC).Checkpoint(flagC).KillBelow(200) })
		r.p.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: -100, Y: -12}}, itemC)
		r.p.SpawnBox(12, 24, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 100, Y: -12}}, flagC)
		return r
	}, func(int64) []input.Key { return []input.Key{input.KeyArrowRight} }, sideview.HeroPicked | sideview.HeroCheckpoint | sideview.HeroFell | sideview.HeroRespawned},
	{"crush", func(t *testing.T) *rig {
		r := heroRig(t, cp.Vector{Y: -12}, func(rs *sideview.Rules) { rs.Crush() })
		r.spawnMover(60, 10, sideview.Mover{Path: []cp.Vector{{Y: -80}, {Y: 20}}, Period: 1, Wait: 0.3, Ease: sideview.Smooth})
		return r
	}, func(int64) []input.Key { return nil }, sideview.HeroCrushed | sideview.HeroRespawned},
}

// Each rule is the same at 24, 60 and 144 frames a second, sees its
// events, and a snapshot restored goes on to the same state: the hero's,
// and its place.
func TestRulesFrameRateAndRollback(t *testing.T) {
	type end struct {
		pos  cp.Vector
		hero sideview.Hero
		all  sideview.HeroEvents // every event of the run
	}
	for _, sc := range rulesScenarios {
		var ends []end
		for _, fps := range []float64{24, 60, 144} {
			var e end
			scene := engine.NewScene("Rules", func(loop *engine.Loop) (engine.Scene, error) {
				r := sc.build(t)
				sched := engine.NewScheduler(r.w)
				sched.AddUpdate(0, "controller", r.ctl.Update)
				if r.movers != nil {
					sched.AddUpdate(0, "movers", r.movers.Update)
				}
				sched.AddUpdate(0, "physics", r.p.Update).AddUpdate(0, "rules", r.rules.Update)
				for ev := range loop.Events(sched.Groups()...) {
					sched.Handle(ev)
					if ev.Kind == engine.Update {
						e.all |= r.heroState().Events
					}
					if ev.Kind == engine.Update && ev.Tick == 400 {
						e.pos, e.hero = r.pos(), *r.heroState()
						loop.Stop()
					}
				}
				return nil, loop.Err()
			})
			script := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
				for _, k := range sc.keys(ti.Tick) {
					in.SetKey(k, true)
				}
			})
			if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: script}); err != nil {
				t.Fatal(err)
			}
			ends = append(ends, e)
		}
		if ends[0] != ends[1] || ends[1] != ends[2] || ends[0].all&sc.want != sc.want {
			t.Errorf("%s: ends at 24, 60, 144 fps (events %b wanted):\n%+v\n%+v\n%+v", sc.name, sc.want, ends[0], ends[1], ends[2])
		}

		r := sc.build(t)
		var tick int64
		step := func() {
			tick++
			r.step(sc.keys(tick)...)
		}
		for range 100 {
			step()
		}
		var snap physics.Snapshot
		if err := r.p.Snapshot(&snap); err != nil {
			t.Fatal(err)
		}
		for range 300 {
			step()
		}
		first := end{pos: r.pos(), hero: *r.heroState()}
		if err := r.p.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		tick = 100
		for range 300 {
			step()
		}
		if again := (end{pos: r.pos(), hero: *r.heroState()}); again != first {
			t.Errorf("%s: after a restore: %+v, want %+v", sc.name, again, first)
		}
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
