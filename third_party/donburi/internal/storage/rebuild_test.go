package storage

import "testing"

// A component type first stored in an archetype at twice the storage's
// length or past it (a world of more than 512 archetypes) is stored there,
// where upstream panicked, index out of range: its storage grows until the
// index fits, when a value is pushed or moved there.
func TestStorageGrowsToAnyArchetype(t *testing.T) {
	ct := NewMockComponentType(struct{ N int }{}, nil)
	pushed := NewStorage()
	pushed.PushComponent(ct, 600)
	moved := NewStorage()
	moved.PushComponent(ct, 0)
	moved.MoveComponent(0, 0, 1100)
	if len(pushed.Column(600)) != 1 || len(moved.Column(1100)) != 1 || len(moved.Column(0)) != 0 {
		t.Fatalf("columns: %d pushed at 600, %d moved to 1100, %d left at 0",
			len(pushed.Column(600)), len(moved.Column(1100)), len(moved.Column(0)))
	}
}
