// Package menu is a game's menu screen in one value: a [Screen] shows a
// title and lines of text and, when it has them, a choice of items moved
// through by keys or a gamepad; it ends its scene with the scene chosen,
// decided on a tick (Stage.End), so that a recording replays the same
// choice and ends where it ended. A title screen, a game over, a results
// screen: the game gives the words, their places and the scenes that
// follow; the screen reads the keys, draws and ends the scene.
//
// # Outline
//
//   - [Screen]: the words ([Line]), the choice ([Choice], [Item]), the
//     scene after it ([Screen.Next], [Screen.Back]), an autopilot
//     ([Screen.Autopilot]), the stage's options and a [Screen.Setup] for
//     what else the scene holds (decorations, their render system).
//   - [Screen.Run]: the scene itself, on a stage.Stage.
//
// # Keys
//
// Enter, Space or the gamepad's bottom face button chooses; Up, W or the
// D-pad's up and Down, S or the D-pad's down move the choice (wrapping
// round); Esc goes back ([Screen.Back]), and wins over a choice pressed on
// the same tick. The keys and pad 0 are read from the tick's input
// (ev.Input; in a networked run, the first player's), so a replay and an
// autopilot drive it as the player did.
//
// # State
//
// A screen adds no entity and keeps nothing with the stage (stage.Keep):
// the world holds only what Setup spawns, so a game's state checksums are
// those of its own entities. The item chosen is the screen's: a step back
// on a menu does not move it back.
package menu

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Layer is the render layer a Screen draws its text in: sprites a Setup
// adds in a layer below it (render.Sprites in layer 0) are drawn under the
// words.
const Layer = 1

// DefaultSize is the height in pixels of a line whose Size and its
// screen's are 0.
const DefaultSize = 16

// white is the colour of a line with none, its screen's none either.
var white color.Color = color.White

// Line is a line of text on a Screen, drawn with Stage.Text: its top at Y,
// aligned at X by the screen's Align.
type Line struct {
	Text string
	// X is where the line is aligned (its left, centre or right, by
	// Screen.Align); 0: the screen's X.
	X float64
	// Y is the line's top, in pixels from the screen's top.
	Y float64
	// Size is the text's height in pixels; 0: the screen's Size.
	Size float64
	// Color is the text's colour; nil: the screen's Color. A color.Color
	// variable (var grey color.Color = color.RGBA{...}) is boxed once: a
	// color.RGBA is boxed when the line is made, never per frame.
	Color color.Color
}

// Item is one entry of a Choice: its words, and the scene that follows
// when it is chosen (nil ends the game: a Quit).
type Item struct {
	Text string
	Next engine.Scene
}

// Choice is a column of items, one of them chosen at a time (the first at
// the start), drawn at the screen's X from Y down, Step apart.
type Choice struct {
	Items []Item
	// Y is the first item's top; Step the distance between two items' tops
	// (0: Size and a quarter).
	Y, Step float64
	// Size is the items' height in pixels; 0: the screen's Size.
	Size float64
	// Color is the items' colour (nil: the screen's Color), Chosen the
	// chosen item's (nil: Color).
	Color, Chosen color.Color
	// Mark is put before the chosen item's words ("> ").
	Mark string
}

// Screen is a menu screen: lines of text, a choice, and the scenes that
// follow. Its zero value is a blank screen that Enter, Space or the pad's
// A end the game from. Fill it in and call Run from the game's scene:
//
//	func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
//		return (&menu.Screen{
//			Lines: []menu.Line{{Text: "MY GAME", Y: 100, Size: 48}, {Text: "Enter to play", Y: 200}},
//			X:     320, Align: text.AlignCenter,
//			Next:  &Play{},
//		}).Run(loop)
//	}
//
// A Screen's fields are read when Run starts; Run does not change them.
type Screen struct {
	// Stage is the stage's options (its groups, its Background...).
	Stage stage.Options

	// Lines are drawn as they are, in Layer.
	Lines []Line
	// X, Align, Size and Color are every line's and item's own when
	// theirs are zero: where they are aligned, how (text.AlignStart, the
	// zero value, puts their left at X), their height (0: DefaultSize) and
	// colour (nil: white).
	X     float64
	Align text.Align
	Size  float64
	Color color.Color

	// Choice is what the player chooses from; with no items, the choice
	// is Next.
	Choice Choice
	// Next is the scene that Enter, Space or the pad's A end the screen
	// with when Choice has no items (nil: the game ends).
	Next engine.Scene
	// Back is the scene Esc ends the screen with (nil: the game ends).
	Back engine.Scene

	// Autopilot, if set, is the input of every tick of the stage's first
	// group (Loop.SetTickInput): a headless run's way through the screen,
	// such as engine.KeyFrom(input.KeyEnter, 60), a second at 60 Hz and
	// then the first item. It is recorded like a player's keys.
	Autopilot engine.TickInput

	// Setup, if set, is called with the stage once it is made and the
	// autopilot set, before the screen adds its systems: to spawn what
	// the screen shows besides words (st.SpawnSprite, and a render system
	// for them in a layer below Layer), or add systems of its own. What it
	// spawns is game state like any entity.
	Setup func(st *stage.Stage)
}

// Run is the screen as a scene: it makes a stage with s.Stage on loop,
// sets the autopilot, calls Setup, adds an update system "menu" to the
// first group (the keys, on every tick) and a render system "menu" in
// Layer (the words), and runs the stage until a choice or Esc ends it,
// returning the scene that follows; the stage is released when it
// returns. A tick allocates nothing, nor does a frame once its strings
// are laid out, when they are no more than Stage.Text keeps (32).
func (s *Screen) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, s.Stage)
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if s.Autopilot != nil {
		loop.SetTickInput(0, s.Autopilot)
	}
	if s.Setup != nil {
		s.Setup(st)
	}
	m := newMenu(s, st)
	st.Sched.AddUpdate(0, "menu", m.update).AddRender(Layer, "menu", m.draw)
	return st.Run()
}

// menu is a running Screen: its lines and items with the defaults filled
// in, the chosen item's words with their mark, and the choice.
type menu struct {
	st     *stage.Stage
	align  text.Align
	lines  []Line
	items  []Line   // the items, placed
	marked []string // each item's words with the mark, drawn when it is chosen
	next   []engine.Scene
	back   engine.Scene
	chosen color.Color
	choice int
}

func newMenu(s *Screen, st *stage.Stage) *menu {
	size, c := s.Size, s.Color
	if size == 0 {
		size = DefaultSize
	}
	if c == nil {
		c = white
	}
	fill := func(l Line) Line {
		if l.X == 0 {
			l.X = s.X
		}
		if l.Size == 0 {
			l.Size = size
		}
		if l.Color == nil {
			l.Color = c
		}
		return l
	}
	m := &menu{st: st, align: s.Align, back: s.Back, lines: make([]Line, len(s.Lines))}
	for i, l := range s.Lines {
		m.lines[i] = fill(l)
	}
	ch := s.Choice
	if len(ch.Items) == 0 {
		m.next = []engine.Scene{s.Next}
		return m
	}
	item := fill(Line{Size: ch.Size, Color: ch.Color})
	step := ch.Step
	if step == 0 {
		step = float64(item.Size * 1.25) // a drawing's spacing, rounded as detcheck asks
	}
	m.chosen = ch.Chosen
	if m.chosen == nil {
		m.chosen = item.Color
	}
	for i, it := range ch.Items {
		l := item
		l.Text, l.Y = it.Text, ch.Y+float64(i)*step //detcheck:ok a drawing's position, not game state
		m.items = append(m.items, l)
		m.next = append(m.next, it.Next)
	}
	for _, it := range ch.Items {
		m.marked = append(m.marked, ch.Mark+it.Text)
	}
	return m
}

// update moves the choice on the tick's input and ends the scene with Back
// (Esc) or the chosen item's scene.
func (m *menu) update(_ donburi.World, ev engine.Event) {
	in := ev.Input
	if n := len(m.next); n > 1 {
		if in.KeyPressed(input.KeyArrowUp) || in.KeyPressed(input.KeyW) || in.GamepadPressed(0, input.GamepadLeftTop) {
			m.choice = (m.choice + n - 1) % n
		}
		if in.KeyPressed(input.KeyArrowDown) || in.KeyPressed(input.KeyS) || in.GamepadPressed(0, input.GamepadLeftBottom) {
			m.choice = (m.choice + 1) % n
		}
	}
	switch {
	case in.KeyPressed(input.KeyEscape):
		m.st.End(m.back)
	case in.KeyPressed(input.KeyEnter) || in.KeyPressed(input.KeySpace) || in.GamepadPressed(0, input.GamepadRightBottom):
		m.st.End(m.next[m.choice])
	}
}

// draw draws the lines, then the items, the chosen one marked.
func (m *menu) draw(_ donburi.World, ev engine.Event) {
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	for i := range m.lines {
		l := &m.lines[i]
		m.st.Text(screen, l.Text, l.X, l.Y, l.Size, l.Color, m.align)
	}
	for i := range m.items {
		l := &m.items[i]
		str, c := l.Text, l.Color
		if i == m.choice {
			str, c = m.marked[i], m.chosen
		}
		m.st.Text(screen, str, l.X, l.Y, l.Size, c, m.align)
	}
}
