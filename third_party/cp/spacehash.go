package cp

import (
	"math"
	mathbits "math/bits"
)

type SpaceHash struct {
	*SpatialIndex

	numCells int
	celldim  float64

	table     []*SpaceHashBin
	handleSet *HashSet[*Shape, *Handle]

	pooledBins    *SpaceHashBin
	pooledHandles []*Handle // free handles, reused (a slice, not a sync.Pool: a snapshot restores it)

	stamp uint
}

func NewSpaceHash(celldim float64, num int, bbfunc SpatialIndexBB, staticIndex *SpatialIndex) *SpatialIndex {
	spaceHash := &SpaceHash{
		celldim:  celldim,
		numCells: num,
		table:    make([]*SpaceHashBin, num),
		handleSet: NewHashSet[*Shape, *Handle](func(obj *Shape, elt *Handle) bool {
			return obj == elt.obj
		}),
		stamp: 1,
	}
	spaceHash.pooledHandles = make([]*Handle, POOLED_BUFFER_SIZE)
	for i := range spaceHash.pooledHandles {
		spaceHash.pooledHandles[i] = &Handle{}
	}
	spatialIndex := NewSpatialIndex(spaceHash, bbfunc, staticIndex)
	spaceHash.SpatialIndex = spatialIndex
	return spatialIndex
}

func (hash *SpaceHash) hashHandle(hand *Handle, bb BB) {
	dim := hash.celldim

	// TODO: chipmunk said floor is slow, use custom floor
	l := floor(bb.L / dim)
	r := floor(bb.R / dim)
	b := floor(bb.B / dim)
	t := floor(bb.T / dim)

	n := hash.numCells
	for i := l; i <= r; i++ {
		for j := b; j <= t; j++ {
			idx := hashFunc(HashValue(i), HashValue(j), HashValue(n))
			bin := hash.table[idx]

			if bin.containsHandle(hand) {
				continue
			}

			hand.retain()
			newBin := hash.getEmptyBin()
			newBin.handle = hand
			newBin.next = bin
			hash.table[idx] = newBin
		}
	}
}

func (hash *SpaceHash) Count() int {
	return int(hash.handleSet.Count())
}

// Each calls f with every shape, in the handle set's order (walked in
// place: no closure between the set and f).
func (hash *SpaceHash) Each(f SpatialIndexIterator) {
	for _, bin := range hash.handleSet.table {
		for bin != nil {
			next := bin.next
			f(bin.elt.obj)
			bin = next
		}
	}
}

func (hash *SpaceHash) Contains(obj *Shape, hashId HashValue) bool {
	return hash.handleSet.Find(hashId, obj) != nil
}

func (hash *SpaceHash) Insert(obj *Shape, hashId HashValue) {
	hand := hash.handleSet.Insert(hashId, obj, func(obj *Shape) *Handle {
		var hand *Handle
		if n := len(hash.pooledHandles); n > 0 {
			hand = hash.pooledHandles[n-1]
			hash.pooledHandles = hash.pooledHandles[:n-1]
		} else {
			hand = &Handle{}
		}
		hand.Init(obj)
		hand.retain()
		return hand
	})
	hash.hashHandle(hand, hash.bbfunc(obj))
}

func (hash *SpaceHash) Remove(obj *Shape, hashId HashValue) {
	hand := hash.handleSet.Remove(hashId, obj)

	if hand != nil {
		hand.obj = nil
		hand.release(&hash.pooledHandles)
	}
}

func (hash *SpaceHash) Reindex() {
	hash.clearTable()
	hash.handleSet.Each(func(hand *Handle) {
		hash.bbfunc(hand.obj)
	})
}

func (hash *SpaceHash) ReindexObject(obj *Shape, hashId HashValue) {
	hand := hash.handleSet.Remove(hashId, obj)

	if hand != nil {
		hand.obj = nil
		hand.release(&hash.pooledHandles)

		hash.Insert(obj, hashId)
	}
}

func (hash *SpaceHash) removeOrphanedHandles(binPtr **SpaceHashBin) {
	bin := *binPtr
	for bin != nil {
		hand := bin.handle
		next := bin.next

		if hand.obj == nil {
			// orphaned handle
			*binPtr = bin.next
			hash.recycleBin(bin)

			hand.release(&hash.pooledHandles)
		} else {
			binPtr = &bin.next
		}

		bin = next
	}
}

func (hash *SpaceHash) queryHelper(binPtr **SpaceHashBin, obj any, f SpatialIndexQuery, data any) {
restart:
	for bin := *binPtr; bin != nil; bin = bin.next {
		hand := bin.handle
		other := hand.obj

		if hand.stamp == hash.stamp || obj == other {
			continue
		} else if other != nil {
			f(obj, other, 0, data)
			hand.stamp = hash.stamp
		} else {
			hash.removeOrphanedHandles(binPtr)
			goto restart
		}
	}
}

func floor(f float64) int {
	//detcheck:ok a cell coordinate: beyond the int's range (2^31 cells on 386) or NaN, a box falls in other cells on other CPUs
	i := int(f)
	if f < 0 && float64(i) != f {
		return i - 1
	}
	return i
}

// ReindexQuery empties the table and hashes the handles into it again, in
// the handle set's order, reporting to f each handle's shape with the
// shapes of the handles already in the cells its box covers (each other
// shape once: the handles' stamps), then queries the static index with
// every shape's box. The set's buckets are walked in place, with no
// closure per handle.
func (hash *SpaceHash) ReindexQuery(f SpatialIndexQuery, data any) {
	hash.clearTable()

	cells := newCellHash(hash.numCells)
	for _, setBin := range hash.handleSet.table {
		for setBin != nil {
			next := setBin.next
			hand := setBin.elt
			bb := hash.SpatialIndex.bbfunc(hand.obj)

			l := floor(bb.L / hash.celldim)
			r := floor(bb.R / hash.celldim)
			b := floor(bb.B / hash.celldim)
			t := floor(bb.T / hash.celldim)

			for i := l; i <= r; i++ {
				for j := b; j <= t; j++ {
					idx := cells.of(HashValue(i), HashValue(j))
					bin := hash.table[idx]

					// The table was emptied above, and only this handle
					// has gone into it since: it is in this cell only if
					// another of its cells hashed here, and then it heads
					// the cell (what containsHandle would find).
					if bin != nil && bin.handle == hand {
						continue
					}

					hand.retain()

					// queryHelper, written in.
					obj := hand.obj
				restart:
					for c := bin; c != nil; c = c.next {
						h := c.handle
						other := h.obj

						if h.stamp == hash.stamp || obj == other {
							continue
						} else if other != nil {
							f(obj, other, 0, data)
							h.stamp = hash.stamp
						} else {
							hash.removeOrphanedHandles(&bin)
							goto restart
						}
					}

					newBin := hash.getEmptyBin()
					newBin.handle = hand
					newBin.next = bin
					hash.table[idx] = newBin
				}
			}

			hash.stamp++
			setBin = next
		}
	}

	// CollideStatic, walking the set in place too.
	if static := hash.staticIndex; static != nil && static.class.Count() > 0 {
		for _, setBin := range hash.handleSet.table {
			for setBin != nil {
				next := setBin.next
				obj := setBin.elt.obj
				if sh, ok := static.class.(*SpaceHash); ok {
					sh.Query(obj, hash.SpatialIndex.bbfunc(obj), f, data) // a direct call
				} else {
					static.class.Query(obj, hash.SpatialIndex.bbfunc(obj), f, data)
				}
				setBin = next
			}
		}
	}
}

func (hash *SpaceHash) Query(obj any, bb BB, f SpatialIndexQuery, data any) {
	dim := hash.celldim
	l := floor(bb.L / dim)
	r := floor(bb.R / dim)
	b := floor(bb.B / dim)
	t := floor(bb.T / dim)

	cells := newCellHash(hash.numCells)
	for i := l; i <= r; i++ {
		for j := b; j <= t; j++ {
			// An empty cell, the most of a static index's, without a call.
			if cell := &hash.table[cells.of(HashValue(i), HashValue(j))]; *cell != nil {
				hash.queryHelper(cell, obj, f, data)
			}
		}
	}

	hash.stamp++
}

func (hash *SpaceHash) segmentQueryHelper(binPtr **SpaceHashBin, obj any, f SpatialIndexSegmentQuery, data any) float64 {
	t := 1.0

restart:
	for bin := *binPtr; bin != nil; bin = bin.next {
		hand := bin.handle
		other := hand.obj

		if hand.stamp == hash.stamp {
			continue
		} else if other != nil {
			t = min(t, f(obj, other, data))
			hand.stamp = hash.stamp
		} else {
			hash.removeOrphanedHandles(binPtr)
			goto restart
		}
	}

	return t
}

// modified from http://playtechs.blogspot.com/2007/03/raytracing-on-grid.html
func (hash *SpaceHash) SegmentQuery(obj any, a, b Vector, t_exit float64, f SpatialIndexSegmentQuery, data any) {
	a = a.Mult(1.0 / hash.celldim)
	b = b.Mult(1.0 / hash.celldim)

	cellX := int(floor(a.X))
	cellY := int(floor(a.Y))

	t := 0.0

	var xInc, yInc int
	var tempV, tempH float64

	if b.X > a.X {
		xInc = 1
		tempH = math.Floor(a.X+1.0) - a.X
	} else {
		xInc = -1
		tempH = a.X - math.Floor(a.X)
	}

	if b.Y > a.Y {
		yInc = 1
		tempV = math.Floor(a.Y+1.0) - a.Y
	} else {
		yInc = -1
		tempV = a.Y - math.Floor(a.Y)
	}

	dx := math.Abs(b.X - a.X)
	dy := math.Abs(b.Y - a.Y)
	var dtdx, dtdy float64
	if dx != 0 {
		dtdx = 1.0 / dx
	} else {
		dtdx = INFINITY
	}

	if dy != 0 {
		dtdy = 1.0 / dy
	} else {
		dtdy = INFINITY
	}

	var nextH, nextV float64
	if tempH != 0 {
		nextH = float64(tempH * dtdx)
	} else {
		nextH = dtdx
	}
	if tempV != 0 {
		nextV = float64(tempV * dtdy)
	} else {
		nextV = dtdy
	}

	for t < t_exit {
		idx := hashFunc(HashValue(cellX), HashValue(cellY), HashValue(hash.numCells))
		t_exit = min(t_exit, hash.segmentQueryHelper(&hash.table[idx], obj, f, data))

		if nextV < nextH {
			cellY += yInc
			t = nextV
			nextV += dtdy
		} else {
			cellX += xInc
			t = nextH
			nextH += dtdx
		}
	}

	hash.stamp++
}

type SpaceHashBin struct {
	handle *Handle
	next   *SpaceHashBin
}

func (bin *SpaceHashBin) containsHandle(hand *Handle) bool {
	for item := bin; item != nil; item = item.next {
		if item.handle == hand {
			return true
		}
	}

	return false
}

func hashFunc(x, y, n HashValue) HashValue {
	return (x*1640531513 ^ y*2654435789) % n
}

// cellHash is hashFunc for a table of n cells, with the remainder taken by
// two multiplications instead of a division (a division is tens of cycles,
// and the loops that query the table take one for every cell of every
// shape's box): m is ⌊(2⁶⁴-1)/n⌋, the quotient q = ⌊x·m/2⁶⁴⌋ is x/n's or
// one less, so x - q·n is the remainder or the remainder plus n.
type cellHash struct {
	n, m HashValue
}

// newCellHash returns the cellHash of a table of n cells. With no cells,
// of returns the hash itself, and indexing the empty table with it panics
// where hashFunc's division by zero would.
func newCellHash(n int) cellHash {
	c := cellHash{n: HashValue(n)}
	if n > 0 {
		c.m = ^HashValue(0) / c.n
	}
	return c
}

// of returns hashFunc(x, y, n).
func (c cellHash) of(x, y HashValue) HashValue {
	h := x*1640531513 ^ y*2654435789
	q, _ := mathbits.Mul64(uint64(h), uint64(c.m))
	r := h - HashValue(q)*c.n
	if r >= c.n {
		r -= c.n
	}
	return r
}

type Handle struct {
	obj     *Shape
	retains int
	stamp   uint

	snap uint64 // the Snapshot that saved it last (see snapshot.go)
}

func (hand *Handle) Init(obj *Shape) {
	hand.obj = obj
	hand.retains = 0
	hand.stamp = 0
}

func (hand *Handle) retain() {
	hand.retains++
}

func (hand *Handle) release(pooledHandles *[]*Handle) {
	hand.retains--
	if hand.retains == 0 {
		*pooledHandles = append(*pooledHandles, hand)
	}
}

func (hash *SpaceHash) recycleBin(bin *SpaceHashBin) {
	bin.next = hash.pooledBins
	hash.pooledBins = bin
}

// clearTable empties every cell, releasing its handles and recycling its
// bins, and passes over the empty ones without a store.
func (hash *SpaceHash) clearTable() {
	for i, bin := range hash.table[:hash.numCells] {
		if bin == nil {
			continue
		}
		for bin != nil {
			next := bin.next

			bin.handle.release(&hash.pooledHandles)
			bin.next = hash.pooledBins
			hash.pooledBins = bin

			bin = next
		}
		hash.table[i] = nil
	}
}

func (hash *SpaceHash) getEmptyBin() *SpaceHashBin {
	bin := hash.pooledBins

	if bin != nil {
		hash.pooledBins = bin.next
		return bin
	}

	// pool is exhausted, make more
	for range POOLED_BUFFER_SIZE {
		hash.recycleBin(&SpaceHashBin{})
	}
	return &SpaceHashBin{}
}
