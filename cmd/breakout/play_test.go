package main

import (
	"math"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
)

// play runs a game of Play headless, in this process, for the game time
// given (or until it ends), calling check before every tick of the physics
// group with the state the tick before left.
func play(t *testing.T, p *Play, seconds int, input engine.TickInput, check func(p *Play)) {
	t.Helper()
	err := engine.Run(p, &engine.Options{
		Headless:  &engine.Headless{FPS: 60},
		StopAt:    time.Duration(seconds) * time.Second,
		TickInput: input,
		OnEvent: []engine.EventHook{func(_ *engine.Loop, ev engine.Event) {
			if ev.Kind == engine.Update && ev.Group == 0 && p.st != nil && !p.st.Ended() {
				check(p)
			}
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The ball keeps the speed the rules give it after every tick (bounces
// neither lose nor gain energy), stays in the playfield, and never passes
// into a brick, a wall or the paddle: its centre is never inside one, and
// it never sinks into one by a tick's travel at the top speed (which is
// less than its radius).
func TestBallKeepsItsSpeedAndNeverTunnels(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		var ticks, moving int
		var worstSpeed, sink, minSpeed, maxSpeedSeen float64
		var score, level int
		minSpeed = math.Inf(1)
		p := &Play{Settings: Settings{Seed: seed, Autopilot: true, Lives: 99}}
		play(t, p, 240, nil, func(p *Play) {
			ticks++
			ball := p.st.Physics.Body(p.ball)
			pos, v := ball.Position(), ball.Velocity()
			score, level = p.score, p.level
			if p.serving {
				return
			}
			moving++
			s := p.speed()
			worstSpeed = max(worstSpeed, math.Abs(v.Length()-s)/s)
			minSpeed, maxSpeedSeen = min(minSpeed, v.Length()), max(maxSpeedSeen, v.Length())
			if s > maxSpeed+1e-9 || math.Abs(v.Y) < 0.3*s-1e-9 {
				t.Fatalf("seed %d tick %d: speed %v (limit %v), velocity %v", seed, ticks, s, maxSpeed, v)
			}
			if pos.X < 0 || pos.X > width || pos.Y < top {
				t.Fatalf("seed %d tick %d: ball at %v, outside the walls", seed, ticks, pos)
			}
			// Below the paddle's top the ball is lost, and the paddle (8 px
			// a tick) may sweep over it from the side: cp has no continuous
			// collision, and the two close in by more than the ball's
			// radius a tick. Elsewhere nothing may hold the ball's centre.
			lost := pos.Y > paddleY-paddleH/2
			for _, h := range p.st.Physics.QueryPoint(pos, ballR, &physics.QueryFilter{Skip: p.ball}, nil) {
				if lost && h.Entity == p.paddle {
					continue
				}
				if h.Distance <= 0 {
					t.Fatalf("seed %d tick %d: the ball's centre %v is inside entity %v", seed, ticks, pos, h.Entity)
				}
				sink = max(sink, ballR-h.Distance)
			}
		})
		if moving < ticks/2 || score == 0 {
			t.Fatalf("seed %d: the ball moved in %d of %d ticks, score %d: no game was played", seed, moving, ticks, score)
		}
		if worstSpeed > 1e-12 {
			t.Errorf("seed %d: the ball's speed was off by up to %.3g of the rules' speed", seed, worstSpeed)
		}
		if sink >= maxSpeed/60 || sink >= ballR {
			t.Errorf("seed %d: the ball sank up to %.2f px into a shape", seed, sink)
		}
		t.Logf("seed %d: %d ticks, %d moving, speed %.1f-%.1f px/s, deepest contact %.2f px, score %d, level %d",
			seed, ticks, moving, minSpeed, maxSpeedSeen, sink, score, level)
	}
}

// The paddle only moves sideways, whatever keys are held (up and down
// too), and never leaves the walls; Esc ends the game, on a tick, back to
// the Title.
func TestPaddleStaysOnItsLineAndInside(t *testing.T) {
	keys := func(tk engine.TickInfo, in *input.State) {
		*in = input.State{}
		switch {
		case tk.Tick < 120: // up and left into the wall
			in.SetKey(input.KeyArrowUp, true)
			in.SetKey(input.KeyArrowLeft, true)
		case tk.Tick < 300: // down and right into the other
			in.SetKey(input.KeyS, true)
			in.SetKey(input.KeyD, true)
		case tk.Tick == 300:
			in.SetKey(input.KeyEscape, true)
		}
	}
	var left, right float64 = width, 0
	var ticks int
	p := &Play{Settings: Settings{Seed: 1, Lives: 3}}
	play(t, p, 10, engine.TickInputFunc(keys), func(p *Play) {
		ticks++
		tr := components.TransformC.Get(p.st.World.Entry(p.paddle))
		if tr.Cur.Y != paddleY || tr.Cur.Angle != 0 {
			t.Fatalf("tick %d: paddle at %+v, off its line", ticks, tr.Cur)
		}
		left, right = min(left, tr.Cur.X), max(right, tr.Cur.X)
	})
	if left != paddleW/2 || right != width-paddleW/2 {
		t.Errorf("the paddle went from x %v to %v, want %v to %v", left, right, paddleW/2, width-paddleW/2)
	}
	if ticks != 300 {
		t.Errorf("Esc on tick 300 ended the game after %d ticks", ticks)
	}
}

// A brick scores its points when broken; the top row takes two hits and
// is darkened by the first; a caught power-up does its work.
func TestBricksAndPowerUps(t *testing.T) {
	p := &Play{Settings: Settings{Seed: 1, Lives: 3}}
	var checked bool
	play(t, p, 1, nil, func(p *Play) {
		if checked {
			return
		}
		checked = true
		w := p.st.World
		var top, bottom []physics.Contact
		p.found = p.found[:0]
		p.bricks.Each(w, p.findBrick)
		if len(p.found) != rows*cols {
			t.Fatalf("%d bricks, want %d", len(p.found), rows*cols)
		}
		for _, e := range p.found {
			b := BrickC.Get(w.Entry(e))
			c := physics.Contact{A: p.ball, B: e}
			switch b.Hits {
			case 2:
				top = append(top, c)
			case 1:
				bottom = append(bottom, c)
			}
		}
		if len(top) != cols || len(bottom) != (rows-1)*cols {
			t.Fatalf("%d bricks of two hits, %d of one", len(top), len(bottom))
		}
		before := gfx.SpriteC.Get(w.Entry(top[0].B)).Color
		p.hitBrick(w, top[0])
		if !w.Valid(top[0].B) || p.score != 0 || gfx.SpriteC.Get(w.Entry(top[0].B)).Color == before {
			t.Fatalf("one hit on a top brick: alive %v, score %d, colour unchanged", w.Valid(top[0].B), p.score)
		}
		p.hitBrick(w, top[0])
		if w.Valid(top[0].B) || p.score != 10*rows || p.broken != 1 {
			t.Fatalf("two hits on a top brick: alive %v, score %d, broken %d", w.Valid(top[0].B), p.score, p.broken)
		}
		p.hitBrick(w, bottom[len(bottom)-1]) // the bottom row scores 10
		if p.score != 10*rows+10 {
			t.Fatalf("score %d after a bottom brick", p.score)
		}
		for _, kind := range []PowerKind{ExtraBall, SlowBall} {
			e := p.st.Physics.SpawnCircle(powerR, &physics.BodyOptions{Kind: physics.Kinematic, Sensor: true}, PowerC)
			PowerC.SetValue(w.Entry(e), Power{Kind: kind})
			lives, s := p.lives, p.speed()
			p.catch(w, physics.Contact{A: p.paddle, B: e})
			if w.Valid(e) {
				t.Fatalf("%v: the power-up is still there", kind)
			}
			switch {
			case kind == ExtraBall && p.lives != lives+1:
				t.Errorf("ExtraBall: lives %d, was %d", p.lives, lives)
			case kind == SlowBall && (p.slow != slowTicks || p.speed() != s*slowFactor):
				t.Errorf("SlowBall: slow %d, speed %v, was %v", p.slow, p.speed(), s)
			}
		}
	})
	if !checked {
		t.Fatal("no tick ran")
	}
}

// The wall group moves every brick a row down each descendEvery of its
// ticks; the game ends when it reaches the paddle's zone.
func TestWallDescendsAtItsOwnRate(t *testing.T) {
	p := &Play{Settings: Settings{Seed: 1, Lives: 3}}
	first := func(p *Play) float64 { // the top of the wall
		y := math.Inf(1)
		p.found = p.found[:0]
		p.bricks.Each(p.st.World, p.findBrick)
		for _, e := range p.found {
			y = min(y, components.TransformC.Get(p.st.World.Entry(e)).Cur.Y-cellH/2)
		}
		return y
	}
	var steps []int64 // physics ticks at which the wall was lower than before
	var ticks int64
	last := firstRow
	play(t, p, 600, nil, func(p *Play) { // nobody serves: only the wall moves
		ticks++
		if y := first(p); y != last {
			if y != last+cellH {
				t.Fatalf("tick %d: the wall moved from %v to %v", ticks, last, y)
			}
			steps, last = append(steps, ticks), y
		}
	})
	if len(steps) == 0 {
		t.Fatal("the wall never moved")
	}
	for i, s := range steps {
		// The wall group's tick k is due at k/10 s: physics tick 6k ran
		// before it (ties go to the group declared first), and this check
		// sees its result before physics tick 6k+1.
		if want := int64(i+1)*descendEvery*6 + 1; s != want {
			t.Errorf("step %d seen before physics tick %d, want %d", i+1, s, want)
		}
	}
	// The step that takes the bottom row past dangerY ends the game, on
	// that tick: no check sees it.
	bottom := firstRow + cellH/2 + (rows-1)*cellH + brickH/2
	n := int64(math.Floor((dangerY-bottom)/cellH)) + 1
	if int64(len(steps)) != n-1 || ticks != n*descendEvery*6 {
		t.Errorf("the wall moved %d times in %d physics ticks, want %d in %d", len(steps), ticks, n-1, n*descendEvery*6)
	}
	t.Logf("wall steps before physics ticks %v; the game ended at tick %d", steps, ticks)
}
