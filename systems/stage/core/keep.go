package core

import "slices"

// Keep adds *p to the state the stage saves and restores with its world:
// state a scene keeps outside components, such as a random source
// (core.Keep(st, pcg) for the *rand.PCG under a rand.Rand), a counter or
// a flag of the scene's struct. Without it, -synctest finds the scene
// nondeterministic (its roll-backs would leave that state as it was), and
// a step back from a keyframe (engine.Options.Keyframes) leaves it as it
// is. A save needs nothing: a load simulates the run again. The value is
// copied as a Go assignment copies it: a slice the scene changes in place
// goes in with KeepSlice. Call it while building the scene.
func Keep[T any](s *Stage, p *T) { s.keepers = append(s.keepers, &keptValue[T]{p: p}) }

// KeepSlice is Keep for a slice the scene changes in place: its contents
// are saved, not only its length.
func KeepSlice[E any](s *Stage, p *[]E) { s.keepers = append(s.keepers, &keptSlice[E]{p: p}) }

// A keeper saves a piece of a scene's state into numbered slots and puts
// it back from them.
type keeper interface {
	save(slot int)
	restore(slot int)
}

type keptValue[T any] struct {
	p     *T
	slots []T
}

func (k *keptValue[T]) save(slot int) {
	if slot >= len(k.slots) {
		k.slots = slices.Grow(k.slots, slot+1-len(k.slots))[:slot+1]
	}
	k.slots[slot] = *k.p
}

func (k *keptValue[T]) restore(slot int) { *k.p = k.slots[slot] }

type keptSlice[E any] struct {
	p     *[]E
	slots [][]E
}

func (k *keptSlice[E]) save(slot int) {
	if slot >= len(k.slots) {
		k.slots = slices.Grow(k.slots, slot+1-len(k.slots))[:slot+1]
	}
	k.slots[slot] = append(k.slots[slot][:0], *k.p...)
}

func (k *keptSlice[E]) restore(slot int) { *k.p = append((*k.p)[:0], k.slots[slot]...) }
