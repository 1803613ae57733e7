package devtools

import (
	"sync"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A step back (the comma key) further than the keyframes reach re-runs the
// run, and the scene is made anew: so that the developer's view stays as it was, the overlay's and the
// inspector's visibility and the picked entity are carried over to the dev
// tools the re-run makes (the re-run makes the same entities, so the picked
// one is the same entity again).

// view is what a step back carries over.
type view struct {
	overlay, inspector bool
	sel                donburi.Entity
}

var (
	carriedMu sync.Mutex
	carried   = map[*engine.Loop]view{}
)

// carry keeps the dev tools' view of loop for the scenes its rewind makes.
func carry(loop *engine.Loop, overlay *Overlay, ins *Inspector) {
	var v view
	if overlay != nil {
		v.overlay = overlay.Visible()
	}
	if ins != nil {
		v.inspector = ins.Visible()
		v.sel, _ = ins.Selected()
	}
	carriedMu.Lock()
	carried[loop] = v
	carriedMu.Unlock()
}

// CarryOver gives dev tools made for loop during a step back's re-run the
// view the tools had when the step back was asked for: the overlay and the
// inspector shown or hidden as they were, the same entity picked. Outside
// a re-run it does nothing. stage.New calls it.
func CarryOver(loop *engine.Loop, overlay *Overlay, ins *Inspector) {
	if !loop.Rewinder().Active() {
		return
	}
	carriedMu.Lock()
	v, ok := carried[loop]
	carriedMu.Unlock()
	if !ok {
		return
	}
	if overlay != nil {
		overlay.SetVisible(v.overlay)
	}
	if ins != nil {
		ins.SetVisible(v.inspector)
		ins.Select(v.sel)
	}
}
