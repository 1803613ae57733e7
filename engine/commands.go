package engine

import "github.com/fixedstep/fixedstep/third_party/donburi"

// Commands are structural changes (entities removed, spawned, given or
// stripped of components) asked for while a system iterates the world
// and made after it returns, when no query is under way: the deferred way
// to change the world from inside a donburi query, which is safe only for
// some changes (see donburi.Query.Iter).
//
// A scheduler's own Commands ([Scheduler.Commands]) are applied right
// after each system returns, before the next system runs (and before the
// desync bisector's probe looks): the defined point of the tick at which
// a system's changes take effect. So they never wait past a tick's end,
// and a snapshot, a rollback or a replay never meets a queued change. A
// Commands of one's own is applied with Apply wherever the game chooses.
//
// Commands are applied in the order they were queued; a command may
// queue more, applied in the same Apply after it. Remove allocates
// nothing once the queue has grown; Do keeps f, and a closure that
// captures variables is allocated where it is made, so a hot path queues
// a method value made once, or reads its data from the world.
type Commands struct {
	ops []command
}

// command is a removal (do nil) or a function.
type command struct {
	remove donburi.Entity
	do     func(w donburi.World)
}

// Remove queues the removal of entity e. An entity that is no longer
// valid when the removal is applied (removed twice, or its id reused: the
// version differs) is left alone.
func (c *Commands) Remove(e donburi.Entity) { c.ops = append(c.ops, command{remove: e}) }

// Do queues f, called with the world when the commands are applied: a
// spawn, a component added or removed. A nil f is ignored.
func (c *Commands) Do(f func(w donburi.World)) {
	if f != nil {
		c.ops = append(c.ops, command{do: f})
	}
}

// Len returns the number of commands queued.
func (c *Commands) Len() int { return len(c.ops) }

// Apply makes the queued changes to w, in order, and empties the queue.
func (c *Commands) Apply(w donburi.World) {
	for i := 0; i < len(c.ops); i++ { // a command may queue more
		op := c.ops[i]
		c.ops[i] = command{}
		if op.do != nil {
			op.do(w)
		} else if w.Valid(op.remove) {
			w.Remove(op.remove)
		}
	}
	c.ops = c.ops[:0]
}

// Commands returns the scheduler's commands, which it applies after every
// system it runs returns (see [Commands]): a system captures them when it
// is built and queues removals and spawns during its queries.
func (s *Scheduler) Commands() *Commands {
	if s.cmds == nil {
		s.cmds = &Commands{}
	}
	return s.cmds
}
