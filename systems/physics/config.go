package physics

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// DefaultSpatialHashCells is the size of the spatial hash's table when
// Config.SpatialHashCells is 0.
const DefaultSpatialHashCells = 10_000

// A ConfigError names a Config field that is out of range.
type ConfigError struct {
	Field  string  // "Iterations", "SleepTimeThreshold", ...
	Value  float64 // its value
	Reason string  // what it must be
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("systems: Config.%s = %v: %s", e.Field, e.Value, e.Reason)
}

// Validate returns a *ConfigError naming the first field out of
// range, or nil: Gravity must be finite; Iterations, SleepTimeThreshold,
// IdleSpeedThreshold, SpatialHashCell, SpatialHashCells and CollisionSlop
// must be finite and not negative (0 is each one's default), Damping 0 to
// 1, and SpatialHashCells needs SpatialHashCell.
func (c Config) Validate() error {
	bad := func(field string, v float64, reason string) error {
		return &ConfigError{Field: field, Value: v, Reason: reason}
	}
	if !finite(c.Gravity.X) {
		return bad("Gravity.X", c.Gravity.X, "must be finite")
	}
	if !finite(c.Gravity.Y) {
		return bad("Gravity.Y", c.Gravity.Y, "must be finite")
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{
		{"Iterations", float64(c.Iterations)},
		{"SleepTimeThreshold", c.SleepTimeThreshold},
		{"IdleSpeedThreshold", c.IdleSpeedThreshold},
		{"SpatialHashCell", c.SpatialHashCell},
		{"SpatialHashCells", float64(c.SpatialHashCells)},
		{"CollisionSlop", c.CollisionSlop},
	} {
		if !finite(f.v) || f.v < 0 {
			return bad(f.name, f.v, "must be finite and not negative (0 is the default)")
		}
	}
	if !finite(c.Damping) || c.Damping < 0 || c.Damping > 1 {
		return bad("Damping", c.Damping, "must be 0 to 1 (0 is the default: none)")
	}
	if c.SpatialHashCells > 0 && c.SpatialHashCell == 0 {
		return bad("SpatialHashCells", float64(c.SpatialHashCells), "needs SpatialHashCell, the cell size, to use the spatial hash")
	}
	return nil
}

// apply sets up a new space as c says. c is valid.
func (c Config) apply(space *cp.Space) {
	space.SetGravity(c.Gravity)
	space.Iterations = 10
	if c.Iterations > 0 {
		space.Iterations = uint(c.Iterations)
	}
	if c.SleepTimeThreshold > 0 {
		space.SleepTimeThreshold = c.SleepTimeThreshold
	} else {
		space.SleepTimeThreshold = cp.INFINITY // cp's "never"
	}
	space.IdleSpeedThreshold = c.IdleSpeedThreshold // cp reads 0 as gravity's step
	if c.SpatialHashCell > 0 {
		cells := c.SpatialHashCells
		if cells == 0 {
			cells = DefaultSpatialHashCells
		}
		space.UseSpatialHash(c.SpatialHashCell, cells)
	}
	if c.CollisionSlop > 0 {
		space.SetCollisionSlop(c.CollisionSlop)
	}
	if c.Damping > 0 {
		space.SetDamping(c.Damping)
	}
}

// Sleeping returns how many of the world's bodies (those of entities with a
// Body and a Transform) are asleep: see Config.SleepTimeThreshold.
// It reads every body and allocates nothing.
func (p *Physics) Sleeping() int {
	n := 0
	for e := range p.moving.Iter(p.world) {
		if b := components.BodyC.Get(e).Body; b != nil && b.IsSleeping() {
			n++
		}
	}
	return n
}
