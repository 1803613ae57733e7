package cp

// The contact solver of Space.Step, on data laid out for its loops.
//
// The impulse solver runs over every arbiter Iterations times. Through the
// arbiters themselves it would follow a pointer to each of the two bodies
// (large structs, scattered in memory) and to the contacts (in the contact
// buffers) at every contact of every iteration. Instead, once a step, after
// the velocities are integrated, contactSolver.solve gathers what the
// solver reads and writes into dense slices: each body an arbiter touches
// as a solverBody (velocities, bias velocities, inverse mass and moment),
// in the order the arbiters first reach them, each arbiter as a
// solverArbiter (its bodies by index, its normal, friction and surface
// velocity) and each contact as a solverContact. It applies the cached
// impulses and runs the iterations over them, then writes the velocities
// and the accumulated impulses back into the bodies and contacts. The
// floating-point operations are Arbiter.ApplyCachedImpulse's and
// Arbiter.ApplyImpulse's, on the same values in the same order, so the
// results are the same bits. The slices are scratch, rebuilt every step:
// between steps the space's state is in its bodies and contacts alone.
//
// Constraints run after the arbiters in each iteration and read and write
// their bodies' velocities: around them the solver writes back the bodies
// that constraints and arbiters share, and reads them again after. cp's
// joints touch their two bodies only; a constraint class of the game's own
// might touch others, so a space that has one steps through the arbiters'
// own methods instead (Space.Step).

// solverBody is what the contact solver reads and writes of a body.
type solverBody struct {
	v, vBias   Vector
	w, wBias   float64
	mInv, iInv float64
}

// solverArbiter is what the contact solver reads of an arbiter: its bodies
// as indexes into contactSolver.bodies, and its contacts as the range
// [first, end) of contactSolver.contacts.
type solverArbiter struct {
	a, b       int32
	first, end int32
	n          Vector
	surfaceVr  Vector
	u          float64
}

// solverContact is what the contact solver reads and writes of a contact.
type solverContact struct {
	r1, r2       Vector
	nMass, tMass float64
	bounce, bias float64

	jnAcc, jtAcc, jBias float64
}

// contactSolver holds the dense slices of a step's solve, reused from step
// to step.
type contactSolver struct {
	bodies   []solverBody
	from     []*Body // bodies[i] was gathered from from[i]
	arbiters []solverArbiter
	contacts []solverContact
	shared   []int32 // indexes of the bodies constraints touch too
}

// contactSolver returns the space's contact solver, or nil when the space
// has a constraint that is not one of cp's joints (Step then solves through
// Arbiter's methods).
func (space *Space) contactSolver() *contactSolver {
	for _, c := range space.constraints {
		switch c.Class.(type) {
		case *DampedRotarySpring, *DampedSpring, *GearJoint, *GrooveJoint, *PinJoint,
			*PivotJoint, *RatchetJoint, *RotaryLimitJoint, *SimpleMotor, *SlideJoint:
		default:
			return nil
		}
	}
	if space.solver == nil {
		space.solver = &contactSolver{}
	}
	return space.solver
}

// solve applies the arbiters' and constraints' cached impulses (scaled by
// dtCoef) and runs space.Iterations iterations of the impulse solver over
// the arbiters and constraints, as Step does through Arbiter's methods.
func (s *contactSolver) solve(space *Space, dt, dtCoef float64) {
	s.gather(space.arbiters, dtCoef)
	s.share(space.constraints)

	s.store()
	for _, constraint := range space.constraints {
		constraint.Class.ApplyCachedImpulse(dtCoef)
	}
	s.load()

	for range space.Iterations {
		s.applyImpulses()

		s.store()
		for _, constraint := range space.constraints {
			constraint.Class.ApplyImpulse(dt)
		}
		s.load()
	}

	s.scatter(space.arbiters)
}

// slot returns b's index in s.bodies, if it has been gathered. It reads
// Body.solverSlot (1 + the index, set by index) and checks it: a slot left
// by a solve that did not end (a constraint's panic) is no index.
func (s *contactSolver) slot(b *Body) (int32, bool) {
	i := b.solverSlot - 1
	return i, i >= 0 && int(i) < len(s.from) && s.from[i] == b
}

// index returns b's index in s.bodies, gathering b first if no arbiter
// has reached it yet.
func (s *contactSolver) index(b *Body) int32 {
	if i, ok := s.slot(b); ok {
		return i
	}
	s.bodies = append(s.bodies, solverBody{b.v, b.v_bias, b.w, b.w_bias, b.m_inv, b.i_inv})
	s.from = append(s.from, b)
	b.solverSlot = int32(len(s.bodies))
	return b.solverSlot - 1
}

// gather fills the slices from the arbiters, and applies each one's
// cached impulses (as Arbiter.ApplyCachedImpulse, in the arbiters' order)
// once its bodies are gathered: a body's first arbiter finds it as the
// velocities' integration left it.
func (s *contactSolver) gather(arbiters []*Arbiter, dtCoef float64) {
	s.bodies, s.from = s.bodies[:0], s.from[:0]
	s.arbiters, s.contacts = s.arbiters[:0], s.contacts[:0]
	for _, arb := range arbiters {
		first := int32(len(s.contacts))
		for i := range arb.count {
			c := &arb.contacts[i]
			s.contacts = append(s.contacts, solverContact{
				r1: c.r1, r2: c.r2,
				nMass: c.nMass, tMass: c.tMass,
				bounce: c.bounce, bias: c.bias,
				jnAcc: c.jnAcc, jtAcc: c.jtAcc, jBias: c.jBias,
			})
		}
		sa := solverArbiter{
			a: s.index(arb.body_a), b: s.index(arb.body_b),
			first: first, end: int32(len(s.contacts)),
			n: arb.n, surfaceVr: arb.surface_vr, u: arb.u,
		}
		s.arbiters = append(s.arbiters, sa)
		if arb.IsFirstContact() {
			continue
		}
		a, b := &s.bodies[sa.a], &s.bodies[sa.b]
		for i := sa.first; i < sa.end; i++ {
			con := &s.contacts[i]
			j := sa.n.Rotate(Vector{con.jnAcc, con.jtAcc})
			solverApplyImpulses(a, b, con.r1, con.r2, j.Mult(dtCoef))
		}
	}
}

// share lists the gathered bodies that constraints touch too.
func (s *contactSolver) share(constraints []*Constraint) {
	s.shared = s.shared[:0]
	for _, c := range constraints {
		if i, ok := s.slot(c.a); ok {
			s.shared = append(s.shared, i)
		}
		if i, ok := s.slot(c.b); ok {
			s.shared = append(s.shared, i)
		}
	}
}

// store writes the shared bodies' velocities back into the bodies, for the
// constraints to read.
func (s *contactSolver) store() {
	for _, i := range s.shared {
		sb, b := &s.bodies[i], s.from[i]
		b.v, b.v_bias, b.w, b.w_bias = sb.v, sb.vBias, sb.w, sb.wBias
	}
}

// load reads the shared bodies' velocities again, as the constraints left
// them.
func (s *contactSolver) load() {
	for _, i := range s.shared {
		sb, b := &s.bodies[i], s.from[i]
		sb.v, sb.vBias, sb.w, sb.wBias = b.v, b.v_bias, b.w, b.w_bias
	}
}

// applyImpulses is one iteration of Arbiter.ApplyImpulse over every
// arbiter, in order.
func (s *contactSolver) applyImpulses() {
	bodies, contacts := s.bodies, s.contacts
	for k := range s.arbiters {
		sa := &s.arbiters[k]
		a, b := &bodies[sa.a], &bodies[sa.b]
		n := sa.n
		surfaceVr := sa.surfaceVr
		friction := sa.u

		for i := sa.first; i < sa.end; i++ {
			con := &contacts[i]
			nMass := con.nMass
			r1 := con.r1
			r2 := con.r2

			vb1 := a.vBias.Add(r1.Perp().Mult(a.wBias))
			vb2 := b.vBias.Add(r2.Perp().Mult(b.wBias))
			vr := r2.Perp().Mult(b.w).Add(b.v).Sub(r1.Perp().Mult(a.w).Add(a.v)).Add(surfaceVr) // relative_velocity

			vbn := vb2.Sub(vb1).Dot(n)
			vrn := vr.Dot(n)
			vrt := vr.Dot(n.Perp())

			jbn := float64((con.bias - vbn) * nMass)
			jbnOld := con.jBias
			con.jBias = maxZero(jbnOld + jbn)

			jn := float64(-(con.bounce + vrn) * nMass)
			jnOld := con.jnAcc
			con.jnAcc = maxZero(jnOld + jn)

			jtMax := float64(friction * con.jnAcc)
			jt := float64(-vrt * con.tMass)
			jtOld := con.jtAcc
			con.jtAcc = clamp(jtOld+jt, -jtMax, jtMax)

			// apply_bias_impulses and apply_impulses, written out (the
			// compiler would not inline them).
			j := n.Mult(con.jBias - jbnOld)
			b.vBias.X += float64(j.X * b.mInv)
			b.vBias.Y += float64(j.Y * b.mInv)
			b.wBias += float64(b.iInv * (float64(r2.X*j.Y) - float64(r2.Y*j.X)))
			j.X, j.Y = -j.X, -j.Y
			a.vBias.X += float64(j.X * a.mInv)
			a.vBias.Y += float64(j.Y * a.mInv)
			a.wBias += float64(a.iInv * (float64(r1.X*j.Y) - float64(r1.Y*j.X)))

			j = n.Rotate(Vector{con.jnAcc - jnOld, con.jtAcc - jtOld})
			b.v.X += float64(j.X * b.mInv)
			b.v.Y += float64(j.Y * b.mInv)
			b.w += float64(b.iInv * (float64(r2.X*j.Y) - float64(r2.Y*j.X)))
			j.X, j.Y = -j.X, -j.Y
			a.v.X += float64(j.X * a.mInv)
			a.v.Y += float64(j.Y * a.mInv)
			a.w += float64(a.iInv * (float64(r1.X*j.Y) - float64(r1.Y*j.X)))
		}
	}
}

// scatter writes the velocities back into the bodies and the accumulated
// impulses into the arbiters' contacts, and clears the bodies' slots.
func (s *contactSolver) scatter(arbiters []*Arbiter) {
	for i, b := range s.from {
		sb := &s.bodies[i]
		b.v, b.v_bias, b.w, b.w_bias = sb.v, sb.vBias, sb.w, sb.wBias
		b.solverSlot = 0
	}
	for k, arb := range arbiters {
		sa := &s.arbiters[k]
		for i := range arb.count {
			c, sc := &arb.contacts[i], &s.contacts[int(sa.first)+i]
			c.jnAcc, c.jtAcc, c.jBias = sc.jnAcc, sc.jtAcc, sc.jBias
		}
	}
}

// solverApplyImpulses is apply_impulses on solver bodies.
func solverApplyImpulses(a, b *solverBody, r1, r2, j Vector) {
	b.v.X += float64(j.X * b.mInv)
	b.v.Y += float64(j.Y * b.mInv)
	b.w += float64(b.iInv * (float64(r2.X*j.Y) - float64(r2.Y*j.X)))

	j.X = -j.X
	j.Y = -j.Y
	a.v.X += float64(j.X * a.mInv)
	a.v.Y += float64(j.Y * a.mInv)
	a.w += float64(a.iInv * (float64(r1.X*j.Y) - float64(r1.Y*j.X)))
}

// maxZero is max(x, 0), the same bits for every x (NaN too), with a branch
// where the builtin takes a longer chain of instructions: x > 0 gives x,
// x <= 0 (-0 too) gives +0.
func maxZero(x float64) float64 {
	if x > 0 {
		return x
	}
	if x <= 0 {
		return 0
	}
	return max(x, 0)
}

// clamp is Clamp, the same bits for every f, lo and hi, with min called
// only where a comparison does not decide it.
func clamp(f, lo, hi float64) float64 {
	if f > lo {
		if f < hi {
			return f
		}
		return min(f, hi)
	}
	if lo < hi {
		return lo
	}
	return min(lo, hi)
}
