package core

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
)

// Keep adds *p to the state the stage saves and restores with its world:
// state a scene keeps outside components, such as a random source
// (core.Keep(st, pcg) for the *rand.PCG under a rand.Rand), a counter or
// a flag of the scene's struct. Without it, -synctest finds the scene
// nondeterministic (its roll-backs would leave that state as it was), and
// a step back from a keyframe (engine.Options.Keyframes) leaves it as it
// is. A save holds it too (Stage.AppendState writes it). The value is
// copied as a Go assignment copies it: a slice the scene changes in place
// goes in with KeepSlice. Call it while building the scene.
//
// What is kept is the game's state: changed by the scene's update systems
// only, on Update events, because that is all a rollback repeats. A
// tick-input source (engine.TickInput: an autopilot, a bot) is the player,
// not the game: a rollback restores what is kept and gives the ticks it
// simulates again their recorded input without asking the source again,
// so a source's own state (its random source, its plan) must not be kept
// here. The stage refuses one that is: a kept value that changes while the
// loop asks a source for a tick's input ends the run with an error naming
// the source, the value's type and the line that kept it. The sync test
// (engine.Options.SyncTest) compares every kept value, as well as the
// world, after the ticks it simulates again, and names those that differ
// (see state.ValueHasher for how a kept value is compared; kept values
// are not in the state checksum a recording stores).
func Keep[T any](s *Stage, p *T) {
	s.keepers = append(s.keepers, &keptValue[T]{p: p, where: keptWhere(reflect.TypeFor[T]())})
}

// KeepSlice is Keep for a slice the scene changes in place: its contents
// are saved, not only its length.
func KeepSlice[E any](s *Stage, p *[]E) {
	s.keepers = append(s.keepers, &keptSlice[E]{p: p, where: keptWhere(reflect.TypeFor[[]E]())})
}

// A keeper saves a piece of a scene's state into numbered slots and puts
// it back from them, hashes it, and names it.
type keeper interface {
	save(slot int)
	restore(slot int)
	sum(h *state.ValueHasher) uint64
	name() string // its type and where it was kept: "rand.PCG (kept at arena/arena.go:291)"

	// appendBytes and readBytes write the value as bytes and read it back
	// (state.AppendValue): the stage's state as bytes (bytes.go);
	// checkBytes reads them into a value of its own.
	appendBytes(b []byte) ([]byte, error)
	readBytes(b []byte) ([]byte, error)
	checkBytes(b []byte) ([]byte, error)
}

type keptValue[T any] struct {
	p     *T
	slots []T
	where string
}

func (k *keptValue[T]) save(slot int) {
	if slot >= len(k.slots) {
		k.slots = slices.Grow(k.slots, slot+1-len(k.slots))[:slot+1]
	}
	k.slots[slot] = *k.p
}

func (k *keptValue[T]) restore(slot int)                { *k.p = k.slots[slot] }
func (k *keptValue[T]) sum(h *state.ValueHasher) uint64 { return state.SumValue(h, k.p) }
func (k *keptValue[T]) name() string                    { return k.where }
func (k *keptValue[T]) appendBytes(b []byte) ([]byte, error) {
	return state.AppendValue(b, k.p, nil)
}
func (k *keptValue[T]) readBytes(b []byte) ([]byte, error) { return state.ReadValue(b, k.p, nil) }
func (k *keptValue[T]) checkBytes(b []byte) ([]byte, error) {
	var v T
	return state.ReadValue(b, &v, nil)
}

type keptSlice[E any] struct {
	p     *[]E
	slots [][]E
	where string
}

func (k *keptSlice[E]) save(slot int) {
	if slot >= len(k.slots) {
		k.slots = slices.Grow(k.slots, slot+1-len(k.slots))[:slot+1]
	}
	k.slots[slot] = append(k.slots[slot][:0], *k.p...)
}

func (k *keptSlice[E]) restore(slot int)                { *k.p = append((*k.p)[:0], k.slots[slot]...) }
func (k *keptSlice[E]) sum(h *state.ValueHasher) uint64 { return state.SumValue(h, k.p) }
func (k *keptSlice[E]) name() string                    { return k.where }
func (k *keptSlice[E]) appendBytes(b []byte) ([]byte, error) {
	return state.AppendValue(b, k.p, nil)
}
func (k *keptSlice[E]) readBytes(b []byte) ([]byte, error) { return state.ReadValue(b, k.p, nil) }
func (k *keptSlice[E]) checkBytes(b []byte) ([]byte, error) {
	var v []E
	return state.ReadValue(b, &v, nil)
}

// stagePkgs are the packages whose frames keptWhere skips to find the
// line that called Keep: this one and package stage, which wraps it.
var stagePkgs = func() [2]string {
	core := reflect.TypeFor[Stage]().PkgPath()
	return [2]string{core + ".", strings.TrimSuffix(core, "/core") + "."}
}()

// keptWhere names a kept value of type t by its type and the line outside
// the stage's packages that kept it.
func keptWhere(t reflect.Type) string {
	var pcs [16]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, stagePkgs[0]) && !strings.HasPrefix(f.Function, stagePkgs[1]) {
			return fmt.Sprintf("%s (kept at %s/%s:%d)", t, filepath.Base(filepath.Dir(f.File)), filepath.Base(f.File), f.Line)
		}
		if !more {
			return t.String()
		}
	}
}

// keptSums appends the sum of every kept value to dst.
func (s *Stage) keptSums(dst []uint64) []uint64 {
	if len(s.keepers) == 0 {
		return dst
	}
	if s.keptHash == nil {
		s.keptHash = state.NewValueHasher()
	}
	for _, k := range s.keepers {
		dst = append(dst, k.sum(s.keptHash))
	}
	return dst
}

// keptDiffer names the kept values whose sums differ between a and b.
func (s *Stage) keptDiffer(a, b []uint64) []string {
	var names []string
	for i, k := range s.keepers {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			names = append(names, k.name())
		}
	}
	return names
}

// BeforeSample and AfterSample make the stage's engine.SceneState an
// engine.SamplerCheck: a kept value that changes while the loop asks a
// tick-input source for a tick's input is the source's state, which a
// rollback would restore without asking the source again (see Keep).
// Under the sync test, which hashes the world many times a tick already,
// a source that changes the world is refused as well.
func (k *sceneState) BeforeSample() {
	s := k.s
	k.sampled = s.keptSums(k.sampled[:0])
	if s.sync != nil {
		k.world = s.checksum()
		k.parts = s.sync.parts(s, k.parts[:0])
	}
}

func (k *sceneState) AfterSample(src engine.TickInput, t engine.TickInfo) error {
	s := k.s
	if s.sync != nil && s.checksum() != k.world {
		var changed []string
		if s.State != nil {
			for _, p := range s.State.ComponentSums() {
				i := slices.IndexFunc(k.parts, func(w state.ComponentSum) bool { return w.Name == p.Name })
				if i < 0 || k.parts[i].Sum != p.Sum {
					changed = append(changed, p.Name)
				}
			}
		}
		return fmt.Errorf("stage: synctest: the tick-input source %T changed the world (component types %s) while "+
			"the loop asked it for the input of tick %d of group %s: a source may read the game's state, not change "+
			"it: a rollback restores the world and does not ask the source again (see engine.TickInput)",
			src, strings.Join(changed, ", "), t.Tick, s.groupName(t.Group))
	}
	if len(s.keepers) == 0 {
		return nil
	}
	k.after = s.keptSums(k.after[:0])
	if slices.Equal(k.sampled, k.after) {
		return nil
	}
	return fmt.Errorf("stage: the tick-input source %T changed %s while the loop asked it for the input of tick %d "+
		"of group %s: a source must not keep its state with Keep. It is the player, not the game: a rollback "+
		"(-synctest, a step back from a keyframe, a networked run's) restores what is kept and gives the ticks it "+
		"simulates again their recorded input without asking the source again, whose next answers would then come "+
		"from the state it had before, taking the run elsewhere; keep the source's state in the source alone "+
		"(see engine.TickInput)", src, strings.Join(s.keptDiffer(k.sampled, k.after), ", "), t.Tick, s.groupName(t.Group))
}

// groupName names group g for a message: its name, quoted.
func (s *Stage) groupName(g int) string {
	if gs := s.Sched.Groups(); g >= 0 && g < len(gs) {
		return fmt.Sprintf("%q", gs[g].Name)
	}
	return fmt.Sprint(g)
}
