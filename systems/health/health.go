// Package health keeps the health of players and agents alike: a
// [Health] component, damage dealt with its source ([System.Apply]),
// ticks of invulnerability after a hit, knockback as an impulse on the
// body, and events on the tick for every hit taken and every death
// ([Event]), so that a game scores, plays a sound or removes the dead
// from a handler. Health and its countdowns are in the component: a
// snapshot (a rollback, a step back, -synctest) restores them and a
// replay repeats them. Whether an agent flees when hurt is the agent's
// own choice (systems.FleeWhenHurt), not a side effect of damage.
//
//	hp := health.New()
//	shots.OnHit(func(w donburi.World, h shoot.Hit) {
//		hp.Apply(w, h.Target, health.Damage{Amount: h.Damage, Source: h.Owner, From: h.Point, Impulse: h.Vel.Normalize().Mult(30)})
//	})
//	hp.OnDeath(func(w donburi.World, ev health.Event) { w.Remove(ev.Target) })
//	st.Sched.AddUpdate(g, "physics", st.Physics.Update).AddUpdate(g, "shoot", shots.Update).AddUpdate(g, "health", hp.Update)
package health

import (
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Health is an entity's health: its settings and state.
type Health struct {
	HP, Max float64 // Max, when positive, caps healing and gives Fraction

	// InvulnerableTicks is how many ticks after a hit the entity ignores
	// hits (a player's blinking grace); 0: none.
	InvulnerableTicks int64
	// Knockback scales the impulse of a damage on the entity's body: 0
	// means 1, a negative value none (a turret that does not budge).
	Knockback float64

	// State: the ticks of invulnerability left, and death (HP reached 0;
	// hits are ignored from then on).
	Invulnerable int64
	Dead         bool

	struck bool // hit in the current tick: its countdown starts at the next
}

// HealthC is the Health component type.
var HealthC = donburi.NewComponentType[Health]()

// Full returns a Health of max HP out of max, with the given ticks of
// invulnerability after a hit.
func Full(max float64, invulnerableTicks int64) Health {
	return Health{HP: max, Max: max, InvulnerableTicks: invulnerableTicks}
}

// Fraction returns HP over Max, or 1 when Max is not positive.
func (h *Health) Fraction() float64 {
	if !(h.Max > 0) {
		return 1
	}
	return h.HP / h.Max
}

// Damage is one hit's damage, given to [System.Apply].
type Damage struct {
	Amount float64
	// Source is who dealt it (a shot's owner, an enemy that touched),
	// donburi.Null for the world (a trap, lava).
	Source donburi.Entity
	// From is where it came from (the shot's point, the enemy's
	// position), for the one hurt to flee from or face.
	From cp.Vector
	// Impulse pushes the body of the one hurt (world units of momentum,
	// at its centre), scaled by its Health.Knockback.
	Impulse cp.Vector
}

// Event is a hit taken: the damage, the target's health after it, and
// whether it died of it, delivered on the tick it was taken.
type Event struct {
	Tick   int64 // the health system's tick
	Target donburi.Entity
	Damage
	HP   float64 // the target's HP after the hit
	Died bool
}

// System applies damage, counts invulnerability down and delivers the
// tick's events.
type System struct {
	healths         *donburi.Query
	onDamage, onDie []func(w donburi.World, ev Event)

	pending []Event // applied since the last Update: empty between ticks
	events  []Event // the last Update's
}

// New returns the health system.
func New() *System {
	return &System{healths: donburi.NewQuery(filter.Contains(HealthC))}
}

// OnDamage calls f for every hit taken in a tick (every Event, deaths
// too), in the order the hits were applied, from Update. OnDeath calls f
// for the hits that killed, after the tick's OnDamage calls. Handlers may
// remove entities (the dead), spawn them and apply more damage (it is
// delivered in the same Update). They stay registered for the life of the
// system; a nil f panics.
func (s *System) OnDamage(f func(w donburi.World, ev Event)) {
	if f == nil {
		panic("health: OnDamage with a nil handler")
	}
	s.onDamage = append(s.onDamage, f)
}

// OnDeath: see [System.OnDamage].
func (s *System) OnDeath(f func(w donburi.World, ev Event)) {
	if f == nil {
		panic("health: OnDeath with a nil handler")
	}
	s.onDie = append(s.onDie, f)
}

// Apply deals d to target at once: unless the target has no Health, is
// dead, is invulnerable, or d.Amount is not a positive number, its HP
// drops by d.Amount (to 0 at least; Dead at 0), its invulnerability starts
// (InvulnerableTicks, counted from the next tick), its body, if dynamic,
// takes d.Impulse times its Knockback, and an Event waits for Update's
// handlers; Apply reports whether the hit was taken. Call it in the tick,
// before the health system's Update (from a shot's or a contact's
// handler, or a system scheduled before it): the events wait in the
// system until Update delivers them. It allocates nothing once the
// system has delivered as many events in a tick.
func (s *System) Apply(w donburi.World, target donburi.Entity, d Damage) bool {
	if !w.Valid(target) || !(d.Amount > 0) || d.Amount-d.Amount != 0 {
		return false
	}
	e := w.Entry(target)
	if !e.HasComponent(HealthC) {
		return false
	}
	h := HealthC.Get(e)
	if h.Dead || h.Invulnerable > 0 {
		return false
	}
	h.HP = max(h.HP-d.Amount, 0)
	h.Dead = h.HP == 0
	h.Invulnerable, h.struck = h.InvulnerableTicks, h.InvulnerableTicks > 0
	if k := h.Knockback; k >= 0 && d.Impulse != (cp.Vector{}) && e.HasComponent(components.BodyC) {
		if b := components.BodyC.Get(e).Body; b != nil && b.GetType() == cp.BODY_DYNAMIC {
			if k == 0 {
				k = 1
			}
			b.ApplyImpulseAtWorldPoint(d.Impulse.Mult(k), b.Position())
		}
	}
	s.pending = append(s.pending, Event{Target: target, Damage: d, HP: h.HP, Died: h.Dead})
	return true
}

// Heal adds amount to target's HP, up to Max when Max is positive; the
// dead and entities without Health are not healed. It reports whether it
// healed.
func Heal(w donburi.World, target donburi.Entity, amount float64) bool {
	if !w.Valid(target) || !(amount > 0) || !w.Entry(target).HasComponent(HealthC) {
		return false
	}
	h := HealthC.Get(w.Entry(target))
	if h.Dead {
		return false
	}
	h.HP += amount
	if h.Max > 0 {
		h.HP = min(h.HP, h.Max)
	}
	return true
}

// Events returns the events the last Update delivered, valid until the
// next one: for systems after it in the tick.
func (s *System) Events() []Event { return s.events }

// Update is the system: it counts every Health's invulnerability down by
// a tick (not the tick of the hit that started it), then delivers the
// hits applied since the last Update, stamped with ev.Tick, to the
// OnDamage handlers, then the deaths to the OnDeath handlers. Schedule it
// after every system that deals damage in the group, so that no event
// waits past the tick's end (a rollback restores the world, not the
// system). It allocates nothing once warm.
func (s *System) Update(w donburi.World, ev engine.Event) {
	for e := range s.healths.Iter(w) {
		h := HealthC.Get(e)
		switch {
		case h.struck:
			h.struck = false
		case h.Invulnerable > 0:
			h.Invulnerable--
		}
	}
	s.events = s.events[:0]
	for len(s.pending) > 0 { // handlers may deal more damage
		start := len(s.events)
		s.events = append(s.events, s.pending...)
		s.pending = s.pending[:0]
		batch := s.events[start:]
		for i := range batch {
			batch[i].Tick = ev.Tick
			for _, f := range s.onDamage {
				f(w, batch[i])
			}
		}
		for i := range batch {
			if batch[i].Died {
				for _, f := range s.onDie {
					f(w, batch[i])
				}
			}
		}
	}
}
