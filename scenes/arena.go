package scenes

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The Arena's size in world units (one unit is one pixel at zoom 1).
const ArenaWidth, ArenaHeight = arena.Width, arena.Height

// Arena is the game (package scenes/arena has its rules) in a window: its
// simulation built on the scene's stage, dressed with the bundle's sprites,
// drawn with a floor, the sprites and a HUD; it hands on to Results when
// the game ends, or to the Title on Esc.
type Arena struct {
	opts   *Options
	st     *stage.Stage
	game   *arena.Arena
	render *render.Sprites
	hud    string
	hudKey [2*input.MaxPlayers + 1]int
}

// Name names the scene.
func (a *Arena) Name() string { return "Arena" }

// Run loads the arena, plays it, releases it and returns Results (or nil when
// Options.Seconds bounds the run, or the Title on Esc).
func (a *Arena) Run(loop *engine.Loop) (engine.Scene, error) {
	so := stage.FromCore(arena.StageOptions())  // the simulation's groups and physics, as a server's
	so.Background = color.RGBA{34, 40, 52, 255} // the floor
	if a.opts.Online {
		so.Ignore = []donburi.IComponentType{gfx.SpriteC} // the server's Arena has no sprites
	}
	st, err := newStage(loop, a.Name(), a.opts, so)
	if err != nil {
		return nil, err
	}
	defer st.Release()
	a.st = st
	a.game = arena.Build(st.Stage, &arena.Options{
		Seed: a.opts.Seed, Seconds: a.roundSeconds(), Autopilot: a.opts.Autopilot, Player: a.opts.Player,
		Churn: a.opts.Churn, Undying: a.opts.Undying, Drift: a.opts.drift, IgnoreEsc: a.opts.Online,
		Seats: a.opts.Seats, Looks: &looks{st: st, players: max(loop.Players(), int(a.opts.Seats.N))}, Next: a.next,
	})
	if a.opts.Online { // Esc leaves the match (the game plays on for the others)
		st.Sched.AddInput("leave", func(_ donburi.World, ev engine.Event) {
			if ev.Input.KeyPressed(input.KeyEscape) {
				loop.Stop()
			}
		})
	}
	a.render = render.New(st.World)
	st.Sched.AddRender(1, "sprites", a.render.Draw).
		AddRender(2, "hud", a.drawHUD)
	next, err := st.Run()
	if err != nil || a.game.Quit() || loop.Rewinder().Active() {
		return next, err
	}
	lines := make([]string, a.game.Players())
	for p := range lines {
		t := a.game.Tally(p)
		lines[p] = fmt.Sprintf("score %d, health %.0f", t.Score, t.Health)
		if len(lines) > 1 {
			lines[p] = fmt.Sprintf("player %d: %s", p+1, lines[p])
		}
	}
	report(a.opts.Out, a.Name(), st, lines...)
	return next, nil
}

// SceneFor makes the scene named afresh as the Title does (Title.SceneFor,
// engine.SceneMaker), for a run whose first scene is the Arena and that
// went on past its Results to the Title and another game: a netplay joiner
// under way begins from the host's state of whichever it is in.
func (a *Arena) SceneFor(name string) (engine.Scene, error) {
	return (&Title{opts: a.opts}).SceneFor(name)
}

// roundSeconds is how long the game lasts: Options.Seconds when it bounds
// the run, else Options.Round (0: arena.Limit).
func (a *Arena) roundSeconds() float64 {
	if a.opts.Seconds > 0 {
		return a.opts.Seconds
	}
	return a.opts.Round
}

// next is the scene after the game: the Title on Esc, Results when it
// ended, nothing when Options.Seconds bounds the run or it is online.
func (a *Arena) next(o arena.Outcome) engine.Scene {
	switch {
	case a.opts.Online:
		return nil
	case o.Quit:
		return &Title{opts: a.opts}
	case a.opts.Seconds == 0:
		return &Results{opts: a.opts, score: o.Score, played: o.Played, health: o.Health}
	}
	return nil
}

// looks are the Arena's sprites, from the stage's bundle: the players'
// each in their seat's colour in a run of several (stage.SeatSprite),
// fleeing agents pale.
type looks struct {
	st      *stage.Stage
	players int
}

var looksOf = [...]struct {
	name  string
	layer int
}{
	arena.Wall: {assets.SpriteWall, 0}, arena.Player: {assets.SpritePlayer, 2}, arena.Agent: {assets.SpriteAgent, 1},
	arena.Box: {assets.SpriteBox, 1}, arena.Ball: {assets.SpriteBall, 1}, arena.Star: {assets.SpriteGoal, 0},
}

func (l *looks) Look(k arena.Kind, player int) physics.Look {
	var s *gfx.Sprite
	if k == arena.Player && l.players > 1 {
		s = l.st.SeatSprite(looksOf[k].name, player)
	} else {
		s = l.st.Sprite(looksOf[k].name)
	}
	s.Layer = looksOf[k].layer
	return s
}

func (l *looks) Fleeing(e *donburi.Entry, fleeing bool) {
	name := assets.SpriteAgent
	if fleeing {
		name = assets.SpriteAgentHurt
	}
	gfx.SpriteC.Get(e).Image = l.st.Bundle.MustSprite(name)
}

func (a *Arena) drawHUD(w donburi.World, ev engine.Event) {
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	g := a.game
	var key [2*input.MaxPlayers + 1]int
	key[0] = int(g.Left().Seconds()) //detcheck:ok the HUD's cache key: drawing, not game state
	for p := range g.Players() {
		t := g.Tally(p)
		key[1+2*p], key[2+2*p] = t.Score, int(t.Health) //detcheck:ok the HUD's cache key: drawing, not game state
	}
	if key != a.hudKey || a.hud == "" {
		a.hudKey = key
		if g.Players() == 1 {
			a.hud = fmt.Sprintf("Score %d   Health %d   Time %d s", key[1], key[2], key[0])
		} else {
			a.hud = ""
			for p := range g.Players() {
				a.hud += fmt.Sprintf("P%d %d (%d)   ", p+1, key[1+2*p], key[2+2*p])
			}
			a.hud += fmt.Sprintf("Time %d s", key[0])
		}
	}
	a.st.Text(screen, a.hud, 24, 20, 18, color.White, text.AlignStart)
}
