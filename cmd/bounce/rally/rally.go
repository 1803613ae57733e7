// Package rally is a paddle game for 1 to 4 players on the engine's
// simulation core alone (no graphics, no cgo): one simulation (rules,
// scene, bot) that command bounce, beside it, plays standalone with one
// player, and that a game server runs as an authoritative match (Spec, an
// engine/lockstep Game) and its headless clients simulate to check it.
// It lives under cmd/bounce, as the game of the example program it is,
// and is importable so that the server module registers the same game.
//
// Each player moves a paddle along the floor of a shared box, in a lane of
// its own, under cp's gravity; balls drop into the box and bounce off the
// walls and the paddles. A paddle's hit on a ball scores for its player; a
// ball that reaches the floor costs a life to the player whose lane it
// lands in. A round ends when every player's lives are gone, and the next
// begins (a new scene), up to Game.Rounds rounds.
//
// A player moves with the arrow keys or the left stick (its horizontal
// axis, analog), read from the player's own input in each tick
// (engine.Event.Player). Everything a tick reads is in the donburi world
// and the cp space, both of which the scene gives the loop to save and
// restore (engine.SceneState), so that it runs in a networked session.
// Bot is an autopilot for any seat.
package rally

import (
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	_ "github.com/fixedstep/fixedstep/systems/physics" // the state hasher's summaries of cp's bodies and shapes
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Name and Version name the game: a server refuses a client of another
// game or version. The version changes whenever a change to the game can
// change a run's states.
const (
	Name    = "rally"
	Version = "3" // 2: its float products rounded, so that it plays the same on every CPU; 3: its body component named RallyBody
)

// The box, in world units (y up: cp's gravity pulls towards -y).
const (
	LaneW         = 200.0 // each player's lane; the box is Players lanes wide
	BoxH          = 300.0
	BallR         = 8.0
	PaddleW       = 60.0
	PaddleY       = 20.0
	PaddleSpeed   = 320.0
	StartingLives = 3
	Hz            = 60 // the game's one rate group
)

// Body is an entity's cp body. The state hasher summarises cp bodies (their
// pose, velocity, forces, sleep), so a checksum sees them.
type Body struct{ Body *cp.Body }

// Ball is a ball in play: Bounces counts the paddles' hits on it, Falling
// says whether it fell at the last tick.
type Ball struct {
	Bounces int
	Falling bool
}

// Paddle is a player's paddle: its seat (the player's number, from 0) and
// the round's score and lives.
type Paddle struct {
	Seat         int
	Score, Lives int
}

var (
	BodyC   = donburi.NewComponentType[Body]().SetName("RallyBody") // not components.Body, which a game server links beside it
	BallC   = donburi.NewComponentType[Ball]()
	PaddleC = donburi.NewComponentType[Paddle]()

	balls   = donburi.NewQuery(filter.Contains(BallC, BodyC))
	paddles = donburi.NewQuery(filter.Contains(PaddleC, BodyC))
)

// Game is one game of rally: its settings, and the round being played.
type Game struct {
	Seed   uint64
	Rounds int // rounds to play; 0: no limit

	round *Round
}

// First returns the game's first round, the scene a run begins with.
func (g *Game) First() engine.Scene { return &Round{game: g} }

// World returns the world of the round being played, for a bot or a tool
// to read between ticks: nil before the first round has begun.
func (g *Game) World() donburi.World {
	if g.round == nil {
		return nil
	}
	return g.round.w
}

// Round is one round of a game, a scene: its Run returns the next round,
// or nil after the game's last.
type Round struct {
	game  *Game
	Count int // rounds played before this one

	w     donburi.World
	space *cp.Space
	slots []slot
}

// Name names the scene.
func (r *Round) Name() string { return "Round" }

// Run plays the round on loop, with loop.Players() players, and returns
// the next one.
func (r *Round) Run(loop *engine.Loop) (engine.Scene, error) {
	players := loop.Players()
	w := donburi.NewWorld()
	space := cp.NewSpace()
	r.w, r.space = w, space
	r.game.round = r
	seed := r.game.Seed
	space.SetGravity(cp.Vector{Y: -400})
	boxW := float64(LaneW * float64(players))
	walls := []cp.Vector{{X: 0, Y: BoxH}, {X: 0, Y: 0}, {X: boxW, Y: 0}, {X: boxW, Y: BoxH}}
	for i := range len(walls) - 1 {
		space.AddShape(cp.NewSegment(space.StaticBody, walls[i], walls[i+1], 2)).SetElasticity(1)
	}
	for p := range players {
		e := w.Entry(w.Create(BodyC, PaddleC))
		b := space.AddBody(cp.NewKinematicBody())
		b.SetPosition(cp.Vector{X: float64(LaneW * (float64(p) + 0.5)), Y: PaddleY})
		space.AddShape(cp.NewBox(b, PaddleW, 10, 0)).SetElasticity(1)
		BodyC.SetValue(e, Body{b})
		PaddleC.SetValue(e, Paddle{Seat: p, Lives: StartingLives})
	}

	hasher := state.NewHasher(&state.Options{PathNames: loop.Recording().PathNames()})
	loop.Recording().SetChecksum(func() uint64 { return hasher.Sum(w) })
	loop.Recording().SetSceneState(r)
	sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: Hz})
	var lost []donburi.Entity
	sched.AddUpdate(0, "serve", func(w donburi.World, ev engine.Event) {
		if ev.Tick%60 != 1 || balls.Count(w) >= players+2 {
			return
		}
		h := mix(seed, uint64(r.Count), uint64(ev.Tick))
		b := space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, BallR, cp.Vector{})))
		b.SetPosition(cp.Vector{X: 40 + float64(unit(h)*(boxW-80)), Y: BoxH - 40})
		b.SetVelocity(float64(unit(mix(h))*200)-100, 0)
		space.AddShape(cp.NewCircle(b, BallR, cp.Vector{})).SetElasticity(0.9)
		e := w.Entry(w.Create(BodyC, BallC))
		BodyC.SetValue(e, Body{b})
	}).AddUpdate(0, "paddles", func(w donburi.World, ev engine.Event) {
		for e := range paddles.Iter(w) {
			p, b := PaddleC.Get(e), BodyC.Get(e).Body
			vx := 0.0
			if p.Lives > 0 {
				vx = float64(PaddleSpeed * Push(ev.Player(p.Seat)))
			}
			lo, hi := float64(LaneW*float64(p.Seat))+PaddleW/2, float64(LaneW*float64(p.Seat+1))-PaddleW/2
			if x := b.Position().X + float64(vx*ev.DT); x < lo || x > hi {
				vx = 0 // the paddle stays in its lane
			}
			b.SetVelocity(vx, 0)
		}
	}).AddUpdate(0, "physics", func(w donburi.World, ev engine.Event) {
		space.Step(ev.DT)
	}).AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
		lost = lost[:0]
		for e := range balls.Iter(w) {
			b, ball := BodyC.Get(e).Body, BallC.Get(e)
			pos, up := b.Position(), b.Velocity().Y > 0
			if pos.Y < BallR+4 { // on the floor
				lost = append(lost, e.Entity())
				continue
			}
			if up && ball.Falling && pos.Y < PaddleY+25 {
				if pe := paddleUnder(w, pos.X); pe != nil {
					ball.Bounces++ // it turned up over a paddle: the paddle hit it
					PaddleC.Get(pe).Score++
				}
			}
			ball.Falling = !up
		}
		for _, e := range lost { // collect, then change
			be := w.Entry(e)
			x := BodyC.Get(be).Body.Position().X
			removeBody(space, BodyC.Get(be).Body)
			w.Remove(e)
			if pe := paddleOfLane(w, x); pe != nil && PaddleC.Get(pe).Lives > 0 {
				PaddleC.Get(pe).Lives--
			}
		}
	})
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
		// Over is read from the world, never kept beside it: a rollback to
		// before the last life was lost plays on.
		if over(w) && loop.Session().Settle() { // the round ends on a tick every run ends on
			loop.Recording().Checkpoint() // its last tick's checksum is taken
			return r.next(), nil
		}
	}
	return nil, loop.Err()
}

// over reports whether every player's lives are gone.
func over(w donburi.World) bool {
	for e := range paddles.Iter(w) {
		if PaddleC.Get(e).Lives > 0 {
			return false
		}
	}
	return true
}

// next returns the round after r, nil after the last.
func (r *Round) next() engine.Scene {
	if r.game.Rounds > 0 && r.Count+1 >= r.game.Rounds {
		return nil
	}
	return &Round{game: r.game, Count: r.Count + 1}
}

// Push returns how far in reads as a push of the paddle, from -1 (left) to
// 1 (right): the arrow keys, or else the left stick of the first pad past a
// dead zone of 0.1.
func Push(in *input.State) float64 {
	if in == nil {
		return 0
	}
	v := 0.0
	if in.KeyDown(input.KeyArrowLeft) {
		v--
	}
	if in.KeyDown(input.KeyArrowRight) {
		v++
	}
	if v == 0 {
		if a := in.GamepadAxis(0, input.AxisLeftStickHorizontal); math.Abs(a) > 0.1 {
			v = a
		}
	}
	return v
}

// paddleUnder returns the paddle whose span holds x, if any.
func paddleUnder(w donburi.World, x float64) *donburi.Entry {
	for e := range paddles.Iter(w) {
		if math.Abs(BodyC.Get(e).Body.Position().X-x) <= PaddleW/2+BallR {
			return e
		}
	}
	return nil
}

// paddleOfLane returns the paddle of the lane x is in.
func paddleOfLane(w donburi.World, x float64) *donburi.Entry {
	seat := int(max(-1, min(x/LaneW, input.MaxPlayers))) //detcheck:ok a ball is in the box; bounded to [-1, MaxPlayers] first
	for e := range paddles.Iter(w) {
		if PaddleC.Get(e).Seat == seat {
			return e
		}
	}
	return nil
}

func removeBody(space *cp.Space, b *cp.Body) {
	b.EachShape(func(s *cp.Shape) { space.RemoveShape(s) })
	space.RemoveBody(b)
}

// mix hashes its arguments (splitmix64 over each): the round's random
// numbers are a function of the seed, the round and the tick, so that no
// random source is state to keep.
func mix(vs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, v := range vs {
		h ^= v
		h += 0x9e3779b97f4a7c15
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}

// unit maps h to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// slot is the round's state in one of the loop's numbered slots: the
// world and the space (the scene keeps nothing else between ticks).
type slot struct {
	world donburi.Snapshot
	space cp.Snapshot
}

// SaveState saves the round's state into slot (engine.SceneState).
func (r *Round) SaveState(n int) error {
	for len(r.slots) <= n {
		r.slots = append(r.slots, slot{})
	}
	s := &r.slots[n]
	if err := r.space.Snapshot(&s.space); err != nil {
		return fmt.Errorf("rally: saving the space: %w", err)
	}
	return donburi.SnapshotWorld(r.w, &s.world)
}

// RestoreState puts the round's state back from slot (engine.SceneState).
func (r *Round) RestoreState(n int) error {
	if n >= len(r.slots) {
		return fmt.Errorf("rally: no state in slot %d", n)
	}
	s := &r.slots[n]
	if err := r.space.Restore(&s.space); err != nil {
		return fmt.Errorf("rally: restoring the space: %w", err)
	}
	return donburi.RestoreWorld(r.w, &s.world)
}

// StateBytes is the memory a slot holds (engine.StateSizer).
func (r *Round) StateBytes(n int) int {
	if n >= len(r.slots) {
		return 0
	}
	return r.slots[n].world.Bytes() + r.slots[n].space.Bytes()
}

// Bot sets in to the autopilot's input for seat, from the world's state
// (Game.World): the left stick pushed towards the lowest falling ball over
// its lane, harder the further it is. Its input changes nearly every tick,
// as a player's stick does.
func Bot(w donburi.World, seat int, in *input.State) {
	*in = input.State{}
	if w == nil {
		return
	}
	var x float64
	var found bool
	for e := range paddles.Iter(w) {
		if PaddleC.Get(e).Seat == seat {
			x, found = BodyC.Get(e).Body.Position().X, true
		}
	}
	if !found {
		return
	}
	lo, hi := float64(LaneW*float64(seat)), float64(LaneW*float64(seat+1))
	target, best := 0.0, math.Inf(1)
	for e := range balls.Iter(w) {
		b := BodyC.Get(e).Body
		if p := b.Position(); b.Velocity().Y < 0 && p.X >= lo && p.X < hi && p.Y < best {
			target, best = p.X, p.Y
		}
	}
	if math.IsInf(best, 1) {
		target = (lo + hi) / 2
	}
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, max(-1, min(1, (target-x)/40)))
}

// Each calls f for every paddle of world w, then every ball (ball nil for
// a paddle, paddle nil for a ball): what a client shows of a tick.
func Each(w donburi.World, f func(b *Body, ball *Ball, paddle *Paddle)) {
	for e := range paddles.Iter(w) {
		f(BodyC.Get(e), nil, PaddleC.Get(e))
	}
	for e := range balls.Iter(w) {
		f(BodyC.Get(e), BallC.Get(e), nil)
	}
}
