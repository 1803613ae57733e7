package detmath_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine/detmath"
)

// A step of a body moving along its heading: the trigonometry from
// detmath, each product that meets a sum rounded by a conversion, so that every CPU
// computes the same position.
func Example() {
	x, y := 10.0, 20.0
	heading := detmath.Atan2(3, 4)
	speed, dt := 5.0, 1.0/60
	sin, cos := detmath.Sincos(heading)
	x += float64(speed * cos * dt)
	y += float64(speed * sin * dt)
	fmt.Printf("%.17g %.17g\n", x, y)
	// Output: 10.066666666666666 20.050000000000001
}
