package engine

import (
	"errors"
	"fmt"
)

// States for a session's newcomers. A session whose peers can join it
// under way (netplay's host: a player who takes its seat back, a
// spectator who comes late) asks the loop for the state after a final
// tick as bytes, and sends it, so that the newcomer begins there
// (Options.FromState) rather than simulating the session from its start.

// A StateAsker is a Session that asks for the state after a final tick as
// a state file (Recording.AppendState's). The loop asks WantsState as a
// frame begins, after Poll; when it reports true, the loop gives the
// session the state after the last final tick of the scene running (for
// a Reporter, whose checksums the other players' agreed with; with
// Options.SparseSaving, of the last final tick whose state is kept)
// (GiveState), or the error that says why it has none to give: a scene
// that gives no state as bytes, a scene after the first in a run whose
// first scene does not make it afresh (no SceneMaker, or one whose
// SceneFor refuses its name: what a later scene was handed by the scenes
// before is a value of the game's code, not state), or a timeline its
// scene started again. The state says the scene's name and the session's ticks
// before it (StateInfo.Before), so that a newcomer whose first scene is a
// SceneMaker begins there too. When the last final tick is behind the
// ticks run, the loop goes back to it as a rollback does, writes the
// state, and runs the ticks after it again in the same frame
// (LoopSession.Resimulating reports true for them). Before the scene's
// first tick is final it waits.
type StateAsker interface {
	Session
	WantsState() bool
	GiveState(tick int64, state []byte, err error)
}

// giveState gives a StateAsker that wants one the state after the last
// final tick. It reports false when the loop failed.
func (n *netplay) giveState(l *Loop) bool {
	sa, ok := n.session.(StateAsker)
	if !ok || n.report != nil || !sa.WantsState() {
		return true
	}
	if why := n.noState(l); why != nil {
		sa.GiveState(0, nil, why)
		return true
	}
	now := n.global(l.groups[0].ticks)
	final := min(n.session.Confirmed(), now)
	if t, wrong := n.session.Rollback(); wrong {
		final = min(final, t-1)
	}
	if rep, ok := n.session.(Reporter); ok {
		final = min(final, rep.Compared()) // a state the other players' checksums agreed with
	}
	if final <= n.base || l.rec.from != nil {
		return true // nothing final yet in the scene: asked again next frame
	}
	if final < now {
		// The state before the tick after it, or with Options.SparseSaving
		// the last one kept before that: the state after a final tick too.
		from, ok := n.keptFrom(final + 1)
		if !ok || from-1 <= n.base {
			if now-final < RollbackSlots {
				return true // not kept: a tick ran with every input confirmed; later, one will be
			}
			sa.GiveState(0, nil, errors.New("the state of the last final tick is no longer kept"))
			return true
		}
		if !n.restore(l, from) {
			return false
		}
		final = from - 1
	}
	b, err := l.appendState(nil)
	sa.GiveState(final, b, err)
	return true
}

// noState says why the loop has no state to give a joiner under way, or
// returns nil: its scene gives no state as bytes; or a joiner could not
// begin from it, as it is of a scene after the first that the first does
// not make afresh (with no SceneMaker, or one that makes no scene of its
// name), or of a timeline its scene started again.
func (n *netplay) noState(l *Loop) error {
	if _, writes := l.rec.state.(StateWriter); !writes {
		return fmt.Errorf("scene %s gives the loop no state as bytes (a StateWriter)", l.sceneName)
	}
	if l.rec.again {
		return fmt.Errorf("scene %s runs a timeline it started again (Loop.Start): a run begins from a state of a scene's first timeline only", l.sceneName)
	}
	if l.scenes == 1 {
		return nil
	}
	if n.maker == nil {
		return fmt.Errorf("the run is in its scene %d (%s), and its first scene makes no later scene afresh (an "+
			"engine.SceneMaker): a run begins from a state of its first scene only", l.scenes, l.sceneName)
	}
	if _, err := n.maker.SceneFor(l.sceneName); err != nil {
		return fmt.Errorf("the run is in its scene %d (%s), which its first scene does not make afresh: %w", l.scenes, l.sceneName, err)
	}
	return nil
}
