package components

import (
	"math"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// AgentState is the state of an agent's finite-state machine. The AI system
// (systems.AI) moves agents between states; its doc comment has the table of
// transitions.
type AgentState uint8

const (
	AgentIdle   AgentState = iota // stands still (separation only)
	AgentWander                   // roams in smooth random turns
	AgentChase                    // runs to the player, slowing on arrival
	AgentFlee                     // runs away from its threat
)

func (s AgentState) String() string {
	switch s {
	case AgentIdle:
		return "Idle"
	case AgentWander:
		return "Wander"
	case AgentChase:
		return "Chase"
	case AgentFlee:
		return "Flee"
	}
	return "AgentState(?)"
}

// Agent is an entity steered by the AI system. The AI reads the entity's
// Transform, runs the state machine and writes Desired at its own rate (10 Hz
// by default); the physics system, every physics tick, pushes the entity's
// Body towards Desired with a force of at most MaxForce.
//
// Distances are in world units, speeds in units per second, times in seconds.
// A zero field turns its behaviour off, as said on each field; [NewAgent]
// fills in working defaults.
type Agent struct {
	State AgentState

	// Desired is the steering output: the velocity the agent wants, never
	// longer than MaxSpeed. Set by the AI; read by physics (see
	// [Agent.SteeringForce]).
	Desired cp.Vector

	// MaxSpeed is the length of Desired at full speed; MaxForce the largest
	// force physics applies to reach it. Zero MaxForce leaves the body alone.
	MaxSpeed, MaxForce float64

	// SightRange: an Idle or Wandering agent sees the player when their body
	// positions are at most this far apart (found by a cp space query, so the
	// agent needs a shape in the space). Zero: blind.
	SightRange float64
	// LoseRange: a chasing agent loses the player beyond this distance; less
	// than SightRange (zero) means SightRange.
	LoseRange float64
	// SafeRange: a fleeing agent calms down beyond this distance from its
	// threat; less than the effective LoseRange (zero) means that range.
	SafeRange float64

	// SlowRadius: a chasing agent slows down linearly inside this distance of
	// the player, to stop on it (arrive). Keep it at least MaxSpeed × a few AI
	// steps, or the agent overshoots between AI ticks. Zero: no slowing.
	SlowRadius float64
	// SeparationRadius: the agent steers away from other agents whose
	// positions are closer than this, the more the closer. Zero: no
	// separation.
	SeparationRadius float64

	// WanderTurn is the fastest a wandering agent turns, in radians per
	// second; WanderJitter is how fast its wander angle drifts at random, in
	// radians per second. Both are scaled by the AI step.
	WanderTurn, WanderJitter float64
	// IdleTime and WanderTime are the mean stays in Idle and in Wander; each
	// stay lasts a random time in [0.5, 1.5] times the mean. Zero IdleTime
	// leaves Idle at the next AI tick; zero WanderTime wanders until something
	// else happens.
	IdleTime, WanderTime float64

	// Health is the agent's health, kept by the game (or mirrored from a
	// health.Health by systems.AgentHurt). An agent whose Health is below
	// FleeHealth flees from the player instead of chasing it: its choice,
	// with FleeHealth 0 it never does.
	Health, FleeHealth float64

	// Hurt makes the agent flee at the next AI tick, which clears it. Set it
	// with [Agent.Flee] (or [Agent.Damage], or systems.AgentHurt for an
	// agent that chose to flee when hurt), or directly together with Threat.
	Hurt bool

	// State of the machine, written by the AI.

	// Target is the entity chased or fled from (the player), or donburi.Null.
	Target donburi.Entity
	// Threat is the position fled from: the player's while Target is the
	// player, otherwise where the damage came from.
	Threat cp.Vector
	// PlayerInRange: at the last AI tick the player was within SightRange
	// (LoseRange while chasing) of the agent.
	PlayerInRange bool
	// Timer is the time left in the current Idle or Wander stay. A new agent
	// (Timer 0) leaves Idle at its first AI tick; set Timer to keep it idle
	// longer.
	Timer float64
	// WanderAngle is the wander behaviour's state: where on its circle the
	// wander target is, relative to the heading.
	WanderAngle float64
}

// AgentC is the Agent component type.
var AgentC = donburi.NewComponentType[Agent]()

// NewAgent returns an idle agent with health 1 and defaults scaled to its top
// speed: it sees 3 s of running far, loses a chased player at 1.5 times that
// and calms down at twice that, slows 1 s of running from its target, flees
// below health 0.3, turns up to 3 rad/s as it wanders, idles about 2 s and
// wanders about 5 s. SeparationRadius is left 0: it depends on the agent's
// size.
func NewAgent(maxSpeed, maxForce float64) Agent {
	sight := float64(3 * maxSpeed)
	return Agent{
		MaxSpeed:     maxSpeed,
		MaxForce:     maxForce,
		SightRange:   sight,
		LoseRange:    float64(1.5 * sight),
		SafeRange:    2 * sight,
		SlowRadius:   maxSpeed,
		WanderTurn:   3,
		WanderJitter: 6,
		IdleTime:     2,
		WanderTime:   5,
		Health:       1,
		FleeHealth:   0.3,
	}
}

// Damage lowers Health by amount and makes the agent flee from the point
// from ([Agent.Flee]): the reaction of a game that keeps its agents'
// health in the Agent and has every hit scare them (the demo's Arena).
// A game whose agents take damage through package systems/health leaves
// the Agent alone: an agent flees from a hit only when it chose to (a
// systems.FleeWhenHurt), and a chase-only enemy just loses health.
func (a *Agent) Damage(amount float64, from cp.Vector) {
	a.Health -= amount
	a.Flee(from)
}

// Flee makes the agent flee from the point from at the next AI tick (from
// the player instead, if the player is in range then).
func (a *Agent) Flee(from cp.Vector) {
	a.Hurt = true
	a.Threat = from
}

// LoseDistance returns the distance at which a chasing agent loses the
// player: LoseRange, but at least SightRange.
func (a *Agent) LoseDistance() float64 { return max(a.LoseRange, a.SightRange) }

// SafeDistance returns the distance from its threat at which a fleeing agent
// calms down: SafeRange, but at least LoseDistance.
func (a *Agent) SafeDistance() float64 { return max(a.SafeRange, a.LoseDistance()) }

// SteeringForce returns the force that physics applies to the agent's body
// for one physics step of dt seconds (physics.Physics.Steer): the force
// that changes the body's velocity vel to a.Desired within the step (mass × (Desired - vel) / dt),
// cut to a.MaxForce. It returns zero for a MaxForce, mass or dt that is not
// positive and finite (a static or kinematic body, a zero step), or a result
// that is not finite.
func (a *Agent) SteeringForce(vel cp.Vector, mass, dt float64) cp.Vector {
	if !(a.MaxForce > 0) || !(mass > 0) || !(dt > 0) || math.IsInf(mass, 0) {
		return cp.Vector{}
	}
	f := a.Desired.Sub(vel).Mult(mass / dt)
	l := f.Length()
	if math.IsNaN(l) || math.IsInf(l, 0) {
		return cp.Vector{}
	}
	if l > a.MaxForce {
		f = f.Mult(a.MaxForce / l)
	}
	return f
}
