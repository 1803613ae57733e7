package render

import "math"

// sines sets the sine and cosine of every sprite of a chunk that is turned
// (its angle not zero), to the bit those of math.Sincos,
// which DrawImage's GeoM.Rotate takes. It is math's own computation for
// angles under 2^29 (Cody-Waite reduction to an octant, the same
// polynomials, the same operations in the same order) and math.Sincos
// itself for any other angle, laid out for the CPU:
//   - in steps over the whole chunk (the sprites to do, their reductions,
//     their polynomials, their signs), so that each loop is short and the
//     CPU runs many sprites' steps at once;
//   - the polynomials four sprites at a time, step by step, so that their
//     long chains of dependent multiplications and additions overlap;
//   - the octant's swap of sine and cosine and their signs taken by
//     indexing, without the branches that random angles mispredict.
//
// Where Go fuses multiply-adds (exactSines false), it calls math.Sincos
// for each turned sprite instead. TestSines holds it to math.Sincos.
func sines(batch []pending) {
	if !exactSines {
		for j := range batch {
			if b := &batch[j]; b.p.Angle != 0 {
				b.sin, b.cos = math.Sincos(b.p.Angle)
			}
		}
		return
	}
	const (
		pi4A = 7.85398125648498535156e-1  // 0x3fe921fb40000000, Pi/4 split into three parts
		pi4B = 3.77489470793079817668e-8  // 0x3e64442d00000000,
		pi4C = 2.69515142907905952645e-15 // 0x3ce8469898cc5170,
	)
	var (
		todo   [chunk]int     // the sprites, by index in batch
		z      [chunk]float64 // each one's angle reduced to [-Pi/4, Pi/4]
		octant [chunk]int64   // and its octant, even
		sin    [chunk]float64 // the sine and cosine of z
		cos    [chunk]float64
	)
	n := 0
	for j := range batch {
		b := &batch[j]
		if b.p.Angle == 0 {
			continue
		}
		if !(math.Abs(b.p.Angle) < 1<<29) { // math's reduceThreshold; NaN and infinities too
			b.sin, b.cos = math.Sincos(b.p.Angle)
			continue
		}
		todo[n] = j
		n++
	}
	for i, j := range todo[:n] {
		a := math.Abs(batch[j].p.Angle)
		k := int64(a * (4 / math.Pi)) // an odd octant moves on to the next zero
		k += k & 1
		y := float64(k)
		z[i] = ((a - y*pi4A) - y*pi4B) - y*pi4C
		octant[i] = k
	}
	// Four at a time (chunk is a multiple of four: the lanes past n work
	// on zeros and are not read).
	for i := 0; i < n; i += 4 {
		z := (*[4]float64)(z[i : i+4])
		zz0, zz1, zz2, zz3 := z[0]*z[0], z[1]*z[1], z[2]*z[2], z[3]*z[3]
		c0, c1, c2, c3 := cos0*zz0, cos0*zz1, cos0*zz2, cos0*zz3
		s0, s1, s2, s3 := sin0*zz0, sin0*zz1, sin0*zz2, sin0*zz3
		c0, c1, c2, c3 = (c0+cos1)*zz0, (c1+cos1)*zz1, (c2+cos1)*zz2, (c3+cos1)*zz3
		s0, s1, s2, s3 = (s0+sin1)*zz0, (s1+sin1)*zz1, (s2+sin1)*zz2, (s3+sin1)*zz3
		c0, c1, c2, c3 = (c0+cos2)*zz0, (c1+cos2)*zz1, (c2+cos2)*zz2, (c3+cos2)*zz3
		s0, s1, s2, s3 = (s0+sin2)*zz0, (s1+sin2)*zz1, (s2+sin2)*zz2, (s3+sin2)*zz3
		c0, c1, c2, c3 = (c0+cos3)*zz0, (c1+cos3)*zz1, (c2+cos3)*zz2, (c3+cos3)*zz3
		s0, s1, s2, s3 = (s0+sin3)*zz0, (s1+sin3)*zz1, (s2+sin3)*zz2, (s3+sin3)*zz3
		c0, c1, c2, c3 = (c0+cos4)*zz0, (c1+cos4)*zz1, (c2+cos4)*zz2, (c3+cos4)*zz3
		s0, s1, s2, s3 = (s0+sin4)*zz0, (s1+sin4)*zz1, (s2+sin4)*zz2, (s3+sin4)*zz3
		c := (*[4]float64)(cos[i : i+4])
		c[0] = 1.0 - 0.5*zz0 + zz0*zz0*(c0+cos5)
		c[1] = 1.0 - 0.5*zz1 + zz1*zz1*(c1+cos5)
		c[2] = 1.0 - 0.5*zz2 + zz2*zz2*(c2+cos5)
		c[3] = 1.0 - 0.5*zz3 + zz3*zz3*(c3+cos5)
		s := (*[4]float64)(sin[i : i+4])
		s[0] = z[0] + z[0]*zz0*(s0+sin5)
		s[1] = z[1] + z[1]*zz1*(s1+sin5)
		s[2] = z[2] + z[2]*zz2*(s2+sin5)
		s[3] = z[3] + z[3]*zz3*(s3+sin5)
	}
	// Octants 2 and 6 swap sine and cosine; 4 and 6 negate both, 2 and 6
	// the cosine; a negative angle negates the sine.
	for i, j := range todo[:n] {
		b := &batch[j]
		half, quarter := (octant[i]>>2)&1, (octant[i]>>1)&1
		neg := int64(math.Float64bits(b.p.Angle) >> 63)
		sc := [2]float64{sin[i], cos[i]}
		b.sin, b.cos = sc[quarter]*sign[neg^half], sc[quarter^1]*sign[half^quarter]
	}
}

// The lanes of four need chunk to be a multiple of four.
var _ = [1]int{}[chunk%4]

// sign is 1 or -1 by a bit: multiplying by it negates as a unary minus
// does.
var sign = [2]float64{1, -1}

// math's coefficients of the sine's and the cosine's polynomials on [-Pi/4,
// Pi/4] (math/sin.go, from Cephes).
const (
	sin0 = 1.58962301576546568060e-10 // 0x3de5d8fd1fd19ccd
	sin1 = -2.50507477628578072866e-8 // 0xbe5ae5e5a9291f5d
	sin2 = 2.75573136213857245213e-6  // 0x3ec71de3567d48a1
	sin3 = -1.98412698295895385996e-4 // 0xbf2a01a019bfdf03
	sin4 = 8.33333333332211858878e-3  // 0x3f8111111110f7d0
	sin5 = -1.66666666666666307295e-1 // 0xbfc5555555555548

	cos0 = -1.13585365213876817300e-11 // 0xbda8fa49a0861a9b
	cos1 = 2.08757008419747316778e-9   // 0x3e21ee9d7b4e3f05
	cos2 = -2.75573141792967388112e-7  // 0xbe927e4f7eac4bc6
	cos3 = 2.48015872888517045348e-5   // 0x3efa01a019c844f5
	cos4 = -1.38888888888730564116e-3  // 0xbf56c16c16c14f91
	cos5 = 4.16666666666665929218e-2   // 0x3fa555555555554b
)
