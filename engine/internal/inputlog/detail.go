package inputlog

import (
	"cmp"
	"slices"
)

// The desync bisector's detail in a timeline: for every tick of a group
// the state's hash after each of its systems (SysDetail), and after every
// checked tick of the first group a hash of each part of the state
// (PartDetail).

// SysDetail is one group's recorded system states in a scene timeline.
type SysDetail struct {
	ticks []int64   // ticks with detail, ascending
	start []int     // each tick's first state in sums; one more, the end
	sums  []uint32  // the state after each system
	names []nameSet // the systems' names, from the tick they apply to
}

// nameSet is the names of a group's systems from tick `from` on.
type nameSet struct {
	from  int64
	names []string
}

// namesAt returns the names of the systems of tick t.
func (d *SysDetail) namesAt(t int64) []string {
	var names []string
	for _, ns := range d.names {
		if ns.from > t {
			break
		}
		names = ns.names
	}
	return names
}

// add appends the states of tick t.
func (d *SysDetail) add(t int64, sums []uint32) {
	if len(d.start) == 0 {
		d.start = append(d.start, 0)
	}
	d.ticks = append(d.ticks, t)
	d.sums = append(d.sums, sums...)
	d.start = append(d.start, len(d.sums))
}

// At returns the states recorded after each system of tick t, and their
// systems' names; false when the recording has no detail of that tick.
// cur is the caller's cursor into the ticks with detail, moved forward:
// ticks are asked for in order. It allocates nothing.
func (d *SysDetail) At(cur *int, t int64) (sums []uint32, names []string, ok bool) {
	for *cur < len(d.ticks) && d.ticks[*cur] < t {
		*cur++
	}
	if *cur == len(d.ticks) || d.ticks[*cur] != t {
		return nil, nil, false
	}
	return d.sums[d.start[*cur]:d.start[*cur+1]], d.namesAt(t), true
}

// Part is the hash of one part of a scene's state (a component type).
type Part struct {
	Name string
	Sum  uint64
}

// PartDetail is a scene timeline's recorded parts.
type PartDetail struct {
	names []string // the parts' names, by index
	ticks []int64  // ticks with parts, ascending
	start []int    // each tick's first part in idx and sums; one more, the end
	idx   []int    // a part's name
	sums  []uint32
}

// add appends the parts of tick t, naming new parts.
func (p *PartDetail) add(t int64, parts []Part) (newNames []string) {
	if len(p.start) == 0 {
		p.start = append(p.start, 0)
	}
	p.ticks = append(p.ticks, t)
	for _, part := range parts {
		i := slices.Index(p.names, part.Name)
		if i < 0 {
			i = len(p.names)
			p.names = append(p.names, part.Name)
			newNames = append(newNames, part.Name)
		}
		p.idx = append(p.idx, i)
		p.sums = append(p.sums, uint32(part.Sum))
	}
	p.start = append(p.start, len(p.idx))
	return newNames
}

// Has reports whether parts were recorded after tick t, moving cur (the
// caller's cursor, as for SysDetail.At) to them.
func (p *PartDetail) Has(cur *int, t int64) bool {
	for *cur < len(p.ticks) && p.ticks[*cur] < t {
		*cur++
	}
	return *cur < len(p.ticks) && p.ticks[*cur] == t
}

// Differ returns the names of the parts recorded at the cursor Has moved
// to that differ from parts (a different hash, or a part only one side
// has), sorted.
func (p *PartDetail) Differ(cur int, parts []Part) []string {
	k := cur
	var out []string
	rec := map[string]uint32{}
	for j := p.start[k]; j < p.start[k+1]; j++ {
		rec[p.names[p.idx[j]]] = p.sums[j]
	}
	for _, part := range parts {
		sum, ok := rec[part.Name]
		if !ok || sum != uint32(part.Sum) {
			out = append(out, part.Name)
		}
		delete(rec, part.Name)
	}
	for name := range rec {
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cut keeps the ticks up to t.
func (d *SysDetail) cut(t int64) {
	k, _ := slices.BinarySearch(d.ticks, t+1) // the first tick after t; ticks are in order
	if len(d.start) > 0 {
		d.start = d.start[:k+1]
		d.sums = d.sums[:d.start[k]]
	}
	d.ticks = d.ticks[:k]
	n, _ := slices.BinarySearchFunc(d.names, t+1, func(s nameSet, t int64) int { return cmp.Compare(s.from, t) })
	d.names = d.names[:n]
}

// cut keeps the ticks up to t.
func (p *PartDetail) cut(t int64) {
	k, _ := slices.BinarySearch(p.ticks, t+1)
	if len(p.start) > 0 {
		p.start = p.start[:k+1]
		p.idx, p.sums = p.idx[:p.start[k]], p.sums[:p.start[k]]
	}
	p.ticks = p.ticks[:k]
}
