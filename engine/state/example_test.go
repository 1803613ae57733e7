package state_test

import (
	"fmt"
	"os"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Health is a game's own component: the hasher reads its exported fields
// without a line of code for it.
type Health struct {
	HP, Max int
}

var HealthC = donburi.NewComponentType[Health]()

// A game checks its state every tick by handing a Hasher to the loop:
// a recording then stores the sum after every tick, and a replay stops at
// the first tick whose state differs. When two runs differ, ComponentSums
// says which component types do.
func ExampleHasher() {
	world := donburi.NewWorld()
	hero := world.Create(components.TransformC, HealthC)
	*HealthC.Get(world.Entry(hero)) = Health{HP: 10, Max: 10}

	sched := engine.NewScheduler(world, engine.Group{Name: "sim", Hz: 60})
	sched.AddUpdate(0, "walk", func(w donburi.World, ev engine.Event) {
		tr := components.TransformC.Get(w.Entry(hero))
		tr.Set(components.Pose{X: tr.Cur.X + 60*ev.DT})
	})

	hasher := state.NewHasher(nil) // keep one: Sum allocates nothing
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60, Frames: 31}, nil)
	if err != nil {
		panic(err)
	}
	loop.Recording().SetChecksum(func() uint64 { return hasher.Sum(world) })
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
	}
	fmt.Println("x after 30 ticks:", components.TransformC.Get(world.Entry(hero)).Cur.X)

	// Another run where something hurt the hero: which state differs?
	other := donburi.NewWorld()
	e := other.Create(components.TransformC, HealthC)
	*components.TransformC.Get(other.Entry(e)) = *components.TransformC.Get(world.Entry(hero))
	*HealthC.Get(other.Entry(e)) = Health{HP: 9, Max: 10}

	sum := hasher.Sum(world)
	ours := append([]state.ComponentSum(nil), hasher.ComponentSums()...) // copied: the next Sum reuses it
	theirs := state.NewHasher(nil)
	fmt.Println("same state:", theirs.Sum(other) == sum)
	for i, s := range theirs.ComponentSums() {
		if s.Sum != ours[i].Sum {
			fmt.Println("differs:", s.Name)
		}
	}
	// Output:
	// x after 30 ticks: 30
	// same state: false
	// differs: Health
}

// A dump is the same state as text, one value per line: write it at the
// tick where two runs part, and diff the two files.
func ExampleDump() {
	world := donburi.NewWorld()
	space := cp.NewSpace()
	body := space.AddBody(cp.NewBody(1, 1))
	body.SetPosition(cp.Vector{X: 10, Y: 20})
	body.SetVelocity(0.1, 0)

	e := world.Create(components.BodyC, HealthC)
	components.BodyC.Get(world.Entry(e)).Body = body
	*HealthC.Get(world.Entry(e)) = Health{HP: 3, Max: 5}

	if err := state.Dump(world, os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// # world: 1 entity
	// e1v0 Body.Body.Type = "dynamic"
	// e1v0 Body.Body.Mass = 1
	// e1v0 Body.Body.Moment = 1
	// e1v0 Body.Body.Position.X = 10
	// e1v0 Body.Body.Position.Y = 20
	// e1v0 Body.Body.Velocity.X = 0.1
	// e1v0 Body.Body.Velocity.Y = 0
	// e1v0 Body.Body.Angle = 0
	// e1v0 Body.Body.AngularVelocity = 0
	// e1v0 Body.Body.Force.X = 0
	// e1v0 Body.Body.Force.Y = 0
	// e1v0 Body.Body.Torque = 0
	// e1v0 Body.Body.Sleeping = false
	// e1v0 Health.HP = 3
	// e1v0 Health.Max = 5
}

// Inventory keeps its state unexported, with a cache beside it: it says
// itself what its state is.
type Inventory struct {
	items  []string
	weight float64
	index  map[string]int // a cache of items: not state
}

func (inv *Inventory) SummarizeState(w *state.Writer) {
	w.Int("Items.len", int64(len(inv.items)))
	w.Enter("Items")
	for i, it := range inv.items {
		w.EnterIndex(i)
		w.Text("Name", it)
		w.Leave()
	}
	w.Leave()
	w.Float64("Weight", inv.weight)
}

var InventoryC = donburi.NewComponentType[Inventory]()

// A type whose state is not its exported fields implements Summarizer.
func ExampleSummarizer() {
	world := donburi.NewWorld()
	e := world.Create(InventoryC)
	*InventoryC.Get(world.Entry(e)) = Inventory{items: []string{"rope", "lamp"}, weight: 2.5}

	before := state.Checksum(world)
	InventoryC.Get(world.Entry(e)).index = map[string]int{"rope": 0} // a cache: the same state
	fmt.Println("same after filling the cache:", state.Checksum(world) == before)

	if err := state.Dump(world, os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// same after filling the cache: true
	// # world: 1 entity
	// e1v0 Inventory.Items.len = 2
	// e1v0 Inventory.Items[0].Name = "rope"
	// e1v0 Inventory.Items[1].Name = "lamp"
	// e1v0 Inventory.Weight = 2.5
}

// Goal and Hazard are a game's components: Goal is plain, its donburi name
// ("Goal") its own; Hazard is named "Spikes" with SetName. Both tags are
// named, as two unnamed ones would share the name "Tag".
type (
	Goal   struct{ Points int }
	Hazard struct{ Damage int }
)

var (
	GoalC   = donburi.NewComponentType[Goal]()
	HazardC = donburi.NewComponentType[Hazard]().SetName("Spikes")
	ExitT   = donburi.NewTag("exit")
	LockedT = donburi.NewTag("locked")
)

// The state names each component type by the name it declares, never by
// its Go package path: Goal, Spikes, exit and locked could move to
// another package without changing a checksum.
func ExampleName() {
	world := donburi.NewWorld()
	world.Create(GoalC, ExitT, LockedT)
	world.Create(HazardC)
	h := state.NewHasher(nil)
	h.Sum(world)
	for _, c := range h.ComponentSums() {
		fmt.Println(c.Name, c.Entities)
	}
	if err := h.Dump(world, os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// Goal 1
	// Spikes 1
	// exit 1
	// locked 1
	// # world: 2 entities
	// e1v0 Goal.Points = 0
	// e1v0 exit = "exit"
	// e1v0 locked = "locked"
	// e2v0 Spikes.Damage = 0
}
