package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine/input"
)

// InputLog is the record of a run, made to replay it: for every scene
// timeline (each time a scene starts the loop, see [Loop.Start]) the scene's
// name and groups, the input every tick of every group saw (stored only
// where it changed), the game state's checksums, and the tick where the
// timeline ended and how; and for the whole run the seed and the settings it
// was started with.
//
// A log recorded at one frame rate replays to the same state at any other,
// because a replayed tick gets exactly the input its recording saw, and a
// replay ends where its recording ended, by itself:
//
//   - A replayed scene that reaches the tick where its recording's scene
//     returned must return too, by the end of that frame (or on the next
//     frame's Input event). One that runs on, or returns earlier, or is
//     another scene than the one recorded there, ends the replay with a
//     [*ReplayError] naming the scene, the group and the tick: it decided on
//     something a replay does not repeat (see the package doc's rule for
//     game decisions).
//   - Where the recording's loop stopped (the window closed, [Loop.Stop], a
//     headless limit, a cancelled context) or failed, or where a recording
//     cut short by a crash or a kill ends, the replay's loop stops by itself
//     at the same tick.
//
// A log also holds checksums of the game state: when a scene gives the loop
// a state hash ([Loop.SetChecksum]), recording stores its value every
// ChecksumEvery ticks of the scene's first group, and replaying compares the
// replayed state with it at the same ticks and stops at the first mismatch
// with a [*DivergenceError] naming the tick.
//
// Give a new log to [Options.Record] to fill it (and [InputLog.Create] to
// write it to a file as it is recorded, so that nothing is lost), and a
// loaded one to [Options.Replay] to play it back; a log records or replays
// one run. Recording appends to slices, so it allocates now and then
// (amortised); replaying does not allocate.
type InputLog struct {
	Seed uint64 // free for the game: the seed its run used

	// Settings are what else a replay needs to run as the recording did,
	// free for the game: its command-line flags, say (the App records
	// them). Keys and values are stored as they are, sorted by key.
	Settings map[string]string

	// ChecksumEvery is how many ticks of a scene's first group pass between
	// two state checksums when recording; 0 means 1 (every tick, so that a
	// replay names the exact tick where it diverged). A larger value makes
	// the file smaller (a checksum costs 10 bytes) and a divergence is then
	// known to lie between two checksums. Replaying uses the value each scene
	// was recorded with.
	ChecksumEvery int

	// Detail, when recording, also keeps what the desync bisector needs
	// (see Loop.Detailed): after every tick of every group, a 32-bit hash of
	// the state after each update system, and after every checked tick of
	// the first group a hash of each part of the state (each component
	// type). A replay that diverges then names the first system whose
	// effect differs and the component types that differ. It costs a state
	// hash per system per tick while recording and replaying, and about 5
	// bytes per system tick and 5 per component type per checked tick: some
	// 5 KB a second for the demo's Arena (3 systems at 60 Hz, 2 at 10 Hz,
	// 12 component types).
	Detail bool

	scenes   []logScene
	detailed bool     // the log holds detail (a loaded log)
	complete bool     // the recorded run ended (see Complete)
	file     *logFile // the file being written while recording, see Create
	replayed ReplayReport
}

// logScene is one timeline of a log.
type logScene struct {
	name   string
	groups []Group
	every  int64      // ticks of the first group between two checksums
	input  [][]byte   // per group: its entries (see appendEntry), in tick order
	inputN []int      // per group: how many entries
	last   []int64    // per group: the tick of its last entry
	checks []logCheck // the state checksums, by tick
	ticks  []int64    // per group: ticks run, as far as recorded
	end    SceneEnd
	err    string // with EndFailed: the error the loop failed with

	sys   []sysDetail // per group: the state after each system (Detail)
	parts partDetail  // the parts of the state after checked ticks (Detail)
}

// logCheck is the state checksum taken after tick `tick` of the first group.
type logCheck struct {
	tick int64
	sum  uint64
}

// SceneEnd says how a scene timeline of a recording ended.
type SceneEnd uint8

const (
	// EndNone: the recording was cut short (a crash or a kill) while the
	// timeline ran; it holds the timeline up to its last complete tick.
	EndNone SceneEnd = iota
	// EndReturned: the scene's Run returned (with the next scene, or nil).
	EndReturned
	// EndRestarted: the scene started a new timeline ([Loop.Start] again).
	EndRestarted
	// EndStopped: the loop stopped: the window closed, [Loop.Stop], a
	// headless limit or a cancelled context.
	EndStopped
	// EndFailed: the loop failed with an error ([Loop.Fail], a bad
	// configuration, a scene's error or panic).
	EndFailed
)

func (e SceneEnd) String() string {
	switch e {
	case EndNone:
		return "cut short"
	case EndReturned:
		return "returned"
	case EndRestarted:
		return "restarted"
	case EndStopped:
		return "stopped"
	case EndFailed:
		return "failed"
	}
	return fmt.Sprintf("SceneEnd(%d)", uint8(e))
}

// SceneRecord describes one scene timeline of a log.
type SceneRecord struct {
	Name   string  // the scene's name (see SceneName)
	Groups []Group // its rate groups
	Ticks  []int64 // ticks each group ran, to the end (or as far as recorded)
	End    SceneEnd
	Err    string // with EndFailed, the error

	Checks       int    // state checksums recorded
	Checksum     uint64 // the last of them
	ChecksumTick int64  // the first group's tick it was taken after
}

// Scenes returns how many scene timelines the log holds.
func (lg *InputLog) Scenes() int { return len(lg.scenes) }

// Scene returns scene timeline i (0 <= i < Scenes()).
func (lg *InputLog) Scene(i int) SceneRecord {
	s := &lg.scenes[i]
	r := SceneRecord{Name: s.name, Groups: slices.Clone(s.groups), Ticks: slices.Clone(s.ticks), End: s.end, Err: s.err,
		Checks: len(s.checks)}
	if n := len(s.checks); n > 0 {
		r.Checksum, r.ChecksumTick = s.checks[n-1].sum, s.checks[n-1].tick
	}
	return r
}

// Ticks returns how many ticks the log holds: the ticks of every scene's
// first group, summed.
func (lg *InputLog) Ticks() int64 {
	var n int64
	for i := range lg.scenes {
		if len(lg.scenes[i].ticks) > 0 {
			n += lg.scenes[i].ticks[0]
		}
	}
	return n
}

// Entries returns how many input changes the log holds over all scenes.
func (lg *InputLog) Entries() int {
	n := 0
	for i := range lg.scenes {
		for _, c := range lg.scenes[i].inputN {
			n += c
		}
	}
	return n
}

// Complete reports whether the log holds a whole run: the run ended (for a
// log read from a file, the file was closed), rather than being cut short by
// a crash or a kill.
func (lg *InputLog) Complete() bool { return lg.complete }

// String summarises the log: its scenes, their ticks and ends.
func (lg *InputLog) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenes, %d ticks", len(lg.scenes), lg.Ticks())
	if !lg.complete {
		b.WriteString(", cut short")
	}
	for i := range lg.scenes {
		s := &lg.scenes[i]
		fmt.Fprintf(&b, "; %s %v %s", s.name, s.ticks, s.end)
	}
	return b.String()
}

// ReplayReport is how far a replay of a log went.
type ReplayReport struct {
	Scenes  int   // scene timelines replayed
	Ticks   int64 // ticks of the scenes' first groups replayed
	Checked int64 // state checksums compared (a mismatch ends the replay with a *DivergenceError)
	// Finished: the replay reached the end of the recording: the tick where
	// its last scene ended, or where a recording cut short ends.
	Finished bool
}

// Replayed reports how far the last replay of the log went (see
// [Options.Replay]).
func (lg *InputLog) Replayed() ReplayReport { return lg.replayed }

// A DivergenceError ends a replay whose state differs from the recording:
// the state checksum the scene computed after tick Tick of its first group
// is not the one recorded there. The state first differed after tick Since
// (the last tick whose checksum matched, 0 if none did) and by tick Tick;
// with a checksum every tick (the default), Tick is the first diverging
// tick.
//
// A recording with Detail says more (the desync bisector): System is the
// first update system after which the state differed (in tick SystemTick of
// group SystemGroup, at or before Tick), and Components the component types
// (parts of the state) that differ after Tick. Dump is where the replayed
// state at Tick was written, when it was (Options.OnDivergence).
type DivergenceError struct {
	Scene    int    // the scene's timeline in the log, from 1
	Name     string // the scene's name
	Group    string // the first group's name
	Tick     int64  // the tick whose checksum differs
	Since    int64  // the last tick whose checksum matched, 0 if none
	Recorded uint64 // the checksum in the log
	Replayed uint64 // the checksum of the replayed state

	System      string
	SystemGroup string
	SystemTick  int64
	Components  []string
	Dump        string
}

func (e *DivergenceError) Error() string {
	where := fmt.Sprintf("at tick %d", e.Tick)
	if e.Tick-e.Since > 1 {
		where = fmt.Sprintf("between ticks %d and %d", e.Since+1, e.Tick)
	}
	msg := fmt.Sprintf("engine: replay diverged from the recording %s of group %q in scene %d (%s) "+
		"(state checksum %016x recorded, %016x replayed)", where, e.Group, e.Scene, e.Name, e.Recorded, e.Replayed)
	if e.Recorded == e.Replayed {
		msg = fmt.Sprintf("engine: replay diverged from the recording in scene %d (%s): an intermediate state differed "+
			"though the state after tick %d of group %q matches", e.Scene, e.Name, e.Tick, e.Group)
	}
	if e.System != "" {
		msg += fmt.Sprintf("; it first differed after system %q in tick %d of group %q", e.System, e.SystemTick, e.SystemGroup)
	}
	if len(e.Components) > 0 {
		msg += fmt.Sprintf("; component types that differ after tick %d: %s", e.Tick, strings.Join(e.Components, ", "))
	}
	if e.Dump != "" {
		msg += "; the replayed state is in " + e.Dump
	}
	return msg
}

// A ReplayError ends a replay that cannot follow its recording: a scene
// that ran past the tick where the recording's scene ended, or ended before
// it, or is not the scene (or does not run the groups) the recording has
// there. Such a scene decided on something a replay does not repeat: an
// Input event's live input, real time, the frame count.
type ReplayError struct {
	Scene  int    // the timeline in the log, from 1
	Name   string // the replayed scene's name
	Group  string // the group concerned, if any
	Tick   int64  // the replay's tick of that group
	Ended  int64  // the tick where the recording's scene ended, if that is the issue
	Reason string // what went wrong, and the likely cause
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("engine: replay: scene %d (%s): %s", e.Scene, e.Name, e.Reason)
}

// decisionHint names the likely cause of a scene that does not end where
// its recording did.
const decisionHint = "it decided on something a replay does not repeat " +
	"(live input in an Input event, real time, the frame count): decide on Update events, " +
	"from the tick's input and the game state"

// Recording, called by the loop.

func (lg *InputLog) beginScene(name string, groups []Group) {
	n := len(groups)
	s := logScene{name: name, groups: slices.Clone(groups), every: int64(max(lg.ChecksumEvery, 1)),
		input: make([][]byte, n), inputN: make([]int, n), last: make([]int64, n), ticks: make([]int64, n),
		sys: make([]sysDetail, n)}
	lg.scenes = append(lg.scenes, s)
	if lg.file != nil {
		lg.file.buf = appendSceneRecord(lg.file.buf, &lg.scenes[len(lg.scenes)-1])
	}
}

// addInput records that tick `tick` of group g saw cur, where the log
// predicts prev's held state with no edges and no wheel motion.
func (lg *InputLog) addInput(g int, tick int64, prev, cur *input.State) {
	s := &lg.scenes[len(lg.scenes)-1]
	start := len(s.input[g])
	s.input[g] = appendEntry(s.input[g], tick-s.last[g], prev, cur)
	s.last[g] = tick
	s.inputN[g]++
	if lg.file != nil {
		lg.file.buf = appendInputRecord(lg.file.buf, g, s.input[g][start:])
	}
}

// addSystems records the state after each system of tick `tick` of group g.
func (lg *InputLog) addSystems(g int, tick int64, names []string, sums []uint32) {
	s := &lg.scenes[len(lg.scenes)-1]
	d := &s.sys[g]
	prev := int64(0)
	if n := len(d.ticks); n > 0 {
		prev = d.ticks[n-1]
	}
	if n := len(d.names); n == 0 || !slices.Equal(d.names[n-1].names, names) {
		d.names = append(d.names, nameSet{from: tick, names: slices.Clone(names)})
		if lg.file != nil {
			lg.file.buf = appendNamesRecord(lg.file.buf, g, tick, names)
		}
	}
	d.add(tick, sums)
	if lg.file != nil {
		lg.file.buf = appendSystemsRecord(lg.file.buf, g, tick-prev, sums)
	}
}

// addParts records the parts of the state after tick `tick`.
func (lg *InputLog) addParts(tick int64, parts []StatePart) {
	s := &lg.scenes[len(lg.scenes)-1]
	p := &s.parts
	prev := int64(0)
	if n := len(p.ticks); n > 0 {
		prev = p.ticks[n-1]
	}
	newNames := p.add(tick, parts)
	if lg.file != nil {
		lg.file.buf = appendPartsRecord(lg.file.buf, tick-prev, newNames, p, len(p.ticks)-1)
	}
}

func (lg *InputLog) addCheck(tick int64, sum uint64) {
	s := &lg.scenes[len(lg.scenes)-1]
	prev := int64(0)
	if n := len(s.checks); n > 0 {
		prev = s.checks[n-1].tick
	}
	s.checks = append(s.checks, logCheck{tick: tick, sum: sum})
	if lg.file != nil {
		lg.file.buf = appendCheckRecord(lg.file.buf, tick-prev, sum)
	}
}

// setTicks records how far the current timeline has run.
func (lg *InputLog) setTicks(groups []group) {
	if len(lg.scenes) == 0 {
		return
	}
	s := &lg.scenes[len(lg.scenes)-1]
	for i := range s.ticks {
		s.ticks[i] = groups[i].ticks
	}
}

// endScene records how the current timeline ended, at the ticks setTicks
// recorded last.
func (lg *InputLog) endScene(end SceneEnd, err error) {
	s := &lg.scenes[len(lg.scenes)-1]
	s.end = end
	if err != nil {
		s.err = err.Error()
	}
	if lg.file != nil {
		lg.file.buf = appendEndRecord(lg.file.buf, s)
	}
}

// finish marks the run complete and writes what the file still lacks.
func (lg *InputLog) finish() error {
	lg.complete = true
	if lg.file == nil {
		return nil
	}
	lg.file.buf = append(lg.file.buf, recRunEnd)
	return lg.file.flush(nil, true)
}

// flush writes the records gathered so far to the file, when it is time
// (see logFile.flush), with the current timeline's progress.
func (lg *InputLog) flush(groups []group) error {
	if lg.file == nil || len(lg.scenes) == 0 {
		return nil
	}
	lg.setTicks(groups)
	return lg.file.flush(&lg.scenes[len(lg.scenes)-1], false)
}

// Replaying, called by the loop.

// replayCursor is one group's position in a log while replaying.
type replayCursor struct {
	data []byte      // the group's entries in this timeline
	off  int         // the next entry
	next int64       // its tick, 0 when none is left
	held input.State // the held state after the last entry applied
}

// startReplay checks that timeline i (0-based) of the log was recorded with
// this scene and these groups, and sets the groups' cursors. It reports
// false when the log holds no such timeline.
func (lg *InputLog) startReplay(i int, name string, groups []group) (bool, error) {
	if i >= len(lg.scenes) {
		if !lg.complete { // the recording was cut short before this timeline
			return false, nil
		}
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("the recording has %d scenes and ended there; the replay went on to another: %s",
				len(lg.scenes), decisionHint)}
	}
	s := &lg.scenes[i]
	if name != "" && s.name != "" && name != s.name {
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("the recording has scene %s here; %s", s.name, decisionHint)}
	}
	same := len(groups) == len(s.groups)
	for j := 0; same && j < len(groups); j++ {
		same = groups[j].Name == s.groups[j].Name && groups[j].Hz == s.groups[j].Hz
	}
	if !same {
		have := make([]Group, len(groups))
		for j := range groups {
			have[j] = groups[j].Group
		}
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("runs groups %s; the recording's scene ran %s", groupList(have), groupList(s.groups))}
	}
	for j := range groups {
		c := &groups[j].replay
		*c = replayCursor{data: s.input[j]}
		c.peek(0)
	}
	lg.replayed.Scenes = i + 1
	return true, nil
}

func groupList(gs []Group) string {
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = fmt.Sprintf("%s %v Hz", g.Name, g.Hz)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// peek reads the tick of the entry at the cursor, after tick `after`.
func (c *replayCursor) peek(after int64) {
	if c.off >= len(c.data) {
		c.next = 0
		return
	}
	step, n := uvarint(c.data[c.off:])
	c.off += n
	c.next = after + int64(step)
}

// apply sets in to what tick `tick` of the cursor's group saw when recorded.
// Entries exist only where the input changed: between them the held state
// stays, with no edges and no wheel motion.
func (c *replayCursor) apply(tick int64, in *input.State) {
	if c.next == 0 || c.next != tick {
		*in = c.held
		return
	}
	c.off = decodeEntry(c.data, c.off, &c.held, in)
	c.held = *in
	c.held.ClearEdges()
	c.peek(tick)
}

// verify compares sum, the replayed state's checksum after tick `tick` of
// the first group of scene i, with the recorded one; next is the scene's
// cursor into its checksums and since the last tick that matched. A tick
// the log has no checksum for passes.
func (lg *InputLog) verify(i int, next *int, since *int64, tick int64, sum uint64, group string) *DivergenceError {
	if i >= len(lg.scenes) {
		return nil
	}
	checks := lg.scenes[i].checks
	for *next < len(checks) && checks[*next].tick < tick {
		*next++
	}
	if *next == len(checks) || checks[*next].tick != tick {
		return nil
	}
	if c := checks[*next]; c.sum != sum {
		return &DivergenceError{Scene: i + 1, Name: lg.scenes[i].name, Group: group, Tick: tick, Since: *since,
			Recorded: c.sum, Replayed: sum}
	}
	*since = tick
	lg.replayed.Checked++
	return nil
}

// checkEvery returns how many ticks of the first group lie between two
// checksums in scene i (1 for a scene the log does not hold).
func (lg *InputLog) checkEvery(i int) int64 {
	if i < len(lg.scenes) {
		return lg.scenes[i].every
	}
	return 1
}

// prefix returns the log's first n timelines, the last cut after the ticks
// counts (per group): what a rewind replays. It shares the log's records.
func (lg *InputLog) prefix(n int, counts []int64) *InputLog {
	p := &InputLog{Seed: lg.Seed, Settings: lg.Settings, ChecksumEvery: lg.ChecksumEvery,
		scenes: slices.Clone(lg.scenes[:n])}
	s := &p.scenes[n-1]
	s.end, s.err, s.ticks = EndNone, "", slices.Clone(counts)
	s.input, s.inputN, s.last = slices.Clone(s.input), slices.Clone(s.inputN), slices.Clone(s.last)
	for g, data := range s.input {
		var tick int64
		kept, count, last := 0, 0, int64(0)
		for off := 0; off < len(data); {
			step, k := uvarint(data[off:])
			if tick += int64(step); tick > counts[g] {
				break
			}
			off, _ = checkEntry(data, off+k)
			kept, count, last = off, count+1, tick
		}
		s.input[g], s.inputN[g], s.last[g] = data[:kept], count, last
	}
	k := 0
	for k < len(s.checks) && s.checks[k].tick <= counts[0] {
		k++
	}
	s.checks = s.checks[:k]
	s.sys = slices.Clone(s.sys)
	for g := range s.sys {
		d := &s.sys[g]
		k := 0
		for k < len(d.ticks) && d.ticks[k] <= counts[g] {
			k++
		}
		if len(d.start) > 0 {
			d.start = d.start[:k+1]
			d.sums = d.sums[:d.start[k]]
		}
		d.ticks = d.ticks[:k]
	}
	pd := &s.parts
	k = 0
	for k < len(pd.ticks) && pd.ticks[k] <= counts[0] {
		k++
	}
	if len(pd.start) > 0 {
		pd.start = pd.start[:k+1]
		pd.idx, pd.sums = pd.idx[:pd.start[k]], pd.sums[:pd.start[k]]
	}
	pd.ticks = pd.ticks[:k]
	p.detailed = lg.Detail || lg.detailed
	return p
}

// restart forgets the recorded timelines, for a rewind's re-run to record
// them again; a log recorded to a file is cut back in the file too.
func (lg *InputLog) restart() {
	lg.scenes, lg.complete = nil, false
	if lg.file != nil {
		lg.file.restart()
	}
}
