package state_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var brickC = donburi.NewTag("brick")

// life is the golden world's own component, so that the file changes only
// with the dump's format (and the cp, ebiten and Transform summaries).
type life struct {
	Lives int
	Hurt  float32
	Label string
	Pos   cp.Vector
}

var lifeC = donburi.NewComponentType[life]()

// goldenWorld is a small world of every sort of entity: a ball (a cp circle
// with a sprite), a static wall, a brick (a tag, a box shape), the score,
// and an entity whose id was used before (version 1).
func goldenWorld() donburi.World {
	w := donburi.NewWorld()
	space := cp.NewSpace()

	ball := w.Create(components.TransformC, components.BodyC, components.ShapeC, gfx.SpriteC)
	b := space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, 6, cp.Vector{})))
	b.SetPosition(cp.Vector{X: 100, Y: 200.5})
	b.SetVelocityVector(cp.Vector{X: 120, Y: -0.1})
	s := space.AddShape(cp.NewCircle(b, 6, cp.Vector{}))
	s.SetElasticity(1)
	en := w.Entry(ball)
	*components.TransformC.Get(en) = components.Transform{Prev: components.Pose{X: 98, Y: 200.5}, Cur: components.Pose{X: 100, Y: 200.5}}
	components.BodyC.Get(en).Body = b
	components.ShapeC.Get(en).Shapes = []*cp.Shape{s}
	sp := gfx.SpriteC.Get(en)
	*sp = gfx.Sprite{Image: frame(5), Atlas: sceneAtlas, OriginX: 8, OriginY: 8, Layer: 1}
	sp.Color.ScaleAlpha(0.5)

	wall := w.Create(components.ShapeC)
	ws := space.AddShape(cp.NewSegment(space.StaticBody, cp.Vector{}, cp.Vector{X: 320}, 2))
	ws.SetFriction(1)
	ws.Filter = cp.NewShapeFilter(0, 1, 6)
	components.ShapeC.Get(w.Entry(wall)).Shapes = []*cp.Shape{ws}

	gone := w.Create(ScoreC)
	w.Remove(gone)
	brick := w.Create(components.TransformC, components.BodyC, components.ShapeC, brickC) // id 3 again
	kb := space.AddBody(cp.NewKinematicBody())
	kb.SetPosition(cp.Vector{X: 40, Y: 20})
	kb.SetAngle(0.25)
	en = w.Entry(brick)
	*components.TransformC.Get(en) = components.NewTransform(components.Pose{X: 40, Y: 20, Angle: 0.25})
	components.BodyC.Get(en).Body = kb
	components.ShapeC.Get(en).Shapes = []*cp.Shape{space.AddShape(cp.NewBox(kb, 32, 8, 0))}

	score := w.Create(ScoreC, lifeC)
	*ScoreC.Get(w.Entry(score)) = Score{Name: "player one", Points: 3, History: []int{1, 3}, ByKind: map[string]int{"brick": 2, "bonus": 1}}
	*lifeC.Get(w.Entry(score)) = life{Lives: 2, Hurt: 0.25, Label: "P1", Pos: cp.Vector{X: 1, Y: -1}}
	return w
}

// The dump of a small world, compared with testdata/world.dump (rewrite it
// with go test -run TestDumpGolden -update ./components/ and read the diff).
func TestDumpGolden(t *testing.T) {
	got := dumpOf(t, goldenWorld())
	path := filepath.Join("testdata", "world.dump")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (make it with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the dump differs from %s:\n%s", path, lineDiff(want, got))
	}
}

// A changed value is a one-line diff, as the diff tool shows it.
func TestDumpChangedValueIsOneLineOfDiff(t *testing.T) {
	diff, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff tool:", err)
	}
	w := goldenWorld()
	before := dumpOf(t, w)
	var ball *cp.Body
	components.BodyC.Each(w, func(e *donburi.Entry) {
		if e.Entity().Id() == 1 {
			ball = components.BodyC.Get(e).Body
		}
	})
	v := ball.Velocity()
	ball.SetVelocity(v.X, v.Y+1e-9) // the smallest of drifts
	after := dumpOf(t, w)

	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.dump"), filepath.Join(dir, "b.dump")
	if err := os.WriteFile(a, before, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, after, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(diff, a, b).Output() // exit status 1: they differ
	want := "8c8\n< e1v0 Body.Body.Velocity.Y = -0.1\n---\n> e1v0 Body.Body.Velocity.Y = -0.099999999\n"
	if string(out) != want {
		t.Fatalf("diff of the two dumps:\n%s\nwant:\n%s", out, want)
	}
}

// An image that was disposed is dumped as such, not a panic.
func TestDumpDisposedImage(t *testing.T) {
	w := donburi.NewWorld()
	img := ebiten.NewImage(4, 4)
	gfx.SpriteC.Get(w.Entry(w.Create(gfx.SpriteC))).Image = img
	before := state.Checksum(w)
	img.Deallocate()
	img.Dispose()
	if state.Checksum(w) == before {
		t.Error("a disposed image hashes as a live one")
	}
	if d := string(dumpOf(t, w)); !strings.Contains(d, `e1v0 Sprite.Image.Disposed = "disposed"`) {
		t.Fatalf("dumped as\n%s", d)
	}
}

// A visit shows the values the dump writes, as data: the component, the
// path below it, the kind and the value itself; the dump's lines are the
// visit's values written with AppendText.
func TestVisitShowsTheDumpAsData(t *testing.T) {
	w := donburi.NewWorld()
	target := w.Create(components.TransformC)
	e := w.Create(components.TransformC, components.AgentC)
	entry := w.Entry(e)
	components.TransformC.Get(entry).Cur = components.Pose{X: 1.5, Y: -2, Angle: 0.25}
	a := components.AgentC.Get(entry)
	a.State, a.Target, a.Hurt = components.AgentChase, target, true

	h := state.NewHasher(nil)
	type seen struct {
		kind  state.Kind
		named string
		text  string
	}
	values := map[string]seen{}
	var lines []string
	if err := h.VisitEntity(w, e, func(v *state.Value) {
		if v.Entity != e {
			t.Errorf("a value of %v in the visit of %v", v.Entity, e)
		}
		values[v.Component+string(v.Path)] = seen{v.Kind, v.Named, string(v.AppendText(nil))}
		line := "e2v0 " + v.Component + string(v.Path) + " = " + string(v.AppendText(nil))
		if v.Kind == state.Empty {
			line = "e2v0 " + v.Component + string(v.Path) + " {}"
		}
		lines = append(lines, line)
	}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]seen{
		"Transform.Cur.X":  {state.Float, "", "1.5"},
		"Transform.Cur.Y":  {state.Float, "", "-2"},
		"Agent.State":      {state.Uint, "Chase", "2 (Chase)"},
		"Agent.Target":     {state.Entity, "", "e1v0"},
		"Agent.Hurt":       {state.Bool, "", "true"},
		"Transform.Prev.X": {state.Float, "", "0"},
	} {
		if got := values[path]; got != want {
			t.Errorf("%s: %+v, want %+v", path, got, want)
		}
	}
	var b bytes.Buffer
	if err := h.DumpEntity(w, e, &b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lines, "\n") + "\n"; got != b.String() {
		t.Errorf("the visit's lines:\n%s\nthe dump:\n%s", got, b.String())
	}
	if err := h.VisitEntity(w, donburi.Null, func(*state.Value) {}); err == nil {
		t.Error("a visit of an entity not in the world: no error")
	}
}

// quiet is a named number whose String says nothing.
type quiet uint8

func (quiet) String() string { return "" }

type quietComp struct{ Q quiet }

var quietC = donburi.NewComponentType[quietComp]()

// A named value's String goes after it in parentheses, even when it says
// nothing: the dump shows that the type has one.
func TestDumpEmptyString(t *testing.T) {
	w := donburi.NewWorld()
	w.Create(quietC)
	var b bytes.Buffer
	if err := state.Dump(w, &b); err != nil {
		t.Fatal(err)
	}
	if want := "e1v0 quietComp.Q = 0 ()\n"; !strings.Contains(b.String(), want) {
		t.Errorf("dump:\n%s\nwant the line %q", b.String(), want)
	}
}
