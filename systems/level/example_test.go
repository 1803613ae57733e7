package level_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/systems/level"
)

// An object's typed properties, read with defaults: a float Tiled wrote, one
// not there, and one whose value is no float, an error naming the object
// and the property.
func ExampleProperties() {
	o := level.Object{ID: 7, Name: "lift", Class: "lift", Properties: level.Properties{Owner: `object 7 "lift" (lift)`,
		List: []level.Property{{Name: "period", Type: "float", Value: "2.5"}, {Name: "wait", Type: "float", Value: "soon"}}}}
	period, _ := o.Float("period", 4)
	speed, _ := o.Float("speed", 60)
	_, err := o.Float("wait", 0)
	fmt.Println(period, speed)
	fmt.Println(err)
	// Output:
	// 2.5 60
	// level: object 7 "lift" (lift): property "wait" (float) = "soon": not a float
}
