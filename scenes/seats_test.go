package scenes

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// couchTicks is how long the couch tests play: half a second, before any
// agent reaches a player.
const couchTicks = 30

// couchScript holds, for the first couchTicks ticks, D (the left half's
// right) when right is set, and the up arrow (the right half's up) when
// up is set: two people's hands on one keyboard.
func couchScript(right, up bool) engine.TickInput {
	return engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		in.SetKey(input.KeyD, right && t.Tick <= couchTicks)
		in.SetKey(input.KeyArrowUp, up && t.Tick <= couchTicks)
	})
}

// couch plays the demo's Arena for two at seats kb1 and kb2, headless,
// with the script, and returns each player's position after tick
// couchTicks, the seats' sprites and the run's checksum; rec, when set,
// records it, replay replays it.
func couch(t *testing.T, script engine.TickInput, opts engine.Options) (pos [2]cp.Vector, looks [2]*gfx.Sprite, sum uint64) {
	t.Helper()
	seats, err := input.ParseSeats("kb1,kb2")
	if err != nil {
		t.Fatal(err)
	}
	a := &Arena{opts: &Options{Seed: 4, Seconds: 1, Seats: seats}}
	players := donburi.NewQuery(filter.Contains(components.PlayerC, components.SeatC))
	opts.TickInput = script
	opts.AfterUpdate = append(opts.AfterUpdate, func(_ *engine.Loop, ev engine.Event) {
		if ev.Group != 0 || ev.Tick != couchTicks {
			return
		}
		for e := range players.Iter(a.st.World) {
			p := components.SeatC.Get(e).Player
			pos[p] = components.BodyC.Get(e).Body.Position()
			looks[p] = gfx.SpriteC.Get(e)
		}
	})
	if opts.Record == nil {
		opts.Record = &engine.InputLog{}
	}
	if err := engine.Run(a, &opts); err != nil {
		t.Fatal(err)
	}
	sum, _ = opts.Record.RunChecksum()
	return pos, looks, sum
}

// Two players at one keyboard, the Arena's seats kb1 and kb2: each body
// moves by its own half's keys only (D moves player 1 right and player 2
// not a bit; the up arrow player 2 up and player 1 not a bit), each is in
// its seat's colour, and the run's recording replays, at another frame
// rate and under -synctest 8, to the same checksum.
func TestArenaForTwoAtOneKeyboard(t *testing.T) {
	still, looks, _ := couch(t, couchScript(false, false), engine.Options{})
	right, _, _ := couch(t, couchScript(true, false), engine.Options{})
	up, _, _ := couch(t, couchScript(false, true), engine.Options{})
	rec := &engine.InputLog{}
	both, _, sum := couch(t, couchScript(true, true), engine.Options{Record: rec})

	if d := right[0].Sub(still[0]); !(d.X > 50 && abs(d.Y) < 1) || right[1] != still[1] {
		t.Errorf("D held: player 1 moved %v from where it stood still, player 2 %v (want right, and not at all)", d, right[1].Sub(still[1]))
	}
	if d := up[1].Sub(still[1]); !(d.Y < -50 && abs(d.X) < 1) || up[0] != still[0] {
		t.Errorf("Up held: player 2 moved %v from where it stood still, player 1 %v (want up, and not at all)", d, up[0].Sub(still[0]))
	}
	if both[0] != right[0] || both[1] != up[1] {
		t.Errorf("both held: the players at %v, each alone at %v and %v", both, right[0], up[1])
	}
	if looks[0].Image == looks[1].Image || looks[0].Color != looks[1].Color {
		t.Errorf("the seats' looks: the same image %v, colour scales %v and %v (want each its seat's image, untinted)",
			looks[0].Image == looks[1].Image, looks[0].Color, looks[1].Color)
	}

	replay := &engine.InputLog{}
	again, _, replayed := couch(t, nil, engine.Options{Replay: rec, Record: replay, Headless: &engine.Headless{FPS: 37}})
	if replayed != sum || again != both || rec.Replayed().Checked == 0 {
		t.Fatalf("the replay at 37 fps: checksum %016x, want %016x; players at %v, want %v; %+v", replayed, sum, again, both, rec.Replayed())
	}
	synced, _, syncSum := couch(t, couchScript(true, true), engine.Options{SyncTest: 8})
	if syncSum != sum || synced != both {
		t.Fatalf("-synctest 8: checksum %016x, want %016x", syncSum, sum)
	}
}

func abs(x float64) float64 { return max(x, -x) }

// spy is a scene that runs another and keeps the scenes it led to.
type spy struct {
	engine.Scene
	seen *[]engine.Scene
}

func (s spy) Name() string { return engine.SceneName(s.Scene) }

func (s spy) Run(loop *engine.Loop) (engine.Scene, error) {
	*s.seen = append(*s.seen, s.Scene)
	next, err := s.Scene.Run(loop)
	if next != nil {
		next = spy{next, s.seen}
	}
	return next, err
}

// lobbyScript chooses Local players on the Title, then seats two players
// in the Lobby (Space: the keyboard's left half, tick 5; pad 2's A, tick
// 12), and plays the Arena with D held (the left half's right).
func lobbyScript(t engine.TickInfo, in *input.State) {
	switch t.Scene {
	case "Title":
		in.SetKey(input.KeyArrowDown, t.Tick == 3)
		in.SetKey(input.KeyEnter, t.Tick == 8)
	case "Lobby":
		in.SetKey(input.KeySpace, t.Tick == 5)
		in.SetGamepadButton(2, input.GamepadRightBottom, t.Tick == 12)
	case "Arena":
		in.SetKey(input.KeyD, true)
	}
}

// The demo's join screen: Local players on the Title opens the Lobby,
// where each device pressed takes the next seat; the Arena starts
// LobbyWait ticks after the last join with one body a seat, in the
// seats' order. The run's recording replays to the same checksum.
func TestLobbySeatsWhoPressed(t *testing.T) {
	play := func(opts engine.Options) ([]engine.Scene, uint64) {
		t.Helper()
		var seen []engine.Scene
		if opts.Record == nil {
			opts.Record = &engine.InputLog{}
		}
		if opts.Headless == nil {
			opts.Headless = &engine.Headless{}
		}
		opts.Headless.Frames = 2000 // a menu that never ends fails the test, not the machine
		if err := engine.Run(spy{&Title{opts: &Options{Seed: 5, Seconds: 1}}, &seen}, &opts); err != nil {
			t.Fatal(err)
		}
		sum, _ := opts.Record.RunChecksum()
		return seen, sum
	}
	rec := &engine.InputLog{}
	seen, sum := play(engine.Options{TickInput: engine.TickInputFunc(lobbyScript), Record: rec})
	if len(seen) != 3 {
		t.Fatalf("%d scenes, want the Title, the Lobby and the Arena", len(seen))
	}
	a, ok := seen[2].(*Arena)
	if _, lobby := seen[1].(*Lobby); !lobby || !ok {
		t.Fatalf("the scenes: %T, %T, %T", seen[0], seen[1], seen[2])
	}
	if s := a.opts.Seats.String(); s != "kb1,pad2" || a.game.Players() != 2 {
		t.Fatalf("the Arena's seats: %q, %d players", s, a.game.Players())
	}
	if got := rec.Scene(1).Ticks[0]; got != 12+LobbyWait {
		t.Errorf("the Lobby ran %d ticks, want %d", got, 12+LobbyWait)
	}
	replayed, again := play(engine.Options{Replay: rec, Headless: &engine.Headless{FPS: 50}})
	if again != sum || len(replayed) != 3 || replayed[2].(*Arena).opts.Seats != a.opts.Seats {
		t.Fatalf("the replay: checksum %016x, want %016x; scenes %v", again, sum, replayed)
	}
}
