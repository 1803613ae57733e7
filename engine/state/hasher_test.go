package state_test

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine/state"
	_ "github.com/fixedstep/fixedstep/systems/physics" // cp's summaries
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// --- the same state at any frame rate, in any process ---

func TestStateEqualAcrossFrameRates(t *testing.T) {
	const tick = 150 // 2.5 s: bodies falling, landing, agents pushed 15 times
	sum60, sums60, dump60 := sceneState(t, 60, tick)
	for _, fps := range []float64{24, 144} {
		sum, sums, dump := sceneState(t, fps, tick)
		if sum != sum60 {
			t.Errorf("%v fps: sum %016x, 60 fps: %016x", fps, sum, sum60)
		}
		if fmt.Sprint(sums) != fmt.Sprint(sums60) {
			t.Errorf("%v fps: component sums\n%v\n60 fps:\n%v", fps, sums, sums60)
		}
		if !bytes.Equal(dump, dump60) {
			t.Errorf("%v fps: the dump differs from 60 fps:\n%s", fps, lineDiff(dump60, dump))
		}
	}
	// The scene did move: the state a tick earlier is another.
	if sum, _, dump := sceneState(t, 60, tick-1); sum == sum60 || bytes.Equal(dump, dump60) {
		t.Fatal("the state after tick 149 hashes or dumps as after tick 150")
	}
	if !bytes.Contains(dump60, []byte("Sprite.Image.Bounds.Min.X")) || !bytes.Contains(dump60, []byte(`Score.ByKind["Chase"]`)) {
		t.Fatalf("the dump misses the sprites or the score:\n%s", dump60)
	}
}

// childEnv, when set, makes TestStateStableAcrossProcesses write the state
// to the file it names instead of testing: the child process.
const childEnv = "FIXEDSTEP_STATE_CHILD"

func TestStateStableAcrossProcesses(t *testing.T) {
	if out := os.Getenv(childEnv); out != "" {
		// Move the heap about, so that addresses differ from the parent's.
		junk := make([][]byte, 0, 1000)
		for i := range 1000 {
			junk = append(junk, make([]byte, 64+i%512))
		}
		sum, sums, dump := sceneState(t, 30, 200)
		text := fmt.Sprintf("%d\n%v\n%s", sum, sums, dump)
		if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = junk
		return
	}
	out := filepath.Join(t.TempDir(), "child.txt")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStateStableAcrossProcesses$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+out, "GOGC=5", "GODEBUG=randautoseed=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, b)
	}
	child, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sum, sums, dump := sceneState(t, 120, 200)
	want := fmt.Sprintf("%d\n%v\n%s", sum, sums, dump)
	if string(child) != want {
		t.Fatalf("the child process (30 fps, GOGC=5) saw another state than this one (120 fps):\n%s",
			lineDiff([]byte(want), child))
	}
}

// --- every kind of field counts; what is not state does not ---

type inner struct {
	A int16
	B float32
}

type hidden struct{ Promoted int }

type label string

func (l label) String() string { return "label " + string(l) }

// kinds has a field of every kind the hasher reads, and some it skips.
type kinds struct {
	B       bool
	I       int
	I8      int8
	I16     int16
	I32     int32
	I64     int64
	U       uint
	U8      uint8
	U16     uint16
	U32     uint32
	U64     uint64
	UP      uintptr
	F32     float32
	F64     float64
	C64     complex64
	C128    complex128
	S       string
	Arr     [3]float64
	Bytes   [4]byte
	Sl      []inner
	Buf     []byte
	M       map[string]int
	P       *inner
	Any     any
	Str     fmt.Stringer
	In      inner
	hidden  // promoted: Promoted counts
	E       donburi.Entity
	V       cp.Vector
	Body    *cp.Body
	Shapes  []*cp.Shape
	Img     *ebiten.Image
	Color   ebiten.ColorScale
	GeoM    ebiten.GeoM
	State   components.AgentState
	Own     summarized
	OwnPtr  *summarized
	Joint   *cp.Constraint
	Wrapped wrapper
	Rng     *rand.Rand
	Cha     *rand.ChaCha8

	// Not state.
	unexported int
	Fn         func()
	Ch         chan int
	UPtr       unsafe.Pointer
	Cache      int `state:"-"`
}

// summarized keeps its state unexported and describes it itself.
type summarized struct {
	hp    float64
	cache int // not state
}

func (s *summarized) SummarizeState(w *state.Writer) {
	w.Float64("HP", s.hp)
}

// wrapper describes itself with Value, by the default rules.
type wrapper struct{ in inner }

func (x *wrapper) SummarizeState(w *state.Writer) { w.Value("Inner", &x.in) }

var kindsC = donburi.NewComponentType[kinds]()

var atlas = ebiten.NewImage(32, 32)

func sub(x, y int) *ebiten.Image {
	return atlas.SubImage(image.Rect(x, y, x+8, y+8)).(*ebiten.Image)
}

// newKinds returns a world with one kinds component, all fields set.
func newKinds() (donburi.World, *kinds) {
	w := donburi.NewWorld()
	e := w.Create(kindsC)
	k := kindsC.Get(w.Entry(e))
	body := cp.NewBody(2, 3)
	body.SetPosition(cp.Vector{X: 1, Y: 2})
	body.SetVelocity(3, 4)
	*k = kinds{
		B: true, I: 1, I8: 2, I16: 3, I32: 4, I64: 5, U: 6, U8: 7, U16: 8, U32: 9, U64: 10, UP: 11,
		F32: 1.5, F64: 2.5, C64: complex(1, 2), C128: complex(3, 4), S: "s",
		Arr: [3]float64{1, 2, 3}, Bytes: [4]byte{1, 2, 3, 4}, Sl: []inner{{1, 2}, {3, 4}}, Buf: []byte("buf"),
		M: map[string]int{"a": 1, "b": 2, "c": 3}, P: &inner{5, 6}, Any: 7, Str: label("x"), In: inner{8, 9},
		hidden: hidden{10}, E: e, V: cp.Vector{X: 11, Y: 12}, Body: body,
		Shapes: []*cp.Shape{cp.NewCircle(body, 5, cp.Vector{X: 1}), cp.NewSegment(body, cp.Vector{}, cp.Vector{X: 10}, 1), cp.NewBox(body, 4, 6, 0)},
		Img:    sub(8, 8), State: components.AgentChase, Own: summarized{hp: 3}, OwnPtr: &summarized{hp: 4},
		Joint:   cp.NewPinJoint(body, cp.NewBody(1, 1), cp.Vector{}, cp.Vector{}),
		Wrapped: wrapper{inner{1, 2}},
		Rng:     rand.New(rand.NewPCG(1, 2)), Cha: rand.NewChaCha8([32]byte{1}),
		unexported: 1, Fn: func() {}, Ch: make(chan int), Cache: 1,
	}
	k.Color.Scale(1, 0.5, 0.5, 1)
	k.GeoM.Translate(10, 20)
	return w, k
}

func dumpOf(t testing.TB, w donburi.World) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := state.Dump(w, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestStateEveryFieldCounts(t *testing.T) {
	base, _ := newKinds()
	baseSum, baseDump := state.Checksum(base), dumpOf(t, base)
	cases := []struct {
		name string
		set  func(k *kinds)
		line string // the path of the line that changes in the dump
	}{
		{"bool", func(k *kinds) { k.B = false }, "kinds.B "},
		{"int", func(k *kinds) { k.I = -1 }, "kinds.I "},
		{"int8", func(k *kinds) { k.I8 = -2 }, "kinds.I8 "},
		{"int16", func(k *kinds) { k.I16 = -3 }, "kinds.I16 "},
		{"int32", func(k *kinds) { k.I32 = -4 }, "kinds.I32 "},
		{"int64", func(k *kinds) { k.I64 = -5 }, "kinds.I64 "},
		{"uint", func(k *kinds) { k.U = 60 }, "kinds.U "},
		{"uint8", func(k *kinds) { k.U8 = 70 }, "kinds.U8 "},
		{"uint16", func(k *kinds) { k.U16 = 80 }, "kinds.U16 "},
		{"uint32", func(k *kinds) { k.U32 = 90 }, "kinds.U32 "},
		{"uint64", func(k *kinds) { k.U64 = 100 }, "kinds.U64 "},
		{"uintptr", func(k *kinds) { k.UP = 110 }, "kinds.UP "},
		{"float32", func(k *kinds) { k.F32 = 1.25 }, "kinds.F32 "},
		{"float64", func(k *kinds) { k.F64 = math.Nextafter(2.5, 3) }, "kinds.F64 "},
		{"complex64", func(k *kinds) { k.C64 = complex(1, 3) }, "kinds.C64 "},
		{"complex128", func(k *kinds) { k.C128 = complex(5, 4) }, "kinds.C128 "},
		{"string", func(k *kinds) { k.S = "t" }, "kinds.S "},
		{"array", func(k *kinds) { k.Arr[2] = 4 }, "kinds.Arr[2] "},
		{"byte array", func(k *kinds) { k.Bytes[3] = 5 }, "kinds.Bytes "},
		{"slice element", func(k *kinds) { k.Sl[1].B = 5 }, "kinds.Sl[1].B "},
		{"byte slice", func(k *kinds) { k.Buf[0] = 'c' }, "kinds.Buf "},
		{"map value", func(k *kinds) { k.M["b"] = 20 }, `kinds.M["b"] `},
		{"pointer target", func(k *kinds) { k.P.A = 50 }, "kinds.P.A "},
		{"interface value", func(k *kinds) { k.Any = 8 }, "kinds.Any.(int) "},
		{"interface with methods", func(k *kinds) { k.Str = label("y") }, "kinds.Str.(label) "},
		{"nested struct", func(k *kinds) { k.In.B = 90 }, "kinds.In.B "},
		{"promoted field", func(k *kinds) { k.Promoted = 100 }, "kinds.hidden.Promoted "},
		{"entity", func(k *kinds) { k.E = donburi.Null }, "kinds.E "},
		{"cp vector", func(k *kinds) { k.V.Y = 13 }, "kinds.V.Y "},
		{"body velocity", func(k *kinds) { k.Body.SetVelocity(3, 5) }, "kinds.Body.Velocity.Y "},
		{"body angular velocity", func(k *kinds) { k.Body.SetAngularVelocity(1) }, "kinds.Body.AngularVelocity "},
		{"body force", func(k *kinds) { k.Body.SetForce(cp.Vector{X: 1}) }, "kinds.Body.Force.X "},
		{"shape friction", func(k *kinds) { k.Shapes[0].SetFriction(0.5) }, "kinds.Shapes[0].Friction "},
		{"shape sensor", func(k *kinds) { k.Shapes[1].SetSensor(true) }, "kinds.Shapes[1].Sensor "},
		{"shape filter", func(k *kinds) { k.Shapes[2].Filter.Group = 3 }, "kinds.Shapes[2].Filter.Group "},
		{"circle radius", func(k *kinds) { k.Shapes[0].Class.(*cp.Circle).SetRadius(6) }, "kinds.Shapes[0].Radius "},
		{"segment end", func(k *kinds) { k.Shapes[1].Class.(*cp.Segment).SetEndpoints(cp.Vector{}, cp.Vector{X: 11}) }, "kinds.Shapes[1].B.X "},
		{"image switch", func(k *kinds) { k.Img = sub(16, 8) }, "kinds.Img.Bounds.M"}, // two lines: Min.X, Max.X
		{"color scale", func(k *kinds) { k.Color.SetA(0.5) }, "kinds.Color.A "},
		{"geom", func(k *kinds) { k.GeoM.Translate(1, 0) }, "kinds.GeoM.Tx "},
		{"named number", func(k *kinds) { k.State = components.AgentFlee }, "kinds.State "},
		{"summarizer", func(k *kinds) { k.Own.hp = 5 }, "kinds.Own.HP "},
		{"summarizer behind a pointer", func(k *kinds) { k.OwnPtr.hp = 5 }, "kinds.OwnPtr.HP "},
		{"constraint", func(k *kinds) { k.Joint.SetMaxForce(10) }, "kinds.Joint.MaxForce "},
		{"random source drawn", func(k *kinds) { k.Rng.Uint64() }, "kinds.Rng.(*rand.PCG).State "},
		{"chacha8 drawn", func(k *kinds) { k.Cha.Uint64() }, "kinds.Cha.State "},
		{"summarizer's Value", func(k *kinds) { k.Wrapped.in.B = 3 }, "kinds.Wrapped.Inner.(*inner).B "},
	}
	for _, c := range cases {
		w, k := newKinds()
		c.set(k)
		if state.Checksum(w) == baseSum {
			t.Errorf("%s: changed, same sum", c.name)
		}
		changed := changedLines(baseDump, dumpOf(t, w))
		n := 1
		if c.name == "image switch" {
			n = 2
		}
		ok := len(changed) == 2*n
		for _, l := range changed {
			ok = ok && strings.HasPrefix(l, "e1v0 "+c.line)
		}
		if !ok {
			t.Errorf("%s: the dump changed in\n%s\nwant %d line(s), %q", c.name, strings.Join(changed, "\n"), n, c.line)
		}
	}
	// What is not state changes neither the sum nor the dump.
	for name, set := range map[string]func(k *kinds){
		"unexported field":          func(k *kinds) { k.unexported = 2 },
		"func":                      func(k *kinds) { k.Fn = nil },
		"chan":                      func(k *kinds) { k.Ch = nil },
		"unsafe pointer":            func(k *kinds) { k.UPtr = unsafe.Pointer(k) },
		"field tagged state:\"-\"":  func(k *kinds) { k.Cache = 2 },
		"summarizer's unwritten":    func(k *kinds) { k.Own.cache = 2 },
		"pointer to an equal value": func(k *kinds) { k.P = &inner{5, 6} },
		"body's user data":          func(k *kinds) { k.Body.UserData = 1 },
		"map insertion order": func(k *kinds) {
			k.M = map[string]int{}
			for _, key := range []string{"c", "a", "b"} {
				k.M[key] = map[string]int{"a": 1, "b": 2, "c": 3}[key]
			}
		},
	} {
		w, k := newKinds()
		set(k)
		if state.Checksum(w) != baseSum || !bytes.Equal(dumpOf(t, w), baseDump) {
			t.Errorf("%s: not state, but the sum or dump changed:\n%s", name, lineDiff(baseDump, dumpOf(t, w)))
		}
	}
}

func TestStateFloatsByTheirBits(t *testing.T) {
	sumOf := func(f float64) (uint64, string) {
		w, k := newKinds()
		k.F64 = f
		var line string
		for l := range strings.Lines(string(dumpOf(t, w))) {
			if strings.HasPrefix(l, "e1v0 kinds.F64 ") {
				line = strings.TrimSpace(l)
			}
		}
		return state.Checksum(w), line
	}
	zero, zeroLine := sumOf(0)
	negZero, negZeroLine := sumOf(math.Copysign(0, -1))
	if zero == negZero || zeroLine != "e1v0 kinds.F64 = 0" || negZeroLine != "e1v0 kinds.F64 = -0" {
		t.Errorf("+0 and -0: sums %x %x, lines %q %q", zero, negZero, zeroLine, negZeroLine)
	}
	nan1, nan1Line := sumOf(math.Float64frombits(0x7ff8000000000001))
	nan2, nan2Line := sumOf(math.Float64frombits(0x7ff8000000000002))
	if nan1 == nan2 || nan1Line != "e1v0 kinds.F64 = NaN(0x7ff8000000000001)" || nan2Line == nan1Line {
		t.Errorf("NaN payloads: sums %x %x, lines %q %q", nan1, nan2, nan1Line, nan2Line)
	}
	// Printed exactly: every dumped float parses back to its bits.
	for _, f := range []float64{0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, -1e-300, math.Inf(-1)} {
		_, line := sumOf(f)
		back, err := strconv.ParseFloat(strings.TrimPrefix(line, "e1v0 kinds.F64 = "), 64)
		if err != nil || math.Float64bits(back) != math.Float64bits(f) {
			t.Errorf("%v dumped as %q, parses back to %v (%v)", f, line, back, err)
		}
	}
}

type node struct {
	Val  int
	Next *node
	Any  any
}

var nodeC = donburi.NewComponentType[node]()

func TestStatePointers(t *testing.T) {
	build := func(set func(n *node)) (uint64, string) {
		w := donburi.NewWorld()
		n := nodeC.Get(w.Entry(w.Create(nodeC)))
		n.Val = 1
		set(n)
		return state.Checksum(w), string(dumpOf(t, w))
	}
	nilSum, nilDump := build(func(n *node) {})
	if !strings.Contains(nilDump, "e1v0 node.Next = nil\n") {
		t.Errorf("nil pointer dumped as\n%s", nilDump)
	}
	toZero, _ := build(func(n *node) { n.Next = &node{} })
	if toZero == nilSum {
		t.Error("a nil pointer and a pointer to a zero value hash alike")
	}
	// A cycle back to the component, and one two levels down, end.
	cycle, cycleDump := build(func(n *node) { n.Next = &node{Val: 2}; n.Next.Next = n })
	if !strings.Contains(cycleDump, "e1v0 node.Next.Next = cycle(^2)\n") {
		t.Errorf("cycle dumped as\n%s", cycleDump)
	}
	other, _ := build(func(n *node) { n.Next = &node{Val: 2}; n.Next.Next = n.Next })
	if other == cycle {
		t.Error("cycles of different lengths hash alike")
	}
	// Through an interface too.
	_, ifaceDump := build(func(n *node) { n.Any = n })
	if !strings.Contains(ifaceDump, "e1v0 node.Any.(*node) = cycle(^1)\n") {
		t.Errorf("cycle through an interface dumped as\n%s", ifaceDump)
	}
	// The same values behind other addresses: the same sum.
	a, _ := build(func(n *node) { n.Next = &node{Val: 3, Any: &node{Val: 4}} })
	b, _ := build(func(n *node) { n.Next = &node{Val: 3, Any: &node{Val: 4}} })
	if a != b {
		t.Error("equal values behind different pointers hash differently")
	}
	// An interface's dynamic type counts.
	i1, _ := build(func(n *node) { n.Any = 1 })
	i2, _ := build(func(n *node) { n.Any = int64(1) })
	if i1 == i2 {
		t.Error("int(1) and int64(1) in an interface hash alike")
	}
}

// Entity order: the same entities in other archetypes, found in another
// order, hash and dump alike; an entity's version counts.
func TestStateEntityOrder(t *testing.T) {
	w1 := donburi.NewWorld()
	e1 := w1.Create(components.TransformC)
	e2 := w1.Create(components.AgentC)
	components.TransformC.Get(w1.Entry(e1)).Cur.X = 1
	components.AgentC.Get(w1.Entry(e2)).Health = 2

	w2 := donburi.NewWorld() // archetype [Agent] first, holding entity 2
	f1 := w2.Create(components.AgentC)
	w2.Entry(f1).AddComponent(components.TransformC)
	w2.Entry(f1).RemoveComponent(components.AgentC)
	f2 := w2.Create(components.AgentC)
	components.TransformC.Get(w2.Entry(f1)).Cur.X = 1
	components.AgentC.Get(w2.Entry(f2)).Health = 2
	if e1 != f1 || e2 != f2 {
		t.Fatalf("entities %v %v and %v %v", e1, e2, f1, f2)
	}
	if state.Checksum(w1) != state.Checksum(w2) || !bytes.Equal(dumpOf(t, w1), dumpOf(t, w2)) {
		t.Fatalf("the same entities in other archetypes:\n%s", lineDiff(dumpOf(t, w1), dumpOf(t, w2)))
	}

	// Entity 2 removed and made again: version 1, another state.
	w2.Remove(f2)
	f2 = w2.Create(components.AgentC)
	components.AgentC.Get(w2.Entry(f2)).Health = 2
	if state.Checksum(w1) == state.Checksum(w2) {
		t.Fatal("entity 2 version 0 and version 1 hash alike")
	}
	if d := string(dumpOf(t, w2)); !strings.Contains(d, "e2v1 Agent.Health = 2\n") {
		t.Fatalf("entity 2 version 1 dumped as\n%s", d)
	}
}

// Sparse ids (most entities removed) take the sorting path: the same
// order.
func TestStateSparseEntities(t *testing.T) {
	w := donburi.NewWorld()
	var es []donburi.Entity
	for i := range 3000 {
		e := w.Create(components.TransformC)
		components.TransformC.Get(w.Entry(e)).Cur.X = float64(i)
		es = append(es, e)
	}
	for i, e := range es {
		if i%1000 != 999 {
			w.Remove(e)
		}
	}
	d := string(dumpOf(t, w))
	i1, i2, i3 := strings.Index(d, "e1000v0 "), strings.Index(d, "e2000v0 "), strings.Index(d, "e3000v0 ")
	if w.Len() != 3 || i1 < 0 || !(i1 < i2 && i2 < i3) {
		t.Fatalf("%d entities, dumped as\n%s", w.Len(), d)
	}
}

func TestStateIgnoredTypes(t *testing.T) {
	build := func(x float64) donburi.World {
		w := donburi.NewWorld()
		e := w.Create(components.TransformC, gfx.SpriteC)
		gfx.SpriteC.Get(w.Entry(e)).OriginX = x
		return w
	}
	h := state.NewHasher(&state.Options{Ignore: []donburi.IComponentType{gfx.SpriteC}})
	a, b := build(1), build(2)
	if h.Sum(a) != h.Sum(b) {
		t.Error("an ignored component changed the sum")
	}
	if state.Checksum(a) == state.Checksum(b) {
		t.Error("without Ignore, the sprite did not count")
	}
	for _, s := range h.ComponentSums() {
		if s.Name == "Sprite" {
			t.Errorf("ignored type in ComponentSums: %+v", h.ComponentSums())
		}
	}
	var d bytes.Buffer
	if err := h.Dump(a, &d); err != nil || strings.Contains(d.String(), "Sprite") {
		t.Errorf("ignored type in the dump (%v):\n%s", err, d.String())
	}
	// Ignore on a hasher in use.
	h2 := state.NewHasher(nil)
	h2.Ignore(gfx.SpriteC, nil)
	if h2.Sum(a) != h.Sum(a) {
		t.Error("Ignore after NewHasher differs from Options.Ignore")
	}
}

func TestStateComponentSumsNameWhatDiffers(t *testing.T) {
	w1, _ := newKinds()
	w2, k := newKinds()
	e := w1.Create(components.TransformC, components.AgentC)
	w2.Create(components.TransformC, components.AgentC)
	components.AgentC.Get(w1.Entry(e)).Health = 1
	k.F64 = 9 // w2's kinds differs too
	h1, h2 := state.NewHasher(nil), state.NewHasher(nil)
	if h1.Sum(w1) == h2.Sum(w2) {
		t.Fatal("different worlds, same sum")
	}
	s1, s2 := h1.ComponentSums(), h2.ComponentSums()
	var names, differ []string
	for i := range s1 {
		names = append(names, fmt.Sprintf("%s:%d", s1[i].Name, s1[i].Entities))
		if s1[i].Name != s2[i].Name || s1[i].Type != s2[i].Type {
			t.Fatalf("component sums in another order: %v, %v", s1, s2)
		}
		if s1[i].Sum != s2[i].Sum {
			differ = append(differ, s1[i].Name)
		}
	}
	if fmt.Sprint(names) != "[Agent:1 Transform:1 kinds:1]" || fmt.Sprint(differ) != "[Agent kinds]" {
		t.Fatalf("component sums %v, differing %v", names, differ)
	}
}

func TestStateSumAllocatesNothing(t *testing.T) {
	s := newTestScene(1)
	kw, _ := newKinds() // maps, interfaces, summaries, every builtin
	for _, w := range []donburi.World{s.world, kw} {
		h := state.NewHasher(nil)
		h.Sum(w)
		if n := testing.AllocsPerRun(100, func() { h.Sum(w); h.ComponentSums() }); n != 0 {
			t.Errorf("Sum allocates %v times per call", n)
		}
	}
}

func TestStateDumpEntity(t *testing.T) {
	w, _ := newKinds()
	h := state.NewHasher(nil)
	var b bytes.Buffer
	if err := h.DumpEntity(w, w.Entry(w.Create(components.TransformC)).Entity(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "e2v0 Transform.Prev.X = 0\n") || strings.Contains(b.String(), "kinds") {
		t.Fatalf("DumpEntity wrote\n%s", b.String())
	}
	if err := h.DumpEntity(w, donburi.Null, &b); err == nil || !strings.Contains(err.Error(), "null") {
		t.Fatalf("DumpEntity of Null: %v", err)
	}
}

// A dump whose writer fails returns the error.
func TestStateDumpWriteError(t *testing.T) {
	w, _ := newKinds()
	if err := state.Dump(w, failWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Dump to a failing writer: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

// changedLines returns the lines of a and b that are not in the other, the
// removed ones first.
func changedLines(a, b []byte) []string {
	in := func(s []byte) map[string]int {
		m := map[string]int{}
		for l := range strings.Lines(string(s)) {
			m[l]++
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range strings.Lines(string(a)) {
		if mb[l] == 0 {
			out = append(out, strings.TrimSuffix(l, "\n"))
		}
	}
	for l := range strings.Lines(string(b)) {
		if ma[l] == 0 {
			out = append(out, strings.TrimSuffix(l, "\n"))
		}
	}
	return out
}

// lineDiff shows the changed lines of two dumps, for failure messages.
func lineDiff(a, b []byte) string {
	c := changedLines(a, b)
	if len(c) > 40 {
		c = append(c[:40], "...")
	}
	return strings.Join(c, "\n")
}

// sloppy leaves a group open and closes groups it did not open.
type sloppy struct{}

func (sloppy) SummarizeState(w *state.Writer) {
	w.Leave()
	w.Leave()
	w.Enter("Open")
	w.Int("X", 1)
}

type withSloppy struct {
	A sloppy
	B int
}

var withSloppyC = donburi.NewComponentType[withSloppy]()

// A summary's unmatched Enter and Leave do not spill into the values after
// it.
func TestStateSummaryGroupsStayInside(t *testing.T) {
	w := donburi.NewWorld()
	withSloppyC.Get(w.Entry(w.Create(withSloppyC))).B = 2
	want := "# world: 1 entity\ne1v0 withSloppy.A.Open.X = 1\ne1v0 withSloppy.B = 2\n"
	if d := string(dumpOf(t, w)); d != want {
		t.Fatalf("dumped as\n%s\nwant\n%s", d, want)
	}
}

// donburi's event buses are hashed as their queue of pending events, never
// as the addresses their component holds.
func TestStateEventBuses(t *testing.T) {
	build := func(pending ...Pushed) donburi.World {
		w := donburi.NewWorld()
		w.Create(components.TransformC)
		PushedEvent.Subscribe(w, func(donburi.World, Pushed) {}) // a new func slice, another address
		for _, p := range pending {
			PushedEvent.Publish(w, p)
		}
		return w
	}
	a, b := build(Pushed{Speed: 1}, Pushed{Speed: 2}), build(Pushed{Speed: 1}, Pushed{Speed: 2})
	if state.Checksum(a) != state.Checksum(b) || !bytes.Equal(dumpOf(t, a), dumpOf(t, b)) {
		t.Fatalf("equal buses differ:\n%s", lineDiff(dumpOf(t, a), dumpOf(t, b)))
	}
	d := string(dumpOf(t, a))
	for _, want := range []string{"e2v0 Pushed.Queue.len = 2\n", "e2v0 Pushed.Queue[1].Speed = 2\n", "e2v0 eventTypeData {}\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("the bus is not dumped as its queue, no %q in\n%s", want, d)
		}
	}
	if state.Checksum(build(Pushed{Speed: 1}, Pushed{Speed: 3})) == state.Checksum(a) {
		t.Error("another pending event, the same sum")
	}
	PushedEvent.ProcessEvents(a)
	if state.Checksum(a) != state.Checksum(build()) {
		t.Error("a processed bus differs from one that never had events")
	}
}

// A pointer to a struct whose one hashed field is a library type's summary
// and not its first field (a func before it is left out) hashes that
// field, where it lies.
type afterFunc struct {
	onEnd func()
	Geo   ebiten.GeoM
}

type behindPointer struct{ To *afterFunc }

var behindPointerC = donburi.NewComponentType[behindPointer]()

func TestStatePointerToASummaryAfterASkippedField(t *testing.T) {
	sum := func(ty float64) (uint64, string) {
		w := donburi.NewWorld()
		c := behindPointerC.Get(w.Entry(w.Create(behindPointerC)))
		c.To = &afterFunc{onEnd: func() {}}
		c.To.Geo.Translate(3, ty)
		return state.Checksum(w), string(dumpOf(t, w))
	}
	a, dumpA := sum(5)
	b, dumpB := sum(6)
	if dumpA == dumpB {
		t.Fatalf("the dumps do not show the field:\n%s", dumpA)
	}
	if a == b {
		t.Errorf("GeoMs that differ in Ty hash alike behind a pointer:\n%s", dumpA)
	}
}
