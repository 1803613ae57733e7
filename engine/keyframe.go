package engine

import (
	"fmt"
	"slices"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
)

// Keyframes: a rewind in constant time. A scene that can save and restore
// its simulation state (a [SceneState]: stage.Stage is one) gives it to the
// loop, and with Options.Keyframes the loop takes a keyframe every that
// many ticks of the first group: the scene's state in a numbered slot, and
// the loop's own (every group's tick counters, due times and pending
// input, the recording's and the replay's cursors). A step back restores
// the last keyframe at or before the tick it goes to and simulates again,
// from the recording, the ticks after it (fewer than Options.Keyframes):
// its cost does not grow with the game's length, and the scene's setup
// code does not run again. The last KeyframeSlots keyframes are kept, in a
// ring whose memory is reused once it has gone round (until then each new
// slot allocates its snapshot's memory); a step back further than they
// reach re-runs the run from its first scene, as without keyframes.

const (
	// DefaultKeyframes is the keyframe spacing cli.App gives a window run:
	// a second at 60 Hz. A step back then simulates at most 59 ticks again.
	DefaultKeyframes = 60
	// MaxKeyframes is the largest Options.Keyframes.
	MaxKeyframes = 3600
	// KeyframeSlots is how many keyframes a timeline keeps: with
	// DefaultKeyframes, the last 16 seconds at 60 Hz are a step back in
	// constant time.
	KeyframeSlots = 16
	// KeyframeMaxBytes bounds the ring's memory, and each keyframe's cost:
	// a keyframe larger than KeyframeMaxBytes/KeyframeSlots (4 MiB: a world
	// of some 2,000 awake balls, BenchmarkPhysicsSnapshot; a snapshot's
	// time grows faster than its size once it outgrows the cache) ends
	// keyframes for the timeline, so that they never cost a frame; a step
	// back then re-runs the run. The size decides, not the time a
	// keyframe took, so that the same run keeps the same keyframes on a
	// busy machine. It needs the SceneState to say its size (a StateSizer).
	KeyframeMaxBytes = 64 << 20
)

// A StateSizer is a SceneState that says how many bytes a slot holds, so
// that the loop keeps its keyframes' memory under KeyframeMaxBytes.
// stage.Stage's is one.
type StateSizer interface {
	StateBytes(slot int) int
}

// A SceneState saves a scene's whole simulation state into numbered slots
// in memory (0 to KeyframeSlots-1) and puts it back from them, exactly:
// after RestoreState(k) the next ticks give, checksum for checksum, what
// they gave after SaveState(k). It is everything the scene's update
// systems read: its world, its physics, the state it keeps outside them
// (random sources, counters). A slot is saved again and again; saving
// into it should reuse its memory. Both are called between events, on the
// loop's goroutine; an error fails the loop.
type SceneState interface {
	SaveState(slot int) error
	RestoreState(slot int) error
}

// SetSceneState gives the loop the scene's state, for keyframes (see
// Options.Keyframes): [Rewinder.Back] then restores one and simulates the few
// ticks after it again, instead of re-running the run. [Run] clears it
// before each scene. stage.Stage sets it.
func (r Recording) SetSceneState(s SceneState) {
	r.l.rec.state = s
	r.l.rec.keys.clear()
}

// keyframe is the loop's side of one keyframe: taken before tick `tick`+1
// of the first group.
type keyframe struct {
	tick    int64
	groups  []group
	logged  []input.State
	cursors []inputlog.Cursor
	mark    inputlog.Mark // where the run's recording stood, when it records

	checkNext  int
	checkSince int64
	replayed   ReplayReport
	bisCursor  []int
	partCur    int
}

// keyframes is a timeline's ring of keyframes, oldest first from `first`.
type keyframes struct {
	ring    []keyframe
	first   int   // the oldest keyframe's slot
	n       int   // keyframes held
	stopped error // why keyframes stopped in this timeline (too slow, too big)
}

func (k *keyframes) clear() { k.first, k.n, k.stopped = 0, 0, nil }

// KeyframesStopped returns why the loop stopped taking keyframes in the
// current timeline (a keyframe too large: see KeyframeMaxBytes), nil while
// it takes them. A step back
// past the keyframes it holds re-runs the run.
func (r Rewinder) KeyframesStopped() error { return r.l.rec.keys.stopped }

// dropAfter forgets the keyframes taken after tick `tick` of the first
// group: a session's rollback to the tick after it made them wrong.
func (k *keyframes) dropAfter(tick int64) {
	for k.n > 0 && k.ring[k.slot(k.n-1)].tick > tick {
		k.n--
	}
}

// slot returns the slot of the i-th keyframe held, oldest first.
func (k *keyframes) slot(i int) int { return (k.first + i) % KeyframeSlots }

// newest returns the newest keyframe, nil when none is held.
func (k *keyframes) newest() *keyframe {
	if k.n == 0 {
		return nil
	}
	return &k.ring[k.slot(k.n-1)]
}

// at returns the slot of the newest keyframe at or before tick `tick`, or
// -1 when every keyframe held is later.
func (k *keyframes) at(tick int64) int {
	for i := k.n - 1; i >= 0; i-- {
		if k.ring[k.slot(i)].tick <= tick {
			return i
		}
	}
	return -1
}

// maybeKeyframe takes a keyframe before the first group's next tick, when
// one is due: the scene has handled every event before it.
func (r *recorder) maybeKeyframe() error {
	l := r.loop
	t := l.groups[0].ticks
	k := &r.keys
	if r.state == nil || l.keyframes == 0 || t%l.keyframes != 0 || r.seek != nil || k.stopped != nil {
		return nil
	}
	if last := k.newest(); last != nil && last.tick >= t {
		return nil
	}
	if k.ring == nil {
		k.ring = make([]keyframe, KeyframeSlots)
	}
	if k.n == KeyframeSlots { // the oldest goes
		k.first = (k.first + 1) % KeyframeSlots
		k.n--
	}
	slot := k.slot(k.n)
	if err := r.state.SaveState(slot); err != nil {
		return fmt.Errorf("engine: keyframe before tick %d of group %q: %w", t+1, l.groups[0].Name, err)
	}
	if sz, ok := r.state.(StateSizer); ok && sz.StateBytes(slot) > KeyframeMaxBytes/KeyframeSlots {
		k.stopped = fmt.Errorf("engine: keyframes stopped: the one after tick %d holds %d KiB, more than %d KiB",
			t, sz.StateBytes(slot)>>10, KeyframeMaxBytes/KeyframeSlots>>10)
	}
	kf := &k.ring[slot]
	kf.tick = t
	kf.groups = append(kf.groups[:0], l.groups...)
	kf.logged = append(kf.logged[:0], r.logged...)
	kf.cursors = append(kf.cursors[:0], r.cursors...)
	if r.record != nil {
		r.record.log.Mark(&kf.mark, r.progress())
	}
	kf.checkNext, kf.checkSince = r.checkNext, r.checkSince
	if r.replay != nil {
		kf.replayed = r.replay.replayed
	}
	kf.bisCursor = append(kf.bisCursor[:0], r.bisect.cursor...)
	kf.partCur = r.bisect.partCur
	k.n++
	return nil
}

// keyframeFor reports whether a keyframe at or before tick `tick` of the
// first group is held, for a rewind there.
func (r *recorder) keyframeFor(tick int64) bool { return r.state != nil && r.keys.at(tick) >= 0 }

// restoreKeyframe starts the rewind asked for from the newest keyframe at
// or before its tick: the scene's state and the loop's are put back, the
// keyframes after it dropped, the run's recording cut back to it, and the
// ticks from there to the target are simulated again in this frame from
// the recording (the run's own, or the one replayed), which checks their
// checksums on the way. The loop pauses there (see seekFrameDone).
func (r *recorder) restoreKeyframe() error {
	l, t := r.loop, *r.rewind
	r.rewind = nil
	k := &r.keys
	i := k.at(t.tick)
	slot := k.slot(i)
	kf := &k.ring[slot]
	k.n = i + 1
	if err := r.state.RestoreState(slot); err != nil {
		return fmt.Errorf("engine: rewind: restoring the keyframe after tick %d: %w", kf.tick, err)
	}
	copy(l.groups, kf.groups)
	copy(r.logged, kf.logged)
	if t.live {
		tail := r.record.log.CutTo(&kf.mark)
		at := l.groups[0].rate.Due(t.tick)
		for g := range l.groups {
			tail.Ticks[g] = l.groups[g].rate.TicksAt(at)
		}
		r.cursors = slices.Grow(r.cursors[:0], len(tail.Input))[:len(tail.Input)]
		for i := range tail.Input {
			r.cursors[i].Resume(tail.Input[i], kf.mark.Last(i), kf.logged[i])
		}
		r.replay, r.replayed, r.checkNext = &InputLog{}, tail, 0
	} else {
		if r.record != nil {
			r.record.log.CutTo(&kf.mark)
		}
		copy(r.cursors, kf.cursors)
		r.checkNext, r.replay.replayed = kf.checkNext, kf.replayed
	}
	r.ending, r.checkSince = replaying, kf.checkSince
	r.checkRecord, r.checkReplay = false, false
	copy(r.bisect.cursor, kf.bisCursor)
	r.bisect.partCur = kf.partCur
	r.bisect.beginTick()
	g := &l.groups[0]
	l.gameTime, l.tickedUntil = g.rate.Due(t.tick), g.lastDue
	r.seek = &t
	return nil
}
