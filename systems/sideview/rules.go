package sideview

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Hero is a player's character under the genre's rules (Rules): its
// settings (zero takes the default named) and the state the rules keep in
// it, so that a replay, a step back and a save restore it with the world.
// The game sets Lives and Checkpoint (its start) when it spawns it.
type Hero struct {
	InvulnerableTicks int64     // ticks after a hurt or a respawn in which nothing hurts it; 90
	Knockback         cp.Vector // a hurt's speed: X away from what hurt it, Y upwards; (160, 260)
	Bounce            float64   // its upward speed off an enemy it stomps; 300

	Lives        int       // lives left: a hurt, a fall below the kill plane and a crush each cost one
	Checkpoint   cp.Vector // where it respawns (its body's centre): the game's start, then the last checkpoint touched
	Invulnerable int64     // ticks left in which nothing hurts it (it blinks)
	Stomps       int       // enemies stomped
	Counts       [4]int    // pickups taken, their values added by Pickup.Kind
	Events       HeroEvents
}

// HeroC is the component of a hero.
var HeroC = donburi.NewComponentType[Hero]()

// HeroEvents are what happened to a hero in a tick, set by Rules.Update
// and kept until its next tick: a game plays a sound on HeroStomped, ends
// on HeroLostLife with no Lives left.
type HeroEvents uint16

const (
	HeroStomped    HeroEvents = 1 << iota // it stomped an enemy
	HeroHurt                              // something hurt it
	HeroPicked                            // it took a pickup
	HeroCheckpoint                        // it touched a checkpoint it had not
	HeroFell                              // it fell below the kill plane
	HeroCrushed                           // it was crushed (Character.Crushed)
	HeroLostLife                          // a hurt, a fall or a crush cost it a life
	HeroRespawned                         // it was put back at its checkpoint
)

// Did reports whether any of the events ev happened in the tick.
func (e HeroEvents) Did(ev HeroEvents) bool { return e&ev != 0 }

// Pickup is an item a hero takes by touching it: it vanishes and its Value
// (0 counts 1) is added to the hero's Counts[Kind] (Kind 0 to 3). An item
// of a type given to Rules.Pickup without this component counts 1 of kind 0.
type Pickup struct {
	Kind, Value int
}

// PickupC is the component of a pickup's kind and value.
var PickupC = donburi.NewComponentType[Pickup]()

// Rules are the platform genre's rules for every Hero, each one optional:
// a game turns on those it wants, naming the component types of its
// enemies, hazards, pickups and checkpoints,
//
//	rules := sideview.NewRules(st.Physics).Stomp(enemyC).Hurt(enemyC).
//		Pickup(starC).Checkpoint(flagC).KillBelow(lv.Height + 48).Crush()
//	st.Sched.AddUpdate(g, "rules", rules.Update) // right after the physics, in its group
//
// and reads what happened to its hero in Hero.Events. The contacts are the
// physics' (Physics.OnCollide: a touch that begins); the rules act on them
// in Update, in the same tick, so that nothing waits outside the world
// between ticks: a replay, a rollback and -synctest see every rule.
type Rules struct {
	phys    *physics.Physics
	heroes  *donburi.Query
	killY   float64
	kill    bool
	crush   bool
	touches []touch // this tick's contacts, for Update
}

// A touch is a contact a rule handles in Update.
type touch struct {
	rule        uint8
	hero, other donburi.Entity
	normal      cp.Vector // from the hero to the other
}

const (
	ruleStomp uint8 = iota
	ruleHurt
	rulePickup
	ruleCheckpoint
)

// NewRules returns the rules over phys's world, none of them on.
func NewRules(phys *physics.Physics) *Rules {
	return &Rules{phys: phys, heroes: donburi.NewQuery(filter.Contains(HeroC, components.BodyC))}
}

func (r *Rules) on(rule uint8, t donburi.IComponentType) *Rules {
	r.phys.OnCollide(HeroC, t, func(_ donburi.World, c physics.Contact) {
		r.touches = append(r.touches, touch{rule: rule, hero: c.A, other: c.B, normal: c.Normal})
	})
	return r
}

// Stomp: an entity with component t that a hero lands on from above (the
// contact's normal within about 53° of straight down) is stomped: removed,
// counted in Hero.Stomps, and the hero bounces up at Hero.Bounce. A stomp
// is no hurt.
func (r *Rules) Stomp(t donburi.IComponentType) *Rules { return r.on(ruleStomp, t) }

// Hurt: an entity with component t that touches a hero (and is not stomped
// by it) hurts it, unless it is invulnerable: a life lost, the hero knocked
// back away from it, and invulnerable for Hero.InvulnerableTicks. It stays
// where it is.
func (r *Rules) Hurt(t donburi.IComponentType) *Rules { return r.on(ruleHurt, t) }

// Pickup: an entity with component t that a hero touches is taken: removed,
// and counted in Hero.Counts (see Pickup).
func (r *Rules) Pickup(t donburi.IComponentType) *Rules { return r.on(rulePickup, t) }

// Checkpoint: an entity with component t that a hero touches becomes where
// it respawns: its body's position (a sensor the hero's size, standing on
// the ground).
func (r *Rules) Checkpoint(t donburi.IComponentType) *Rules { return r.on(ruleCheckpoint, t) }

// KillBelow puts a kill plane at y (world units, y down): a hero whose
// centre falls below it loses a life and respawns, invulnerable or not.
func (r *Rules) KillBelow(y float64) *Rules {
	r.killY, r.kill = y, true
	return r
}

// Crush: a hero crushed (Character.Crushed) when not invulnerable loses a
// life and respawns. Without it a crush is only told (Character.Crushed),
// and a Mover holds still until the hero leaves.
func (r *Rules) Crush() *Rules {
	r.crush = true
	return r
}

// Update applies the rules to the tick's contacts and to every hero, in
// this order: stomps, hurts, pickups, checkpoints, the kill plane, crushes;
// then runs the invulnerable ticks and blinks an invulnerable hero's
// sprite (gfx.Sprite.Hidden, four ticks in eight). Schedule it right after
// the physics system, in the same group: the contacts it acts on wait for
// it in a buffer that must be empty between ticks, where a snapshot cannot
// see it. It allocates nothing once that buffer has grown to a tick's
// contacts.
func (r *Rules) Update(w donburi.World, ev engine.Event) {
	for e := range r.heroes.Iter(w) {
		h := HeroC.Get(e)
		h.Events = 0
		if h.Invulnerable > 0 {
			h.Invulnerable--
		}
	}
	for _, rule := range [...]uint8{ruleStomp, ruleHurt, rulePickup, ruleCheckpoint} {
		for i := range r.touches {
			if t := &r.touches[i]; t.rule == rule {
				r.apply(w, t)
			}
		}
	}
	r.touches = r.touches[:0]
	for e := range r.heroes.Iter(w) {
		h, body := HeroC.Get(e), components.BodyC.Get(e).Body
		if body == nil {
			continue
		}
		switch {
		case r.kill && body.Position().Y > r.killY:
			h.Events |= HeroFell
			r.respawn(e.Entity(), h, body)
		case r.crush && h.Invulnerable == 0 && e.HasComponent(CharacterC) && CharacterC.Get(e).Crushed:
			h.Events |= HeroCrushed
			r.respawn(e.Entity(), h, body)
		}
		if sp := gfx.SpriteC; e.HasComponent(sp) {
			sp.Get(e).Hidden = h.Invulnerable%8 >= 4
		}
	}
}

// apply applies one contact's rule, unless an earlier one removed its
// entities.
func (r *Rules) apply(w donburi.World, t *touch) {
	if !w.Valid(t.hero) || !w.Valid(t.other) {
		return
	}
	he := w.Entry(t.hero)
	h, body := HeroC.Get(he), r.phys.Body(t.hero)
	if body == nil {
		return
	}
	switch t.rule {
	case ruleStomp:
		if t.normal.Y > 0.6 {
			h.Stomps++
			h.Events |= HeroStomped
			body.SetVelocity(body.Velocity().X, -or(h.Bounce, 300))
			w.Remove(t.other)
		}
	case ruleHurt:
		if h.Invulnerable > 0 {
			return
		}
		h.Events |= HeroHurt | HeroLostLife
		h.Lives = max(h.Lives-1, 0)
		h.Invulnerable = h.invulnerableTicks()
		k := h.Knockback
		if k == (cp.Vector{}) {
			k = cp.Vector{X: 160, Y: 260}
		}
		dir := -math.Copysign(1, t.normal.X) // away from it
		if o := r.phys.Body(t.other); o != nil && o.Position().X != body.Position().X {
			dir = math.Copysign(1, body.Position().X-o.Position().X)
		}
		body.SetVelocity(float64(dir*k.X), -k.Y)
	case rulePickup:
		var p Pickup
		if oe := w.Entry(t.other); oe.HasComponent(PickupC) {
			p = *PickupC.Get(oe)
		}
		if p.Value == 0 {
			p.Value = 1
		}
		if p.Kind >= 0 && p.Kind < len(h.Counts) {
			h.Counts[p.Kind] += p.Value
		}
		h.Events |= HeroPicked
		w.Remove(t.other)
	case ruleCheckpoint:
		if o := r.phys.Body(t.other); o != nil && o.Position() != h.Checkpoint {
			h.Checkpoint = o.Position()
			h.Events |= HeroCheckpoint
		}
	}
}

// respawn costs hero e a life and puts it back at its checkpoint, at rest
// and invulnerable.
func (r *Rules) respawn(e donburi.Entity, h *Hero, body *cp.Body) {
	h.Lives = max(h.Lives-1, 0)
	h.Events |= HeroLostLife | HeroRespawned
	h.Invulnerable = h.invulnerableTicks()
	r.phys.Teleport(e, components.Pose{X: h.Checkpoint.X, Y: h.Checkpoint.Y})
	body.SetVelocity(0, 0)
}

func (h *Hero) invulnerableTicks() int64 {
	if h.InvulnerableTicks == 0 {
		return 90
	}
	return h.InvulnerableTicks
}

// or returns v, or def when v is 0.
func or(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
