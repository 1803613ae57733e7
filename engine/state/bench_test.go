package state_test

import (
	"bytes"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// benchWorld is an arena of n bodies as the demo makes them: each with a
// Transform, a cp Body, a Shape and a Sprite, every third an Agent too,
// after a second of simulation.
func benchWorld(n int) donburi.World {
	w := donburi.NewWorld()
	space := cp.NewSpace()
	space.SetGravity(cp.Vector{Y: 100})
	for i := range n {
		x, y := float64(i%100)*20, float64(i/100)*20
		var b *cp.Body
		var sh *cp.Shape
		if i%2 == 0 {
			b = space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, 8, cp.Vector{})))
			sh = cp.NewCircle(b, 8, cp.Vector{})
		} else {
			b = space.AddBody(cp.NewBody(1, cp.MomentForBox(1, 16, 16)))
			sh = cp.NewBox(b, 16, 16, 0)
		}
		b.SetPosition(cp.Vector{X: x, Y: y})
		space.AddShape(sh)
		cs := []donburi.IComponentType{components.TransformC, components.BodyC, components.ShapeC, gfx.SpriteC}
		if i%3 == 0 {
			cs = append(cs, components.AgentC)
		}
		e := w.Create(cs...)
		en := w.Entry(e)
		*components.TransformC.Get(en) = components.NewTransform(components.Pose{X: x, Y: y})
		components.BodyC.Get(en).Body = b
		components.ShapeC.Get(en).Shapes = []*cp.Shape{sh}
		*gfx.SpriteC.Get(en) = gfx.Sprite{Image: frame(i), Atlas: sceneAtlas, OriginX: 8, OriginY: 8}
		if i%3 == 0 {
			*components.AgentC.Get(en) = components.NewAgent(80, 400)
		}
	}
	for range 60 {
		space.Step(1.0 / 60)
	}
	return w
}

// handWrittenChecksum is the demo's checksum (scenes/scenes.go), copied as
// the baseline: transforms, body velocities and a few agent fields, in
// entity order, through FNV-1a.
func handWrittenChecksum(w donburi.World, extra ...float64) uint64 {
	h := fnv.New64a()
	q := donburi.NewQuery(filter.Contains(components.TransformC))
	var ents []donburi.Entity
	q.Each(w, func(e *donburi.Entry) { ents = append(ents, e.Entity()) })
	slices.Sort(ents)
	for _, e := range ents {
		entry := w.Entry(e)
		tr := components.TransformC.Get(entry)
		writeFloats(h, float64(e.Id()), tr.Cur.X, tr.Cur.Y, tr.Cur.Angle)
		if entry.HasComponent(components.BodyC) {
			v := components.BodyC.Get(entry).Body.Velocity()
			writeFloats(h, v.X, v.Y)
		}
		if entry.HasComponent(components.AgentC) {
			a := components.AgentC.Get(entry)
			writeFloats(h, float64(a.State), a.Health, a.Desired.X, a.Desired.Y)
		}
	}
	writeFloats(h, extra...)
	return h.Sum64()
}

func writeFloats(h hash.Hash64, vs ...float64) {
	var b [8]byte
	for _, v := range vs {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
}

var benchSizes = []int{1000, 10000}

// BenchmarkStateHasher: Sum over the whole state of every entity (all of
// Transform, Body, Shape, Sprite and Agent).
func BenchmarkStateHasher(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			w := benchWorld(n)
			h := state.NewHasher(nil)
			h.Sum(w)
			for b.Loop() {
				h.Sum(w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// BenchmarkChecksumHandWritten: the demo's hand-written checksum on the same
// world, which reads less (the current pose, the velocity, four agent
// fields).
func BenchmarkChecksumHandWritten(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			w := benchWorld(n)
			for b.Loop() {
				handWrittenChecksum(w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
		})
	}
}

// BenchmarkStateHasherOverhead times Hasher.Sum and the hand-written
// checksum alternately on the same world in the same run (the machine is
// noisy): engine-ns/entity, raw-ns/entity (the hand-written one) and
// overhead-% (the median of the per-call ratios, minus 1).
func BenchmarkStateHasherOverhead(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			w := benchWorld(n)
			h := state.NewHasher(nil)
			h.Sum(w)
			var engineNs, rawNs []float64
			i := 0
			for b.Loop() {
				hasher := func() {
					t := time.Now()
					h.Sum(w)
					engineNs = append(engineNs, float64(time.Since(t)))
				}
				raw := func() {
					t := time.Now()
					handWrittenChecksum(w)
					rawNs = append(rawNs, float64(time.Since(t)))
				}
				if i++; i%2 == 0 {
					hasher()
					raw()
				} else {
					raw()
					hasher()
				}
			}
			ratios := make([]float64, len(engineNs))
			for i := range engineNs {
				ratios[i] = engineNs[i] / rawNs[i]
			}
			b.ReportMetric(median(engineNs)/float64(n), "engine-ns/entity")
			b.ReportMetric(median(rawNs)/float64(n), "raw-ns/entity")
			b.ReportMetric((median(ratios)-1)*100, "overhead-%")
		})
	}
}

// BenchmarkDumpWorld: the text dump of the same world (for tools, not for
// every tick).
func BenchmarkDumpWorld(b *testing.B) {
	w := benchWorld(1000)
	var buf bytes.Buffer
	h := state.NewHasher(nil)
	for b.Loop() {
		buf.Reset()
		if err := h.Dump(w, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1000, "bytes/entity")
}

// BenchmarkStateHashFunction: the hash function alone, on the 475 bytes
// that Sum hashes for an average entity of benchWorld: XXH64, which the
// hasher uses, beside FNV-1a, which the hand-written checksum uses.
func BenchmarkStateHashFunction(b *testing.B) {
	buf := make([]byte, 475)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var sink uint64
	b.Run("xxhash", func(b *testing.B) {
		for b.Loop() {
			sink += xxhash.Sum64(buf)
		}
	})
	b.Run("fnv", func(b *testing.B) {
		for b.Loop() {
			h := fnv.New64a()
			h.Write(buf)
			sink += h.Sum64()
		}
	})
	_ = sink
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// dataWorld is n entities of data alone, as a scene's world is but for its
// bodies and sprites: a Transform each, every third an Agent too.
func dataWorld(n int) donburi.World {
	w := donburi.NewWorld()
	for i := range n {
		cs := []donburi.IComponentType{components.TransformC}
		if i%3 == 0 {
			cs = append(cs, components.AgentC)
		}
		en := w.Entry(w.Create(cs...))
		*components.TransformC.Get(en) = components.NewTransform(components.Pose{X: float64(i), Y: float64(i) / 3})
		if i%3 == 0 {
			*components.AgentC.Get(en) = components.NewAgent(80, 400)
		}
	}
	return w
}

// BenchmarkWorldBytes writes a world of data as bytes (append) and reads
// it into a fresh world (read), beside its state checksum (checksum) in
// the same run, the baseline of the ratios: a world's bytes cost what
// hashing it costs, give or take. It reports the bytes per entity.
func BenchmarkWorldBytes(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		w := dataWorld(n)
		data, err := state.AppendWorld(nil, w, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("entities=%d/append", n), func(b *testing.B) {
			buf := make([]byte, 0, len(data))
			for b.Loop() {
				if buf, err = state.AppendWorld(buf[:0], w, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(data))/float64(n), "bytes/entity")
		})
		b.Run(fmt.Sprintf("entities=%d/read", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := state.ReadWorld(data, donburi.NewWorld(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("entities=%d/checksum", n), func(b *testing.B) {
			h := state.NewHasher(nil)
			for b.Loop() {
				h.Sum(w)
			}
		})
	}
}
