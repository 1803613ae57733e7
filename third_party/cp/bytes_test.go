package cp

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// coveredTick is a tick at which newBytesWorld's space holds an object of
// every kind the bytes write: TestSpaceBytesCoverage checks it, and
// TestSpaceBytesExact reads the space there.
const coveredTick = 355

// newBytesWorld is newWorld with a joint of every kind of cp's (on bodies
// the world never removes: a removed body takes its joints with it), a dynamic
// segment and polygon, and a wildcard handler (the default handler is then
// cp's CollisionHandlerDefault).
func newBytesWorld(hash bool) *world {
	w := newWorld(hash)
	s := w.space
	b := w.bodies
	s.AddConstraint(NewSlideJoint(b[6], b[7], Vector{}, Vector{}, 10, 40))
	s.AddConstraint(NewGearJoint(b[8], b[9], 0, 2))
	s.AddConstraint(NewGrooveJoint(b[50], b[51], Vector{X: -20}, Vector{X: 20}, Vector{}))
	s.AddConstraint(NewDampedRotarySpring(b[52], b[53], 0, 100, 1))
	s.AddConstraint(NewRotaryLimitJoint(b[54], b[55], -1, 1))
	s.AddConstraint(NewRatchetJoint(b[56], b[57], 0, 0.5))
	s.AddConstraint(NewPinJoint(s.StaticBody, b[58], Vector{X: 200, Y: 10}, Vector{}))
	stick := s.AddBody(NewBody(2, MomentForSegment(2, Vector{X: -15}, Vector{X: 15}, 2)))
	stick.SetPosition(Vector{X: 100, Y: 100})
	s.AddShape(NewSegment(stick, Vector{X: -15}, Vector{X: 15}, 2)).SetFriction(0.5)
	tri := []Vector{{X: -10, Y: 8}, {X: 10, Y: 8}, {X: 0, Y: -10}}
	poly := s.AddBody(NewBody(1, MomentForPoly(1, 3, tri, Vector{}, 1)))
	poly.SetPosition(Vector{X: 300, Y: 100})
	s.AddShape(NewPolyShape(poly, 3, tri, NewTransformIdentity(), 1)).SetFriction(0.5)
	wild := s.NewWildcardCollisionHandler(1)
	wild.PostSolveFunc = func(arb *Arbiter, space *Space, data any) { w.touches += 1000 }
	return w
}

// readWorld writes w's space, and reads it into a world set up by the same
// code; the script's bodies are found again by their references.
func readWorld(t testing.TB, w *world, hash bool) (*world, []byte) {
	t.Helper()
	var wr SpaceWriter
	b, err := wr.Append(nil, w.space)
	if err != nil {
		t.Fatal(err)
	}
	r := newBytesWorld(hash)
	var rd SpaceReader
	rest, err := rd.Read(b, r.space)
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left after Read", len(rest))
	}
	*r.pcg, r.touches = *w.pcg, w.touches
	r.bodies = r.bodies[:0]
	for _, x := range w.bodies {
		ref, ok := wr.BodyRef(x)
		if !ok {
			r.bodies = append(r.bodies, NewBody(1, 1)) // removed: not the space's
			continue
		}
		y, ok := rd.Body(ref)
		if !ok {
			t.Fatalf("no body of reference %d", ref)
		}
		r.bodies = append(r.bodies, y)
	}
	return r, b
}

// bits is every body's pose, velocities and forces, and every arbiter's
// impulses, as float64 bits, in the space's own order.
func bits(s *Space) []uint64 {
	var out []uint64
	put := func(fs ...float64) {
		for _, f := range fs {
			out = append(out, math.Float64bits(f))
		}
	}
	s.EachBody(func(b *Body) {
		put(b.p.X, b.p.Y, b.v.X, b.v.Y, b.a, b.w, b.f.X, b.f.Y, b.t, b.sleepingIdleTime)
	})
	for _, a := range s.arbiters {
		for _, c := range a.contacts[:a.count] {
			put(c.jnAcc, c.jtAcc, c.jBias)
		}
	}
	return out
}

func appendSpace(t testing.TB, s *Space) []byte {
	t.Helper()
	var wr SpaceWriter
	b, err := wr.Append(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A space written and read into a fresh one (set up by the same code) steps
// as the original, bit for bit; written again, it gives the same bytes.
func TestSpaceBytesExact(t *testing.T) {
	for _, hash := range []bool{false, true} {
		for _, at := range []int{1, 100, coveredTick} {
			t.Run(fmt.Sprintf("hash=%v/tick=%d", hash, at), func(t *testing.T) {
				testSpaceBytesExact(t, hash, at)
			})
		}
	}
}

func testSpaceBytesExact(t *testing.T, hash bool, at int) {
	w := newBytesWorld(hash)
	for tick := 1; tick <= at; tick++ {
		w.step(tick)
	}
	r, b := readWorld(t, w, hash)
	if again := appendSpace(t, r.space); !bytes.Equal(again, b) {
		t.Fatal("the read space's bytes differ from the written ones")
	}
	if again := appendSpace(t, w.space); !bytes.Equal(again, b) {
		t.Fatal("a space written twice gives other bytes")
	}
	sleeping := 0
	for i := 1; i <= 400; i++ {
		w.step(at + i)
		r.step(at + i)
		wb, rb := bits(w.space), bits(r.space)
		if !slices.Equal(wb, rb) {
			t.Fatalf("tick %d: the read space's state differs", at+i)
		}
		if w.state() != r.state() {
			t.Fatalf("tick %d: the read space's state hash differs", at+i)
		}
		w.space.EachBody(func(b *Body) {
			if b.IsSleeping() {
				sleeping++
			}
		})
		if i%50 == 0 && !bytes.Equal(appendSpace(t, w.space), appendSpace(t, r.space)) {
			t.Fatalf("tick %d: the two spaces' bytes differ", at+i)
		}
	}
	if at == coveredTick && sleeping == 0 {
		t.Fatal("no body slept: the test does not cover sleeping")
	}
}

// The scene at coveredTick has what the format has ways of writing: arbiters
// with contacts in the buffers and of their own (sleeping ones), cached
// arbiters, constraints of every kind, free tree nodes and pairs.
func TestSpaceBytesCoverage(t *testing.T) {
	w := newBytesWorld(false)
	var wr SpaceWriter
	var own, buffered int
	kinds := map[string]bool{}
	tree := w.space.dynamicShapes.class.(*BBTree)
	covered := func() bool {
		return own > 0 && buffered > 0 && len(wr.cached) > 0 && len(kinds) == 10 && tree.pooledNodes != nil && tree.pooledPairs != nil && len(wr.pairs) > 0
	}
	// At coveredTick (TestSpaceBytesExact reads the space there) it holds
	// every kind.
	for tick := 1; tick <= coveredTick; tick++ {
		w.step(tick)
	}
	if _, err := wr.Append(nil, w.space); err != nil {
		t.Fatal(err)
	}
	for _, a := range wr.arbiters {
		if buf, _ := wr.bufferOf(a.contacts); buf != nil {
			buffered++
		} else if len(a.contacts) > 0 {
			own++
		}
	}
	for _, c := range wr.constraints {
		kinds[fmt.Sprintf("%T", c.Class)] = true
	}
	tree = w.space.dynamicShapes.class.(*BBTree)
	if !covered() {
		t.Fatalf("contacts own %d, in buffers %d; %d cached arbiters; constraint kinds %v; free nodes %v, pairs %v; %d pairs",
			own, buffered, len(wr.cached), kinds, tree.pooledNodes != nil, tree.pooledPairs != nil, len(wr.pairs))
	}
}

// A space read into a space, then written and read again (a chain of
// processes), still steps as the original.
func TestSpaceBytesTwice(t *testing.T) {
	for _, hash := range []bool{false, true} {
		w := newBytesWorld(hash)
		for tick := 1; tick <= 200; tick++ {
			w.step(tick)
		}
		r1, _ := readWorld(t, w, hash)
		for i := 201; i <= 250; i++ {
			w.step(i)
			r1.step(i)
		}
		r2, _ := readWorld(t, r1, hash)
		for i := 251; i <= 350; i++ {
			w.step(i)
			r2.step(i)
			if !slices.Equal(bits(w.space), bits(r2.space)) {
				t.Fatalf("hash=%v: tick %d differs", hash, i)
			}
		}
	}
}

// What the bytes cannot hold is refused by name.
func TestSpaceBytesRefusals(t *testing.T) {
	check := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one naming %q", name, err, want)
		}
	}
	var wr SpaceWriter

	w := newBytesWorld(false)
	w.bodies[3].SetVelocityUpdateFunc(func(*Body, Vector, float64, float64) {})
	_, err := wr.Append(nil, w.space)
	check("a game's velocity func", err, w.bodies[3].String()+" (UserData <nil>) has a velocity func of its own (SetVelocityUpdateFunc)")

	w = newBytesWorld(false)
	w.bodies[3].SetPositionUpdateFunc(func(*Body, float64) {})
	_, err = wr.Append(nil, w.space)
	check("a game's position func", err, w.bodies[3].String()+" (UserData <nil>) has a position func of its own (SetPositionUpdateFunc)")

	w = newBytesWorld(false)
	w.bodies[5].UserData = 7
	_, err = wr.Append(nil, w.space)
	check("UserData without a hook", err, w.bodies[5].String()+"'s UserData is a int")

	w = newBytesWorld(false)
	w.space.AddConstraint(NewDampedSpring(w.bodies[20], w.bodies[21], Vector{}, Vector{}, 10, 1, 1)).Class.(*DampedSpring).SpringForceFunc = func(*DampedSpring, float64) float64 { return 0 }
	_, err = wr.Append(nil, w.space)
	check("a game's spring force", err, "SpringForceFunc")

	// A handler the reading space lacks.
	w = newBytesWorld(false)
	for tick := 1; tick <= 120; tick++ {
		w.step(tick)
	}
	b, err := wr.Append(nil, w.space)
	if err != nil {
		t.Fatal(err)
	}
	bare := NewSpace()
	_, err = new(SpaceReader).Read(b, bare)
	check("an unknown handler", err, "collision handler (1, 2)")

	// A version of the format not known.
	b2 := bytes.Clone(b)
	b2[4] = 99
	_, err = new(SpaceReader).Read(b2, newBytesWorld(false).space)
	check("another version", err, "version 99")
}

// UserData goes through the hooks: an entity number on bodies and shapes.
func TestSpaceBytesUserData(t *testing.T) {
	type entity uint64
	w := newBytesWorld(false)
	for i, b := range w.bodies {
		b.UserData = entity(i + 1)
		for _, s := range b.shapeList {
			s.UserData = entity(1000 + i)
		}
	}
	for tick := 1; tick <= 30; tick++ {
		w.step(tick)
	}
	wr := SpaceWriter{UserData: func(b []byte, v any) ([]byte, error) {
		switch v := v.(type) {
		case nil:
			return append(b, 0), nil
		case entity:
			return binary.LittleEndian.AppendUint64(append(b, 1), uint64(v)), nil
		}
		return b, fmt.Errorf("a %T", v)
	}}
	bs, err := wr.Append(nil, w.space)
	if err != nil {
		t.Fatal(err)
	}
	rd := SpaceReader{UserData: func(b []byte) (any, []byte, error) {
		if len(b) < 1 {
			return nil, b, errors.New("short")
		}
		if b[0] == 0 {
			return nil, b[1:], nil
		}
		if len(b) < 9 {
			return nil, b, errors.New("short")
		}
		return entity(binary.LittleEndian.Uint64(b[1:])), b[9:], nil
	}}
	r := newBytesWorld(false)
	if _, err := rd.Read(bs, r.space); err != nil {
		t.Fatal(err)
	}
	for _, b := range w.bodies {
		ref, ok := wr.BodyRef(b)
		if !ok {
			continue
		}
		rb, _ := rd.Body(ref)
		if rb.UserData != b.UserData {
			t.Fatalf("%v: UserData %v, want %v", b, rb.UserData, b.UserData)
		}
		for i, s := range b.shapeList {
			sref, _ := wr.ShapeRef(s)
			rs, _ := rd.Shape(sref)
			if rs != rb.shapeList[i] || rs.UserData != s.UserData {
				t.Fatalf("%v's shape %d differs", b, i)
			}
		}
	}
	if _, ok := rd.Body(0); ok {
		t.Fatal("a body of reference 0")
	}
}

// newSmallSpace is a small scene for the hostile tests (a few thousand
// bytes): boxes and a ball on a floor, a pendulum, sleeping allowed.
func newSmallSpace(hash bool) *Space {
	s := NewSpace()
	if hash {
		s.UseSpatialHash(16, 101)
	}
	s.SetGravity(Vector{Y: 300})
	s.SleepTimeThreshold = 0.3
	s.IdleSpeedThreshold = 5
	s.AddShape(NewSegment(s.StaticBody, Vector{X: 0, Y: 200}, Vector{X: 200, Y: 200}, 2)).SetFriction(0.8)
	for i := range 3 {
		b := s.AddBody(NewBody(1, MomentForBox(1, 12, 10)))
		b.SetPosition(Vector{X: 50 + 13*float64(i), Y: 190})
		s.AddShape(NewBox(b, 12, 10, 0)).SetFriction(0.6)
	}
	ball := s.AddBody(NewBody(1, MomentForCircle(1, 0, 5, Vector{})))
	ball.SetPosition(Vector{X: 150, Y: 150})
	s.AddShape(NewCircle(ball, 5, Vector{})).SetFriction(0.6)
	s.AddConstraint(NewPinJoint(s.StaticBody, ball, Vector{X: 150, Y: 100}, Vector{}))
	s.AddConstraint(NewSimpleMotor(s.StaticBody, ball, 1))
	return s
}

func smallBytes(t testing.TB, hash bool, ticks int) []byte {
	s := newSmallSpace(hash)
	for range ticks {
		s.Step(1.0 / 60)
	}
	return appendSpace(t, s)
}

// Every truncation of valid bytes is an error; every byte changed gives an
// error or a space (which can be written), never a panic.
func TestSpaceBytesHostile(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprint("hash=", hash), func(t *testing.T) { testSpaceBytesHostile(t, hash) })
	}
}

func testSpaceBytesHostile(t *testing.T, hash bool) {
	b := smallBytes(t, hash, 40)
	target := newSmallSpace(hash)
	before := appendSpace(t, target)
	step := 1
	if testing.Short() {
		step = 7
	}
	for n := 0; n < len(b); n++ {
		if _, err := new(SpaceReader).Read(b[:n], target); err == nil {
			t.Fatalf("%d bytes of %d read with no error", n, len(b))
		}
	}
	if !bytes.Equal(appendSpace(t, target), before) {
		t.Fatal("a failed Read changed the space")
	}
	c := bytes.Clone(b)
	read := 0
	for i := 0; i < len(b); i += step {
		for _, x := range []byte{0xff, 0x01 << (i % 8)} {
			c[i] ^= x
			if _, err := new(SpaceReader).Read(c, target); err == nil {
				read++
				if _, err := new(SpaceWriter).Append(nil, target); err != nil {
					t.Fatalf("byte %d ^ %#x: a space read cannot be written: %v", i, x, err)
				}
				if err := exercise(target); err != nil {
					t.Fatalf("byte %d ^ %#x: a space read fails when used: %v", i, x, err)
				}
			}
			c[i] = b[i]
		}
	}
	t.Logf("%d bytes; %d changed bytes read as a space", len(b), read)
}

// exercise steps a space read from bytes twice (one with a BBTree) and
// removes everything from it, as a game would: a panic is returned as an
// error, with its stack.
func exercise(space *Space) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	if _, hash := space.dynamicShapes.class.(*SpaceHash); !hash {
		for range 2 { // a step files every shape again: in a spatial hash, a shape of absurd size (forged) takes forever
			space.Step(1.0 / 60)
		}
	}
	var cs []*Constraint
	var ss []*Shape
	var bs []*Body
	space.EachConstraint(func(c *Constraint) { cs = append(cs, c) })
	space.EachShape(func(s *Shape) { ss = append(ss, s) })
	space.EachBody(func(b *Body) { bs = append(bs, b) })
	for _, c := range cs {
		space.RemoveConstraint(c)
	}
	for _, s := range ss {
		space.RemoveShape(s)
	}
	for _, b := range bs {
		space.RemoveBody(b)
	}
	return nil
}

func FuzzSpaceRead(f *testing.F) {
	for _, ticks := range []int{0, 20, 60} {
		f.Add(smallBytes(f, false, ticks))
		f.Add(smallBytes(f, true, ticks))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		space := newSmallSpace(false)
		rest, err := new(SpaceReader).Read(b, space)
		if err != nil {
			return
		}
		again, err := new(SpaceWriter).Append(nil, space)
		if err != nil {
			t.Fatalf("a space read cannot be written: %v", err)
		}
		if !bytes.Equal(again, b[:len(b)-len(rest)]) {
			t.Fatal("a space read, written again, gives other bytes")
		}
		if err := exercise(space); err != nil {
			t.Fatalf("a space read fails when used: %v", err)
		}
	})
}

// The bytes are the same on every CPU: their hash is the one written on
// amd64 (checked on 386 too: GOARCH=386 go test -run TestSpaceBytesSameEverywhere).
// A change of the format changes these, and the version byte.
func TestSpaceBytesSameEverywhere(t *testing.T) {
	want := map[bool]string{
		false: "d080eee8f9a74842135e03df4db31c9d076078f13e218dcaf7f04c6d13386983",
		true:  "37f618a5a3b6c854c8c637d11af44ce843335a72b5ac9ca7d2445c9507f9d7ee",
	}
	for _, hash := range []bool{false, true} {
		w := newBytesWorld(hash)
		for tick := 1; tick <= 300; tick++ {
			w.step(tick)
		}
		b := appendSpace(t, w.space)
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want[hash] {
			t.Errorf("hash=%v: %d bytes of sha256 %s, want %s", hash, len(b), got, want[hash])
		}
	}
}

// Check reads the bytes as Read does and leaves the space as it was; its
// references and Read's name the same objects of the bytes, arbiters too.
func TestSpaceBytesCheck(t *testing.T) {
	w := newBytesWorld(false)
	for tick := 1; tick <= 120; tick++ {
		w.step(tick)
	}
	var wr SpaceWriter
	b, err := wr.Append(nil, w.space)
	if err != nil {
		t.Fatal(err)
	}
	target := newBytesWorld(false)
	before := appendSpace(t, target.space)
	var rd SpaceReader
	if rest, err := rd.Check(b, target.space); err != nil || len(rest) != 0 {
		t.Fatalf("Check: %d bytes left, %v", len(rest), err)
	}
	if !bytes.Equal(appendSpace(t, target.space), before) {
		t.Fatal("Check changed the space")
	}
	if _, err := rd.Check(b[:len(b)-1], target.space); err == nil {
		t.Fatal("Check took truncated bytes")
	}
	arbs := 0
	for _, a := range w.space.arbiters {
		ref, ok := wr.ArbiterRef(a)
		if !ok {
			t.Fatal("an arbiter of the space has no reference")
		}
		c, ok := rd.Arbiter(ref)
		if !ok || c.count != a.count || c.a == nil {
			t.Fatalf("arbiter %d: checked %v", ref, ok)
		}
		arbs++
	}
	if arbs == 0 {
		t.Fatal("no arbiter to check")
	}
	if _, err := rd.Read(b, target.space); err != nil {
		t.Fatal(err)
	}
	for _, a := range w.space.arbiters {
		ref, _ := wr.ArbiterRef(a)
		c, ok := rd.Arbiter(ref)
		if !ok || !slices.Contains(target.space.arbiters, c) {
			t.Fatalf("arbiter %d is not the read space's", ref)
		}
	}
	if _, ok := wr.ArbiterRef(&Arbiter{}); ok {
		t.Fatal("an arbiter not written has a reference")
	}
}
