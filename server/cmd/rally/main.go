// Command rally plays an online match of rally in a window: it finds (or
// makes) a match for -players players on a game server, waits for the
// others, and plays it with the arrow keys, the server's simulation
// authoritative. The window draws the client's own simulation of each
// tick the server broadcast, after checking its checksum against the
// server's.
//
//	make server                                   # a server on 127.0.0.1
//	go run ./cmd/rally -players 2                 # in two terminals (or on two machines: -server http://HOST:7350)
//
// -bot lets the game's bot play the seat; -quit closes the window when the
// match ends; -screenshot FILE saves its picture then. The last line it
// prints says how many ticks it checked.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"os"
	"sync"
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/fixedstep/fixedstep/cmd/bounce/rally"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/client"
	enginewindow "github.com/fixedstep/fixedstep/engine/window"
)

func main() {
	server := flag.String("server", "http://127.0.0.1:7350", "the game server's HTTP API")
	key := flag.String("key", "defaultkey", "the server's socket key")
	players := flag.Int("players", 2, "players in the match to find or make (1 to 4)")
	seconds := flag.Int("seconds", 0, "the length of a match made when none is open (default: the server's, 120 s)")
	device := flag.String("device", "", "this player's device id, 10 to 128 characters (default: a new one each run)")
	bot := flag.Bool("bot", false, "the game's bot plays this seat")
	quit := flag.Bool("quit", false, "close the window when the match ends")
	shot := flag.String("screenshot", "", "save the window's picture as the match ends to this PNG file")
	flag.Parse()
	if *device == "" {
		b := make([]byte, 8)
		rand.Read(b)
		*device = "rally-window-" + hex.EncodeToString(b)
	}
	w := &window{quit: *quit, shot: *shot}
	go w.play(*server, *key, *device, *players, *seconds, *bot)
	ebiten.SetWindowTitle("rally (online)")
	ebiten.SetWindowSize(2*screenW, 2*screenH)
	if err := ebiten.RunGame(w); err != nil && !errors.Is(err, ebiten.Termination) {
		fmt.Fprintln(os.Stderr, "rally:", err)
		os.Exit(1)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		fmt.Fprintln(os.Stderr, "rally:", w.err)
		os.Exit(1)
	}
}

const screenW, screenH = 4*rally.LaneW + 20, rally.BoxH + 50

// window is the game ebiten runs: it draws the last tick's picture and
// samples the keys for the network side.
type window struct {
	quit bool
	shot string        // a PNG file to save the picture to as the match ends, until it is saved
	keys atomic.Uint32 // bit 0: left, bit 1: right

	mu      sync.Mutex
	pic     picture
	status  string
	err     error
	over    bool
	players int
	seat    int
}

// picture is what a tick looks like: copied from the simulation's world
// after each tick, on the network side, and drawn from the window's.
type picture struct {
	tick    int64
	balls   [][2]float64
	paddles []rally.Paddle
	xs      []float64
}

// play joins a match and plays it, updating the window's picture.
func (w *window) play(server, key, device string, players, seconds int, bot bool) {
	err := w.playErr(server, key, device, players, seconds, bot)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.over = true
	if err != nil {
		w.err, w.status = err, err.Error()
	}
}

func (w *window) playErr(server, key, device string, players, seconds int, useBot bool) error {
	ctx := context.Background()
	w.setStatus("connecting to " + server)
	c, err := client.Dial(ctx, server, client.Options{ServerKey: key, Device: device})
	if err != nil {
		return err
	}
	defer c.Close()
	var g *rally.Game
	spec := rally.Spec
	spec.New = func(seed uint64, settings map[string]string) (engine.Scene, lockstep.Bot, error) {
		var err error
		g, err = rally.NewGame(seed, settings)
		if err != nil {
			return nil, nil, err
		}
		return g.First(), nil, nil
	}
	id, err := c.Find(ctx, &spec, players, seconds)
	if err != nil {
		return err
	}
	m, err := c.Join(ctx, &spec, id)
	if err != nil {
		return err
	}
	w.setStatus(fmt.Sprintf("waiting for %d players in match %s", players, id))
	var seat int
	res, err := m.Play(ctx, client.Play{
		Bot: func(s int, in *input.State) {
			seat = s
			if useBot {
				rally.Bot(g.World(), s, in)
				return
			}
			k := w.keys.Load()
			in.SetKey(input.KeyArrowLeft, k&1 != 0)
			in.SetKey(input.KeyArrowRight, k&2 != 0)
		},
		OnTick: func(tick int64) { w.snapshot(g, tick, seat) },
	})
	if err != nil {
		return err
	}
	w.setStatus(fmt.Sprintf("match over at tick %d: %s; %d ticks checked against the server's checksum", res.End.Tick, res.End.Reason, res.Checked))
	return nil
}

// setStatus shows s in the window, and prints it.
func (w *window) setStatus(s string) {
	fmt.Println(s)
	w.mu.Lock()
	w.status = s
	w.mu.Unlock()
}

// snapshot copies the world of g after tick into the picture.
func (w *window) snapshot(g *rally.Game, tick int64, seat int) {
	world := g.World()
	if world == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	p := &w.pic
	p.tick, p.balls, p.paddles, p.xs = tick, p.balls[:0], p.paddles[:0], p.xs[:0]
	rally.Each(world, func(b *rally.Body, ball *rally.Ball, paddle *rally.Paddle) {
		pos := b.Body.Position()
		if ball != nil {
			p.balls = append(p.balls, [2]float64{pos.X, pos.Y})
		} else {
			p.paddles = append(p.paddles, *paddle)
			p.xs = append(p.xs, pos.X)
		}
	})
	w.players, w.seat = len(p.paddles), seat
	w.status = fmt.Sprintf("tick %d: player %d of %d, the arrow keys move your paddle (white)", tick, seat+1, len(p.paddles))
}

func (w *window) Update() error {
	var k uint32
	if ebiten.IsKeyPressed(ebiten.KeyArrowLeft) {
		k |= 1
	}
	if ebiten.IsKeyPressed(ebiten.KeyArrowRight) {
		k |= 2
	}
	w.keys.Store(k)
	w.mu.Lock()
	defer w.mu.Unlock()
	if ebiten.IsKeyPressed(ebiten.KeyEscape) || (w.over && w.quit && w.shot == "") {
		return ebiten.Termination
	}
	return nil
}

var seatColors = []color.RGBA{{0x4a, 0xc8, 0xf0, 0xff}, {0xf0, 0x8a, 0x4a, 0xff}, {0x8a, 0xf0, 0x4a, 0xff}, {0xd0, 0x6a, 0xf0, 0xff}}

func (w *window) Draw(screen *ebiten.Image) {
	w.mu.Lock()
	defer w.mu.Unlock()
	screen.Fill(color.RGBA{0x14, 0x16, 0x1c, 0xff})
	const ox, oy = 10, 40 // the box's corner on screen; y up in the world
	boxW := float32(rally.LaneW * max(w.players, 1))
	vector.StrokeRect(screen, ox, oy, boxW, rally.BoxH, 2, color.RGBA{0x60, 0x66, 0x70, 0xff}, false)
	sy := func(y float64) float32 { return oy + rally.BoxH - float32(y) }
	hud := w.status + "\n"
	for i, p := range w.pic.paddles {
		c := seatColors[p.Seat%len(seatColors)]
		if p.Seat == w.seat {
			c = color.RGBA{0xff, 0xff, 0xff, 0xff}
		}
		if p.Lives > 0 {
			vector.FillRect(screen, ox+float32(w.pic.xs[i]-rally.PaddleW/2), sy(rally.PaddleY+5), rally.PaddleW, 10, c, false)
		}
		hud += fmt.Sprintf("P%d %d pts %d lives   ", p.Seat+1, p.Score, p.Lives)
	}
	for _, b := range w.pic.balls {
		vector.FillCircle(screen, ox+float32(b[0]), sy(b[1]), rally.BallR, color.RGBA{0xf0, 0xe0, 0x60, 0xff}, true)
	}
	ebitenutil.DebugPrint(screen, hud)
	if w.over && w.shot != "" {
		if err := enginewindow.SaveScreenshot(w.shot, screen); err != nil && w.err == nil {
			w.err = err
		}
		w.shot = ""
	}
}

func (w *window) Layout(int, int) (int, int) { return screenW, screenH }
