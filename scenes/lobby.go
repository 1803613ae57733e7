package scenes

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// LobbyWait is how long the Lobby waits after the last player joined
// before the Arena starts, in its 30 Hz ticks: three seconds.
const LobbyWait = 90

// Lobby is the join screen of local multiplayer: each device pressed (a
// key of the keyboard's left half, of its right half, a gamepad's button)
// takes the next seat, up to four (input.Seats.Join, on ticks: a replay
// seats the same players); once two have joined, the Arena starts
// LobbyWait ticks after the last one did, one body a seat. Esc goes back
// to the Title.
type Lobby struct {
	opts *Options
}

// Name names the scene.
func (l *Lobby) Name() string { return "Lobby" }

// Run shows the seats as they fill and returns the Arena, or the Title.
func (l *Lobby) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, l.Name(), l.opts, stage.Options{Groups: []engine.Group{{Name: "menu", Hz: 30}},
		Background: color.RGBA{18, 22, 36, 255}})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	st.SetSeats(input.Seats{})
	var joined int64 // the tick the last player joined on
	stage.Keep(st, &joined)
	var looks [input.MaxPlayers]*ebiten.Image
	for seat := range looks {
		looks[seat] = st.SeatSprite(assets.SpritePlayer, seat).Image
	}
	st.Sched.AddUpdate(0, "join", func(_ donburi.World, ev engine.Event) {
		if ev.Input.KeyPressed(input.KeyEscape) {
			st.End(&Title{opts: l.opts})
			return
		}
		seats := st.Seats()
		if seats.Join(st.Machines(), input.MaxPlayers) > 0 {
			st.SetSeats(seats)
			joined = ev.Tick
		}
		if seats.N >= 2 && ev.Tick-joined >= LobbyWait {
			o := *l.opts
			o.Seats = seats
			st.End(&Arena{opts: &o})
		}
	})
	st.Sched.AddRender(0, "seats", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev)
		if screen == nil {
			return
		}
		st.Text(screen, "Local players", 60, 50, 40, color.RGBA{120, 220, 255, 255}, text.AlignStart)
		st.Text(screen, "Press a key of your half of the keyboard (WASD, Space / arrows, Enter) or a button of your pad to join",
			60, 110, 16, color.RGBA{200, 200, 210, 255}, text.AlignStart)
		seats := st.Seats()
		for p := range int(seats.N) {
			y := 160 + float64(p)*48 //detcheck:ok a drawing's position, not game state
			var op ebiten.DrawImageOptions
			op.GeoM.Translate(80, y)
			screen.DrawImage(looks[p], &op)
			st.Text(screen, fmt.Sprintf("Player %d: %v", p+1, seats.Seat[p]), 130, y+4, 24, color.White, text.AlignStart)
		}
		status := "Two players or more start the Arena; Esc: back"
		if seats.N >= 2 {
			status = fmt.Sprintf("The Arena starts in %d s; more may join", (LobbyWait-(st.Loop.Ticks(0)-joined)+29)/30)
		}
		st.Text(screen, status, 80, 370, 18, color.RGBA{255, 220, 80, 255}, text.AlignStart)
	})
	return st.Run()
}
