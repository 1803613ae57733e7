package menu_test

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
)

// A title screen with a choice of two games and Quit. Headless, as here,
// nothing is drawn; the autopilot moves the choice down at tick 10 and
// chooses at tick 20, and the screen ends its scene with the second item's.
func ExampleScreen() {
	game := func(name string) engine.Scene {
		return engine.NewScene(name, func(loop *engine.Loop) (engine.Scene, error) {
			fmt.Println("playing", name)
			return nil, nil
		})
	}
	title := &menu.Screen{
		X: 320, Align: text.AlignCenter,
		Lines: []menu.Line{{Text: "TWO GAMES", Y: 80, Size: 48}, {Text: "Up, Down, Enter   Esc quits", Y: 300}},
		Choice: menu.Choice{Y: 160, Size: 24, Mark: "> ", Items: []menu.Item{
			{Text: "Asteroids", Next: game("Asteroids")},
			{Text: "Snake", Next: game("Snake")},
			{Text: "Quit"}, // nil: the game ends
		}},
		Autopilot: engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyArrowDown, t.Tick == 10)
			in.SetKey(input.KeyEnter, t.Tick >= 20)
		}),
	}
	err := engine.Run(title, nil)
	fmt.Println("err:", err)
	// Output:
	// playing Snake
	// err: <nil>
}
