package main

import (
	"embed"
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/anim"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/sideview"
	"github.com/fixedstep/fixedstep/systems/sound"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The game's data: the levels, made in Tiled (data/levelN.tmx with their
// tileset), and the hero's sheet with its Aseprite JSON.
//
//go:embed data
var data embed.FS

// lastLevel is the number of levels.
const lastLevel = 2

// Game is what a game carries from level to level.
type Game struct {
	Level, Lives, Stars, Stomped int
	Best                         int // the best game's stars, for the Title
}

var (
	enemyC = donburi.NewTag().SetName("Enemy")
	starC  = donburi.NewTag().SetName("Star")
	flagC  = donburi.NewTag().SetName("Flag")
	exitC  = donburi.NewTag().SetName("Exit")
)

// Play is one level.
type Play struct {
	Settings
	Game

	st     *stage.Stage
	lv     *level.Level
	hero   donburi.Entity
	exit   bool // the hero touched the exit
	snd    *sound.System
	clips  map[string]*anim.Clip // the hero's: idle, run, jump
	hud    string
	hudKey [3]int
}

// Run plays the level until the hero reaches the exit or runs out of lives.
func (p *Play) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{
		Groups:     []engine.Group{{Name: "physics", Hz: 60}},
		Physics:    &physics.Config{Gravity: cp.Vector{Y: 1000}}, // y down
		Background: sky,
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	lv, err := level.Load(data, fmt.Sprintf("data/level%d.tmx", p.Level))
	if err != nil {
		return nil, err
	}
	defer lv.Release()
	hero, err := anim.LoadSheet(data, "data/hero.json")
	if err != nil {
		return nil, err
	}
	defer hero.Release()
	st.NameSheet("hero", hero)
	p.st, p.lv, p.clips = st, lv, hero.Clips
	rules, err := p.build()
	if err != nil {
		return nil, err
	}
	stage.Keep(st, &p.Game)
	stage.Keep(st, &p.exit)
	if p.Autopilot {
		loop.SetTickInput(0, &pilot{p: p})
	}
	p.snd = sound.New(loop, sounds)
	p.snd.Music(tune)
	defer p.snd.Release()
	ctl := sideview.NewController(st.Physics)
	st.Sched.AddUpdate(0, "controller", ctl.Update).
		AddUpdate(0, "movers", sideview.NewMoverSystem().Update).
		AddUpdate(0, "physics", st.Physics.Update).
		AddUpdate(0, "genre", rules.Update).
		AddUpdate(0, "camera", camera.NewSystem().Update).
		AddUpdate(0, "looks", sideview.NewLooksSystem().Update).
		AddUpdate(0, "anim", anim.NewSystem().Update).
		AddUpdate(0, "rules", p.rules).
		AddRender(0, "sprites", render.New(st.World).Draw).
		AddRender(10, "hud", p.drawHUD).
		AddRender(20, "sound", p.snd.Draw)
	next, err := st.Run()
	how := "stopped"
	switch {
	case p.exit:
		how = "reached the exit"
	case p.Lives == 0:
		how = "out of lives"
	}
	fmt.Printf("level %d: %s, %d stars, %d stomped, %d lives, %.1f s\n", p.Level, how, p.Stars, p.Stomped, p.Lives,
		float64(loop.Ticks(0))/60)
	return next, err
}

// build puts the level in the world: its ground and planks, the hero at
// the start, the enemies, stars, lifts, checkpoints and the exit where the
// map's objects are, the camera, and the genre's rules over them.
func (p *Play) build() (*sideview.Rules, error) {
	st, lv, phys := p.st, p.lv, p.st.Physics
	for i, l := range lv.Build(st.World, phys).Layers {
		st.Sched.AddRender(-10+i, "tiles "+l.Name(), l.Draw)
	}
	o := lv.Objects("player")[0]
	start := cp.Vector{X: o.X, Y: o.Y - 12}
	p.hero = phys.SpawnBox(12, 22, &physics.BodyOptions{Position: start, Moment: math.Inf(1),
		Sprite: (&gfx.Sprite{Image: p.clips["idle"].Frames[0]}).Fitted(gfx.Feet)}, sideview.CharacterC, sideview.HeroC, anim.AnimationC, sideview.LooksC)
	sideview.LooksC.SetValue(st.World.Entry(p.hero), sideview.Looks{Idle: p.clips["idle"], Run: p.clips["run"],
		Jump: p.clips["jump"], Flip: true})
	sideview.CharacterC.SetValue(st.World.Entry(p.hero), sideview.Character{RunSpeed: 150, JumpSpeed: 380})
	sideview.HeroC.SetValue(st.World.Entry(p.hero), sideview.Hero{Lives: p.Lives, Checkpoint: start, Stomps: p.Stomped,
		Counts: [4]int{p.Stars}})
	for _, o := range lv.Objects("enemy") {
		e := phys.SpawnBox(14, 14, &physics.BodyOptions{Position: cp.Vector{X: o.X, Y: o.Y - 7}, Moment: math.Inf(1),
			Sprite: st.Sprite(assets.SpriteAgent).Fitted(gfx.Feet)}, sideview.CharacterC, sideview.PatrolC, enemyC)
		sideview.CharacterC.SetValue(st.World.Entry(e), sideview.Character{RunSpeed: 40, GroundAccel: 400})
		sideview.PatrolC.SetValue(st.World.Entry(e), sideview.Patrol{Dir: -1, Ledges: true})
	}
	for _, o := range lv.Objects("star") {
		phys.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: o.X, Y: o.Y},
			Sprite: st.Sprite(assets.SpriteGoal).Fitted(gfx.Contain)}, starC)
	}
	for _, o := range lv.Objects("lift") {
		m, err := sideview.MoverFrom(lv, o)
		if err != nil {
			return nil, err
		}
		e := phys.SpawnBox(o.Width, o.Height, &physics.BodyOptions{Kind: physics.Kinematic, Position: m.At(0),
			Sprite: st.Fill(color.RGBA{170, 120, 70, 255})}, sideview.MoverC)
		sideview.MoverC.SetValue(st.World.Entry(e), m)
	}
	for _, c := range []struct {
		class string
		tag   donburi.IComponentType
		look  color.RGBA
	}{{"checkpoint", flagC, color.RGBA{120, 180, 240, 255}}, {"exit", exitC, color.RGBA{90, 220, 120, 255}}} {
		for _, o := range lv.Objects(c.class) {
			phys.SpawnBox(o.Width, o.Height, &physics.BodyOptions{Kind: physics.Static, Sensor: true,
				Position: cp.Vector{X: o.X + o.Width/2, Y: o.Y + o.Height/2}, Sprite: st.Fill(c.look)}, c.tag)
		}
	}
	phys.OnCollide(sideview.HeroC, exitC, func(donburi.World, physics.Contact) { p.exit = true })
	camera.Spawn(st.World, components.Camera{Zoom: 2}, camera.Follow{Target: p.hero, DeadZone: cp.Vector{X: 24, Y: 30},
		LookAhead: 0.3, Smoothing: 6, Screen: cp.Vector{X: width, Y: height}, Max: cp.Vector{X: lv.Width, Y: lv.Height}})
	return sideview.NewRules(phys).Stomp(enemyC).Hurt(enemyC).Pickup(starC).Checkpoint(flagC).
		KillBelow(lv.Height + 48).Crush(), nil
}

// rules acts on what the tick did: the hero's stars, stomps and lives
// (sideview.Rules: a hurt, a fall or a crush costs a life; the last one
// ends the game), the exit goes on.
func (p *Play) rules(w donburi.World, ev engine.Event) {
	h := sideview.HeroC.Get(w.Entry(p.hero))
	p.Stars, p.Stomped, p.Lives = h.Counts[0], h.Stomps, h.Lives
	p.takeSounds(w, ev, h.Events)
	switch {
	case p.exit && p.Level == lastLevel:
		p.st.End(&Results{Settings: p.Settings, Game: p.Game, Won: true})
	case p.exit:
		next := p.Game
		next.Level++
		p.st.End(&Play{Settings: p.Settings, Game: next})
	case p.Lives == 0:
		p.st.End(&Results{Settings: p.Settings, Game: p.Game})
	}
}

// sounds are the game's blips, made once.
var sounds = sound.Bank{
	"jump":  sound.Tone(520, 0.09, 0.25),
	"star":  sound.Tone(1320, 0.12, 0.25),
	"stomp": sound.Tone(180, 0.12, 0.4),
	"hurt":  sound.Tone(110, 0.3, 0.4),
	"exit":  sound.Tone(880, 0.3, 0.3),
}

// tune is the levels' music: a soft loop of eight notes.
var tune = func() []byte {
	var pcm []byte
	for _, f := range [...]float64{262, 330, 392, 523, 392, 330, 294, 349} {
		pcm = append(pcm, sound.Tone(f, 0.3, 0.06)...)
	}
	return pcm
}()

// takeSounds takes the tick's sounds: a jump, a star, a stomp, a life
// lost, the exit.
func (p *Play) takeSounds(w donburi.World, ev engine.Event, e sideview.HeroEvents) {
	for _, s := range [...]struct {
		on   bool
		name string
	}{{sideview.CharacterC.Get(w.Entry(p.hero)).Jumped, "jump"}, {e.Did(sideview.HeroPicked), "star"},
		{e.Did(sideview.HeroStomped), "stomp"}, {e.Did(sideview.HeroLostLife), "hurt"}, {p.exit, "exit"}} {
		if s.on {
			p.snd.Play(ev, s.name)
		}
	}
}

// drawHUD draws the level, stars and lives, formatted only when they change.
func (p *Play) drawHUD(_ donburi.World, ev engine.Event) {
	if key := [3]int{p.Level, p.Stars, p.Lives}; key != p.hudKey || p.hud == "" {
		p.hudKey, p.hud = key, fmt.Sprintf("level %d   stars %d   lives %d", p.Level, p.Stars, p.Lives)
	}
	p.st.Text(window.Screen(ev), p.hud, 12, 8, 16, white, text.AlignStart)
}

// pilot is the autopilot: it runs right and jumps over gaps, walls and
// enemies ahead, from what the game shows (the world), one tick at a time.
type pilot struct {
	p         *Play
	jumpUntil int64
}

// SampleTick holds Right, and Jump while a jump lasts: one starts on the
// ground when a gap, a wall or an enemy is ahead.
func (pl *pilot) SampleTick(t engine.TickInfo, in *input.State) {
	p := pl.p
	in.SetKey(input.KeyArrowRight, true)
	if c := sideview.CharacterC.Get(p.st.World.Entry(p.hero)); c.OnGround && t.Tick > pl.jumpUntil+2 {
		if s := sideview.Ahead(p.st.Physics, p.st.World, p.hero, 1, 30); s.Gap || s.Wall {
			pl.jumpUntil = t.Tick + 20
		}
	}
	in.SetKey(input.KeySpace, t.Tick <= pl.jumpUntil)
}
