package cp

import (
	"errors"
	"fmt"
	"math"
)

// check refuses a graph that is not a space's: lists that loop or hold
// objects of another, trees whose nodes are not each other's parent and
// child, pairs not threaded through their leaves.
func (d *decoder) check(v *Space) error {
	if d.static.GetType() != BODY_STATIC {
		return errors.New("cp: SpaceReader: the static body is not static")
	}
	for i, b := range d.bodies {
		for _, s := range b.shapeList {
			if s.body != b {
				return fmt.Errorf("cp: SpaceReader: body %d's shape list holds another body's shape", i+1)
			}
		}
		var prev *Constraint
		n := 0
		for c := b.constraintList; c != nil; prev, c = c, c.Next(b) {
			if n++; n > len(d.constraints) || (c.a != b && c.b != b) {
				return fmt.Errorf("cp: SpaceReader: body %d's constraint list", i+1)
			}
		}
		_ = prev
		var pa *Arbiter
		n = 0
		for a := b.arbiterList; a != nil; pa, a = a, a.Next(b) {
			if n++; n > len(d.arbiters) || (a.body_a != b && a.body_b != b) || a.ThreadForBody(b).prev != pa {
				return fmt.Errorf("cp: SpaceReader: body %d's arbiter list", i+1)
			}
		}
		n = 0
		for x := b.sleepingNext; x != nil; x = x.sleepingNext {
			if n++; n > len(d.bodies) {
				return fmt.Errorf("cp: SpaceReader: body %d's sleeping list loops", i+1)
			}
		}
	}
	// The space's bodies (the static body, the awake and static lists, the
	// sleeping components) are marked as the space's, and only they; the
	// bodies of its shapes, arbiters and constraints are among them (cp
	// wakes them through their space).
	inSpace := make(map[*Body]bool, len(d.bodies))
	inSpace[d.static] = true
	for _, l := range [][]*Body{v.dynamicBodies, v.staticBodies} {
		for _, b := range l {
			inSpace[b] = true
		}
	}
	for _, root := range v.sleepingComponents {
		for x := root; x != nil && !inSpace[x]; x = x.sleepingNext {
			inSpace[x] = true
		}
	}
	for i, b := range d.bodies {
		if (b.space != nil) != inSpace[b] {
			return fmt.Errorf("cp: SpaceReader: body %d is marked the space's and is not in it, or the other way", i+1)
		}
	}
	for i, sh := range d.shapes {
		if sh.space == nil || !inSpace[sh.body] {
			return fmt.Errorf("cp: SpaceReader: shape %d or its body is not the space's", i+1)
		}
	}
	for i, a := range d.arbiters {
		if !inSpace[a.body_a] || !inSpace[a.body_b] {
			return fmt.Errorf("cp: SpaceReader: arbiter %d's bodies are not the space's", i+1)
		}
		// Its handler is set by every collision (the wildcard handlers only
		// where the space uses them); cp calls it when a shape is removed.
		if a.handler == nil || d.space.usesWildcards && (a.handlerA == nil || a.handlerB == nil) {
			return fmt.Errorf("cp: SpaceReader: arbiter %d has no collision handler", i+1)
		}
		if a.a == nil || a.b == nil || a.a.body != a.body_a || a.b.body != a.body_b {
			return fmt.Errorf("cp: SpaceReader: arbiter %d's shapes are not on its bodies", i+1)
		}
	}
	for i, c := range d.constraints {
		if !inSpace[c.a] || !inSpace[c.b] {
			return fmt.Errorf("cp: SpaceReader: constraint %d's bodies are not the space's", i+1)
		}
	}
	// Sleeping components: each a root (its own root) listed once, its
	// bodies chained from it, each of them naming it, and no body asleep
	// outside one (waking it would not find it).
	inComponent := make(map[*Body]bool, len(d.bodies))
	for _, root := range v.sleepingComponents {
		if root == nil || root.sleepingRoot != root || inComponent[root] {
			return errors.New("cp: SpaceReader: a sleeping component whose root is not its own root")
		}
		for x := root; x != nil; x = x.sleepingNext {
			if x.sleepingRoot != root || (x != root && inComponent[x]) {
				return errors.New("cp: SpaceReader: a sleeping component's body names another root")
			}
			inComponent[x] = true
		}
	}
	for i, b := range d.bodies {
		if b.sleepingRoot != nil && !inComponent[b] {
			return fmt.Errorf("cp: SpaceReader: body %d sleeps in no sleeping component", i+1)
		}
	}
	for _, b := range v.dynamicBodies {
		if inComponent[b] {
			return errors.New("cp: SpaceReader: a sleeping body among the awake ones")
		}
	}
	for i, a := range d.arbiters {
		for _, b := range []*Body{a.body_a, a.body_b} {
			t := a.ThreadForBody(b)
			if (t.prev != nil && t.prev.body_a != b && t.prev.body_b != b) || (t.next != nil && t.next.body_a != b && t.next.body_b != b) {
				return fmt.Errorf("cp: SpaceReader: arbiter %d's thread", i+1)
			}
		}
	}
	if head := v.contactBuffersHead; head != nil {
		n := 0
		for b := head.next; b != head; b = b.next {
			if n++; b == nil || n > len(d.buffers) {
				return errors.New("cp: SpaceReader: the contact buffers are not a ring")
			}
		}
		if n+1 != len(d.buffers) {
			return errors.New("cp: SpaceReader: contact buffers not in the ring")
		}
	} else if len(d.buffers) != 0 {
		return errors.New("cp: SpaceReader: contact buffers but no head")
	}
	if err := d.checkHandles(v); err != nil {
		return err
	}
	// Each shape is found where the space looks for it: in the static
	// index if its body is static or asleep, else in the dynamic one, under
	// its hash id (a shape filed under another id is never found again:
	// removing it fails).
	for i, s := range d.shapes {
		if err := checkBB(s.bb, v); err != nil {
			return fmt.Errorf("cp: SpaceReader: shape %d: %w", i+1, err)
		}
		want, other := v.dynamicShapes, v.staticShapes
		if s.body.GetType() == BODY_STATIC || s.body.IsSleeping() {
			want, other = other, want
		}
		if want == nil || other == nil || !want.class.Contains(s, s.hashid) || other.class.Contains(s, s.hashid) {
			return fmt.Errorf("cp: SpaceReader: shape %d is not in the spatial index its body's state puts it in", i+1)
		}
	}
	seen := make(map[*Node]uint8, len(d.nodes))
	leafOf := make(map[*Shape]bool, len(d.shapes))
	for k, idx := range []*SpatialIndex{v.staticShapes, v.dynamicShapes} {
		t, ok := idx.class.(*BBTree)
		if !ok {
			continue
		}
		if t.root != nil && t.root.parent != nil {
			return errors.New("cp: SpaceReader: a BBTree's root has a parent")
		}
		leaves := 0
		stack := []*Node{t.root}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == nil {
				continue
			}
			if seen[n] != 0 {
				return errors.New("cp: SpaceReader: a BBTree node reached twice")
			}
			seen[n] = uint8(k + 1)
			if n.obj != nil {
				leaves++
				if leafOf[n.obj] {
					return errors.New("cp: SpaceReader: a shape in two BBTree leaves")
				}
				leafOf[n.obj] = true
				continue
			}
			if n.a.parent != n || n.b.parent != n {
				return errors.New("cp: SpaceReader: a BBTree node is not its children's parent")
			}
			stack = append(stack, n.b, n.a)
		}
		if uint(leaves) != t.leaves.entries {
			return errors.New("cp: SpaceReader: a BBTree's leaves set does not hold its leaves")
		}
		for _, bin := range t.leaves.table {
			for ; bin != nil; bin = bin.next {
				if seen[bin.elt] != uint8(k+1) {
					return errors.New("cp: SpaceReader: a BBTree's leaves set holds another tree's node")
				}
			}
		}
	}
	if len(seen) != len(d.nodes) {
		return errors.New("cp: SpaceReader: BBTree nodes not in a tree")
	}
	threads := make(map[*Pair]int, len(d.pairs))
	for _, n := range d.nodes {
		if n.obj == nil {
			continue
		}
		var prev *Pair
		k := 0
		for p := n.pairs; p != nil; prev, p = p, p.threadOf(n).next {
			if k++; k > len(d.pairs) || (p.a.leaf != n && p.b.leaf != n) || p.threadOf(n).prev != prev {
				return errors.New("cp: SpaceReader: a BBTree leaf's pairs")
			}
			threads[p]++
		}
	}
	for _, p := range d.pairs {
		if threads[p] != 2 || p.a.leaf.obj == nil || p.b.leaf.obj == nil {
			return errors.New("cp: SpaceReader: a BBTree pair not threaded through its two leaves")
		}
	}
	return nil
}

func spaceHashEql(obj *Shape, elt *Handle) bool { return obj == elt.obj }

func (d *decoder) spaceHash(static *SpatialIndex) *SpatialIndex {
	celldim, stamp := d.f64(), d.uint()
	n := d.n(4)
	if d.err != nil {
		return nil
	}
	if !(celldim > 0) || math.IsInf(celldim, 0) || n == 0 {
		d.fail("a SpaceHash of %d cells of %v", n, celldim)
		return nil
	}
	h := &SpaceHash{
		celldim:   celldim,
		numCells:  n,
		table:     make([]*SpaceHashBin, n),
		handleSet: NewHashSet[*Shape, *Handle](spaceHashEql),
		stamp:     stamp,
	}
	idx := NewSpatialIndex(h, ShapeGetBB, static)
	h.SpatialIndex = idx
	for i := range h.table {
		k := d.n(4)
		bins := newAll[SpaceHashBin](k)
		for j, bin := range bins {
			bin.handle = ref(d, d.handles, "handle")
			if bin.handle == nil {
				d.fail("a SpaceHash cell holds nil")
				return nil
			}
			if j > 0 {
				bins[j-1].next = bin
			}
		}
		if k > 0 {
			h.table[i] = bins[0]
		}
	}
	size := d.u32()
	nb := d.n(4)
	if size == 0 || uint64(size) != uint64(nb) {
		d.fail("a SpaceHash's handle set of size %d with %d buckets", size, nb)
		return nil
	}
	set := h.handleSet
	set.size = uint(size)
	set.table = make([]*HashSetBin[*Handle], nb)
	inSet := make(map[*Handle]bool, size) // a handle twice would be walked twice a step
	for i := range set.table {
		k := d.n(12)
		var last *HashSetBin[*Handle]
		for range k {
			bin := &HashSetBin[*Handle]{elt: ref(d, d.handles, "handle"), hash: HashValue(d.u64())}
			if d.err != nil {
				return nil
			}
			if bin.elt == nil || bin.elt.obj == nil || bin.hash != bin.elt.obj.hashid || uint64(bin.hash%HashValue(size)) != uint64(i) {
				d.fail("a SpaceHash's handle set's bin does not hold its handle")
				return nil
			}
			if inSet[bin.elt] {
				d.fail("a SpaceHash's handle set holds a handle twice")
				return nil
			}
			inSet[bin.elt] = true
			if last == nil {
				set.table[i] = bin
			} else {
				last.next = bin
			}
			last = bin
			set.entries++
		}
	}
	if set.entries >= set.size {
		d.fail("a handle set of %d entries and size %d", set.entries, set.size)
	}
	setBins, cellBins := d.pool(), d.pool()
	np := d.n(4)
	pooled := make([]*Handle, np)
	for i := range pooled {
		pooled[i] = ref(d, d.handles, "handle")
	}
	d.frees = append(d.frees, func() {
		for _, bin := range newAll[HashSetBin[*Handle]](setBins) {
			set.recycle(bin)
		}
		for _, bin := range newAll[SpaceHashBin](cellBins) {
			h.recycleBin(bin)
		}
		fresh := newAll[Handle](np)
		for i, x := range pooled {
			if x == nil {
				pooled[i] = fresh[i]
			}
		}
		h.pooledHandles = pooled
	})
	return idx
}

// checkHandles checks that each handle's count of retains is the number of
// places that hold it (its set and the cells).
func (d *decoder) checkHandles(v *Space) error {
	if len(d.handles) == 0 {
		return nil
	}
	refs := make(map[*Handle]int, len(d.handles))
	for _, idx := range []*SpatialIndex{v.staticShapes, v.dynamicShapes} {
		h, ok := idx.class.(*SpaceHash)
		if !ok {
			return errors.New("cp: SpaceReader: handles without a SpaceHash")
		}
		for _, cell := range h.table {
			for ; cell != nil; cell = cell.next {
				refs[cell.handle]++
			}
		}
		for _, bin := range h.handleSet.table {
			for ; bin != nil; bin = bin.next {
				refs[bin.elt]++
			}
		}
	}
	for i, x := range d.handles {
		if x.retains != refs[x] {
			return fmt.Errorf("cp: SpaceReader: handle %d retained %d times, held %d times", i+1, x.retains, refs[x])
		}
	}
	return nil
}

// maxHashSpan bounds the cells of a spatial hash a shape's bounding box
// may cover: a space hash visits each of them when it files the shape,
// so a box of absurd size (from damaged or forged bytes) would take the
// game forever. A box of a million cells is far past any real shape's.
const maxHashSpan = 1 << 20

// checkBB refuses a shape's bounding box that is not a box (not finite,
// its left past its right or its bottom past its top), or that covers
// more than maxHashSpan cells of a spatial hash of v (whose cell
// coordinates it then converts to integers in range).
func checkBB(bb BB, v *Space) error {
	for _, x := range [4]float64{bb.L, bb.B, bb.R, bb.T} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("a bounding box that is not finite")
		}
	}
	if !(bb.L <= bb.R && bb.B <= bb.T) {
		return errors.New("a bounding box whose sides are crossed")
	}
	for _, idx := range [2]*SpatialIndex{v.staticShapes, v.dynamicShapes} {
		if idx == nil {
			continue
		}
		if h, ok := idx.class.(*SpaceHash); ok {
			w, t := (bb.R-bb.L)/h.celldim+1, (bb.T-bb.B)/h.celldim+1
			far := max(math.Abs(bb.L), math.Abs(bb.R), math.Abs(bb.B), math.Abs(bb.T)) / h.celldim
			if span := float64(w * t); !(span <= maxHashSpan) || !(far < 1<<30) {
				return fmt.Errorf("a bounding box over %.3g cells of the spatial hash (at most %d), %.3g cells from its origin (under 2^30)", span, maxHashSpan, far)
			}
		}
	}
	return nil
}
