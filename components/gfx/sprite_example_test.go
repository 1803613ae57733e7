package gfx_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components/gfx"
)

// A scale left at zero is 1: a sprite flipped across its x axis only.
func ExampleSprite_Scale() {
	s := gfx.Sprite{ScaleY: -1}
	fmt.Println(s.Scale())
	// Output: 1 -1
}
