package level_test

import (
	"errors"
	"image/color"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// typedTMX is a map whose objects have properties of every type Tiled
// writes, one that refers to another object, and a polyline.
const typedTMX = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="10" height="6" tilewidth="8" tileheight="8" infinite="0" nextlayerid="3" nextobjectid="4">
 <tileset firstgid="1" source="tiles.tsx"/>
 <layer id="1" name="ground" width="10" height="6">
  <data encoding="csv">
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
1,1,2,1,1,1,1,1,1,1
</data>
 </layer>
 <objectgroup id="2" name="things">
  <object id="1" name="lift" class="platform" x="8" y="16" width="16" height="4">
   <properties>
    <property name="period" type="float" value="2.5"/>
    <property name="count" type="int" value="3"/>
    <property name="loop" type="bool" value="true"/>
    <property name="tint" type="color" value="#80ff0010"/>
    <property name="path" type="object" value="2"/>
    <property name="lost" type="object" value="9"/>
    <property name="none" type="object" value="0"/>
    <property name="easing" value="sine"/>
    <property name="bad" type="float" value="fast"/>
   </properties>
  </object>
  <object id="2" name="route" x="16" y="18"><polyline points="0,0 32,0 32,-16"/></object>
 </objectgroup>
</map>`

// Typed properties read as Tiled wrote them, with defaults for those not
// there; an object reference finds its object; a polyline's points are in
// world units; a bad value is an error naming the object and the property;
// the string map still holds every value.
func TestTypedProperties(t *testing.T) {
	fsys := levelFS()
	fsys["levels/typed.tmx"] = &fstest.MapFile{Data: []byte(typedTMX)}
	var lv *level.Level
	var err error
	ebitentest.OnGame(t, func() { lv, err = level.Load(fsys, "levels/typed.tmx") })
	if err != nil {
		t.Fatal(err)
	}
	o := lv.Objects("platform")[0]
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Error(err)
		}
	}
	period, err := o.Float("period", 1)
	must(err)
	count, err := o.Int("count", 0)
	must(err)
	loop, err := o.Bool("loop", false)
	must(err)
	tint, err := o.Color("tint", color.NRGBA{})
	must(err)
	missing, err := o.Float("speed", 42)
	must(err)
	if period != 2.5 || count != 3 || !loop || tint != (color.NRGBA{R: 255, G: 0, B: 16, A: 128}) || missing != 42 ||
		o.String("easing", "linear") != "sine" || o.Props["period"] != "2.5" || o.ID != 1 {
		t.Errorf("period %v, count %v, loop %v, tint %v, speed (missing) %v, easing %q, Props %v", period, count, loop, tint, missing,
			o.String("easing", ""), o.Props)
	}
	route, ok, err := lv.Ref(o, "path")
	if err != nil || !ok || route.Name != "route" {
		t.Fatalf("Ref(path): %+v, %v, %v", route, ok, err)
	}
	if want := []cp.Vector{{X: 16, Y: 18}, {X: 48, Y: 18}, {X: 48, Y: 2}}; len(route.Points) != 3 || route.Points[0] != want[0] ||
		route.Points[1] != want[1] || route.Points[2] != want[2] {
		t.Errorf("the polyline's points %v, want %v", route.Points, want)
	}
	if _, ok, err := lv.Ref(o, "none"); ok || err != nil {
		t.Errorf("a reference to no object: %v, %v", ok, err)
	}
	for _, c := range []struct {
		name string
		err  error
	}{{"bad", func() error { _, err := o.Float("bad", 0); return err }()},
		{"lost", func() error { _, _, err := lv.Ref(o, "lost"); return err }()},
		{"easing", func() error { _, err := o.Int("easing", 0); return err }()}} {
		var pe *level.PropertyError
		if !errors.As(c.err, &pe) || pe.Name != c.name || !strings.Contains(c.err.Error(), `object 1 "lift" (platform)`) ||
			!strings.Contains(c.err.Error(), `"`+c.name+`"`) {
			t.Errorf("property %s: error %v, want one naming the object and the property", c.name, c.err)
		}
	}
	solid, ok := lv.TileProperties("ground", 0, 5)
	if s, err := solid.Bool("solid", false); !ok || !s || err != nil {
		t.Errorf("the ground's first tile: %+v, %v, solid %v, %v", solid, ok, s, err)
	}
	if _, ok := lv.TileProperties("ground", 0, 0); ok {
		t.Errorf("an empty cell has properties")
	}
}
