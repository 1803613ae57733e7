package menu_test

import (
	"image/color"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// named is a scene that only records that it ran.
type named struct {
	name string
	ran  *string
}

func (n *named) Run(*engine.Loop) (engine.Scene, error) { *n.ran = n.name; return nil, nil }

// press returns an autopilot that presses each key on its tick, once.
func press(at map[int64]input.Key) engine.TickInput {
	return engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		for tick, k := range at { //detcheck:ok a test's script
			if t.Tick == tick {
				in.SetKey(k, true)
			}
		}
	})
}

// The keys move the choice, wrapping round, and choose; Esc goes back and
// wins over a choice pressed on the same tick; with no items Enter ends
// the screen with Next.
func TestKeysChoose(t *testing.T) {
	for _, c := range []struct {
		name  string
		keys  map[int64]input.Key
		items bool
		want  string
	}{
		{"first", map[int64]input.Key{5: input.KeyEnter}, true, "a"},
		{"down", map[int64]input.Key{3: input.KeyArrowDown, 5: input.KeySpace}, true, "b"},
		{"up wraps", map[int64]input.Key{3: input.KeyW, 5: input.KeyEnter}, true, "c"},
		{"down wraps", map[int64]input.Key{2: input.KeyS, 4: input.KeyS, 6: input.KeyArrowDown, 8: input.KeyEnter}, true, "a"},
		{"esc", map[int64]input.Key{5: input.KeyEscape}, true, "back"},
		{"no items", map[int64]input.Key{3: input.KeyArrowDown, 5: input.KeyEnter}, false, "next"},
		{"no items, esc", map[int64]input.Key{5: input.KeyEscape}, false, "back"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ran string
			s := &menu.Screen{Next: &named{"next", &ran}, Back: &named{"back", &ran}, Autopilot: press(c.keys)}
			if c.items {
				s.Choice.Items = []menu.Item{{Text: "A", Next: &named{"a", &ran}}, {Text: "B", Next: &named{"b", &ran}},
					{Text: "C", Next: &named{"c", &ran}}}
			}
			if err := engine.Run(s, nil); err != nil {
				t.Fatal(err)
			}
			if ran != c.want {
				t.Errorf("ran %q, want %q", ran, c.want)
			}
		})
	}
}

// Esc and Enter on one tick: Esc wins.
func TestEscWins(t *testing.T) {
	var ran string
	both := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
		in.SetKey(input.KeyEscape, ti.Tick >= 5)
		in.SetKey(input.KeyEnter, ti.Tick >= 5)
	})
	s := &menu.Screen{Next: &named{"next", &ran}, Back: &named{"back", &ran}, Autopilot: both}
	if err := engine.Run(s, nil); err != nil {
		t.Fatal(err)
	}
	if ran != "back" {
		t.Errorf("ran %q, want back", ran)
	}
}

// A screen adds no entity: the world holds what Setup spawns, nothing else.
func TestNoEntities(t *testing.T) {
	var counts []int
	s := &menu.Screen{
		Lines:     []menu.Line{{Text: "T", Y: 10}},
		Choice:    menu.Choice{Items: []menu.Item{{Text: "A"}, {Text: "B"}}},
		Autopilot: engine.KeyFrom(input.KeyEnter, 30),
		Setup: func(st *stage.Stage) {
			st.SpawnSprite(1, 2, st.Rect(3, 4, color.White))
			st.Sched.AddUpdate(0, "count", func(w donburi.World, ev engine.Event) { counts = append(counts, w.Len()) })
		},
	}
	if err := engine.Run(s, nil); err != nil {
		t.Fatal(err)
	}
	for i, n := range counts {
		if n != 1 {
			t.Fatalf("tick %d: %d entities, want the one Setup spawned", i+1, n)
		}
	}
	if len(counts) != 30 {
		t.Errorf("%d ticks, want 30", len(counts))
	}
}
