package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
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
// a state hash ([Recording.SetChecksum]), recording stores its value every
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
	// was recorded with. NoChecksums keeps none: the run takes no state
	// checksum at all (a full hash of the world in one tick costs
	// milliseconds in a big world).
	ChecksumEvery int

	// Players is how many players' input every tick holds (0 means 1): a
	// networked run's (Options.Session). The loop sets it for the log it
	// records; a log that Create gave a file must have it set before.
	Players int

	// Detail, when recording, also keeps what the desync bisector needs
	// (see Recording.Detailed): after every tick of every group, a 32-bit hash of
	// the state after each update system, and after every checked tick of
	// the first group a hash of each part of the state (each component
	// type). A replay that diverges then names the first system whose
	// effect differs and the component types that differ. It costs a state
	// hash per system per tick while recording and replaying, and about 5
	// bytes per system tick and 5 per component type per checked tick.
	Detail bool

	log inputlog.Log // the timelines, and the file they are written to (see Create)

	determinism int // the arithmetic it was recorded with: see Determinism
	version     int // its file format's version, 0 for this engine's (see Recording.PathNames)
	replayed    ReplayReport
}

// NoChecksums is the InputLog.ChecksumEvery that keeps no state checksum:
// one every 2^31-1 ticks, over a year at 60 Hz.
const NoChecksums = math.MaxInt32

// SceneEnd says how a scene timeline of a recording ended.
type SceneEnd uint8

const (
	// EndNone: the recording was cut short (a crash or a kill) while the
	// timeline ran; it holds the timeline up to its last complete tick.
	EndNone = SceneEnd(inputlog.EndNone)
	// EndReturned: the scene's Run returned (with the next scene, or nil).
	EndReturned = SceneEnd(inputlog.EndReturned)
	// EndRestarted: the scene started a new timeline ([Loop.Start] again).
	EndRestarted = SceneEnd(inputlog.EndRestarted)
	// EndStopped: the loop stopped: the window closed, [Loop.Stop], a
	// headless limit or a cancelled context.
	EndStopped = SceneEnd(inputlog.EndStopped)
	// EndFailed: the loop failed with an error ([Loop.Fail], a bad
	// configuration, a scene's error or panic).
	EndFailed = SceneEnd(inputlog.EndFailed)
	// EndSession: the loop failed with its session's error (a networked
	// run's: a player left or failed, the players' runs went different
	// ways). A replay cannot fail so: it stops there, with a
	// [*SessionFailedError].
	EndSession = SceneEnd(inputlog.EndSession)
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
	case EndSession:
		return "ended by its session"
	}
	return fmt.Sprintf("SceneEnd(%d)", uint8(e))
}

// SceneRecord describes one scene timeline of a log.
type SceneRecord struct {
	Name   string  // the scene's name (see SceneName)
	Groups []Group // its rate groups
	Ticks  []int64 // ticks each group ran, to the end (or as far as recorded)
	End    SceneEnd
	Err    string // with EndFailed and EndSession, the error

	Checks       int    // state checksums recorded
	Checksum     uint64 // the last of them
	ChecksumTick int64  // the first group's tick it was taken after
}

// Scenes returns how many scene timelines the log holds.
func (lg *InputLog) Scenes() int { return len(lg.log.Scenes) }

// Scene returns scene timeline i (0 <= i < Scenes()).
func (lg *InputLog) Scene(i int) SceneRecord {
	s := &lg.log.Scenes[i]
	r := SceneRecord{Name: s.Name, Groups: groupsOf(s.Groups), Ticks: slices.Clone(s.Ticks), End: SceneEnd(s.End),
		Err: s.Err, Checks: len(s.Checks)}
	if n := len(s.Checks); n > 0 {
		r.Checksum, r.ChecksumTick = s.Checks[n-1].Sum, s.Checks[n-1].Tick
	}
	return r
}

// RunChecksum is the run's checksum: every state checksum the log holds,
// of every scene, chained in order with the scene's name and the tick each
// was taken after (XXH64 over that stream; the internal inputlog package
// spells it out). Two runs have the same one only if every checked tick of
// every scene left the same state: with a checksum every tick (the
// default ChecksumEvery), a run that differs for a single tick and then
// comes back differs in it, and so do runs that differ in their scenes'
// order or lengths, even when they end alike (an empty results screen).
// ok is false when the log holds no checksum.
//
// It is kept as the run is recorded, at the cost of one 16-byte XXH64 write
// per checksum and no allocation (BenchmarkRunChecksumOverhead), and goes
// back with the recording when a rollback or a step back cuts it
// ([Rewinder.Back], [Options.Session]), so that it is always that of the
// run the recording holds; a log read from a file computes it from the
// checksums stored in it, so that a replay's recording and the file it
// replays have the same one. The command line's summary prints it as the
// run's checksum, recorded or replayed alike.
func (lg *InputLog) RunChecksum() (sum uint64, ok bool) { return lg.log.RunChecksum() }

// Ticks returns how many ticks the log holds: the ticks of every scene's
// first group, summed.
func (lg *InputLog) Ticks() int64 {
	var n int64
	for i := range lg.log.Scenes {
		if t := lg.log.Scenes[i].Ticks; len(t) > 0 {
			n += t[0]
		}
	}
	return n
}

// Entries returns how many input changes the log holds over all scenes.
func (lg *InputLog) Entries() int {
	n := 0
	for i := range lg.log.Scenes {
		for _, c := range lg.log.Scenes[i].InputN {
			n += c
		}
	}
	return n
}

// Complete reports whether the log holds a whole run: the run ended (for a
// log read from a file, the file was closed), rather than being cut short by
// a crash or a kill.
func (lg *InputLog) Complete() bool { return lg.log.Complete }

// String summarises the log: its scenes, their ticks and ends.
func (lg *InputLog) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d scenes, %d ticks", len(lg.log.Scenes), lg.Ticks())
	if !lg.log.Complete {
		b.WriteString(", cut short")
	}
	for i := range lg.log.Scenes {
		s := &lg.log.Scenes[i]
		fmt.Fprintf(&b, "; %s %v %s", s.Name, s.Ticks, SceneEnd(s.End))
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
// (parts of the state) that differ after Tick. Systems are matched by name:
// where the replay ran a system the recording did not, or the other way
// round, before System, SystemNote says which. SystemsChecked and
// ComponentsChecked say that the detail was there to compare: with either
// checked and nothing named, none differs (when neither does, the
// recorded checksum is not the state's: the file was damaged where its
// chunk checksum could not see, or the scene's checksum reads something
// its parts do not). Dump is where the replayed state at Tick was
// written, when it was (Options.OnDivergence).
type DivergenceError struct {
	Scene    int    // the scene's timeline in the log, from 1
	Name     string // the scene's name
	Group    string // the first group's name
	Tick     int64  // the tick whose checksum differs
	Since    int64  // the last tick whose checksum matched, 0 if none
	Recorded uint64 // the checksum in the log
	Replayed uint64 // the checksum of the replayed state

	System            string
	SystemGroup       string
	SystemTick        int64
	SystemNote        string
	SystemsChecked    bool
	Components        []string
	ComponentsChecked bool
	Dump              string
	// Unversioned says that the recording names no determinism version:
	// an engine before it named one made it, whose states are this
	// engine's only where it ran on amd64 without GOAMD64=v3, or in a
	// browser (see Determinism).
	Unversioned bool
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
		if e.SystemNote != "" {
			msg += " (" + e.SystemNote + ")"
		}
	}
	if len(e.Components) > 0 {
		msg += fmt.Sprintf("; component types that differ after tick %d: %s", e.Tick, strings.Join(e.Components, ", "))
	}
	switch noSystem, noPart := e.SystemsChecked && e.System == "", e.ComponentsChecked && len(e.Components) == 0; {
	case noSystem && noPart:
		msg += fmt.Sprintf("; yet no system's state and no component type differs from the recording's detail: "+
			"the state replayed is the one recorded, and the checksum recorded at tick %d is not its checksum "+
			"(damaged in the file, or the scene's checksum reads state its parts do not)", e.Tick)
	case noSystem:
		msg += "; no system's state differs from the recording's detail"
	case noPart:
		msg += fmt.Sprintf("; no component type differs after tick %d", e.Tick)
	}
	if e.Dump != "" {
		msg += "; the replayed state is in " + e.Dump
	}
	if e.Unversioned {
		msg += "; the recording names no determinism version: an older engine made it, whose states are this " +
			"engine's only where it ran on amd64 without GOAMD64=v3 or in a browser (record it again)"
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
	Ended  int64  // the tick where the recording's scene ended, if that is what went wrong
	Reason string // what went wrong, and the likely cause
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("engine: replay: scene %d (%s): %s", e.Scene, e.Name, e.Reason)
}

// A SessionFailedError ends the replay of a networked run that its
// session ended (EndSession): a player left or failed, or the players'
// runs went different ways (a desync). The replay ran the recorded ticks
// to there, as this player's run did; it cannot go on, nor fail as the
// session did.
type SessionFailedError struct {
	Scene int    // the timeline in the log, from 1
	Name  string // the scene's name
	Group string // its first group
	Tick  int64  // the tick of that group where the run ended
	Err   string // the session's error, as recorded
}

func (e *SessionFailedError) Error() string {
	s := fmt.Sprintf("engine: replay: scene %d (%s): the recorded run's session ended it after tick %d of group %q (%s)",
		e.Scene, e.Name, e.Tick, e.Group, e.Err)
	if strings.Contains(e.Err, "desync") {
		s += ": the session's players' runs went different ways; this recording is one player's run, replayed to there " +
			"(each player's recording replays its own: compare them at that tick, -dump-at)"
	}
	return s
}

// decisionHint names the likely cause of a scene that does not end where
// its recording did.
const decisionHint = "it decided on something a replay does not repeat " +
	"(live input in an Input event, real time, the frame count): decide on Update events, " +
	"from the tick's input and the game state"

func groupList(gs []Group) string {
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = fmt.Sprintf("%s %v Hz", g.Name, g.Hz)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// groupsOf returns a log's groups as the engine's.
func groupsOf(gs []inputlog.Group) []Group {
	out := make([]Group, len(gs))
	for i, g := range gs {
		out[i] = Group(g)
	}
	return out
}

// Determinism returns the engine's arithmetic the log was recorded with
// ([Determinism], the constant): this engine's for a log it records, 0 for
// a recording that names none (one made before engines named it, whose
// states are this engine's only where it was recorded on amd64 without
// GOAMD64=v3, or in a browser). A replay or a load of a recording made
// with another nonzero version is refused by name.
func (lg *InputLog) Determinism() int { return lg.determinism }

// run returns what the log keeps of the run as a whole.
func (lg *InputLog) run() inputlog.Run {
	return inputlog.Run{Seed: lg.Seed, Settings: lg.Settings, Players: lg.Players, Determinism: Determinism, Version: lg.version}
}

// pathNames reports whether the log's state checksums name component types
// by Go package path: a recording made before the format named them by
// their declared names (see Recording.PathNames).
func (lg *InputLog) pathNames() bool {
	return inputlog.Run{Version: lg.version}.PathNames()
}

// prefix returns the log's first n timelines, the last cut after the ticks
// counts (per group): what a rewind replays. It shares the log's records.
func (lg *InputLog) prefix(n int, counts []int64) *InputLog {
	p := &InputLog{Seed: lg.Seed, Settings: lg.Settings, ChecksumEvery: lg.ChecksumEvery, Players: lg.Players,
		determinism: lg.determinism, version: lg.version}
	p.log = *lg.log.Prefix(n, counts)
	p.log.Detailed = lg.Detail || lg.log.Detailed
	return p
}

// The file format and files.

// MaxInputLogSize is the largest input log file read: a larger file is
// refused before it is read whole (a recording of an hour at 60 Hz with a
// checksum every tick is about 2 MB).
const MaxInputLogSize = inputlog.MaxSize

// PartialSuffix is added to a recording's path while it is written (see
// [InputLog.Create]).
const PartialSuffix = inputlog.PartialSuffix

// ErrBadInputLog is wrapped by every error about a malformed input log.
var ErrBadInputLog = inputlog.ErrMalformed

// Create starts writing the log to a file as it is recorded, so that no
// recording is lost: call it before [Run] (with the log as
// [Options.Record]) and [InputLog.Close] after.
//
// The file is opened now, so a path that cannot be written (a directory, a
// missing or read-only folder, /proc) is refused before the first frame. It
// is written at path+".partial" ([PartialSuffix]) in chunks as the game
// runs, at least ten times a second of real time, and renamed to path by
// Close: an old recording at path survives until the new one is whole, and
// a crash or a kill leaves the .partial file, which replays up to its last
// complete tick (see [InputLog.Complete]). A .partial file already there
// (a run that did not end) is an error rather than overwritten. An error
// writing the file during the run (a full disk) ends the run with that
// error; what was written before stays in the .partial file.
//
// Seed and Settings are written now: set them before Create.
func (lg *InputLog) Create(path string) error {
	if lg.log.File != nil || len(lg.log.Scenes) > 0 {
		return errors.New("engine: InputLog.Create: the log is recording already")
	}
	f, err := inputlog.Create(path, lg.run())
	if err != nil {
		return err
	}
	lg.log.File = f
	return nil
}

// Close finishes the file [InputLog.Create] began: it writes what is left,
// syncs it to the disk and renames it from path+".partial" to path,
// replacing an older file there. A log that recorded no scene (the run
// never began) is not a recording: its .partial file is removed and
// whatever was at path stays. After an error the .partial file is left in
// place, and the error names it. Close without Create does nothing.
func (lg *InputLog) Close() error { return lg.close(true) }

// ClosePartial finishes the file as [InputLog.Close] does but leaves it at
// path+".partial" (see [InputLog.Path], which it returns), so that an
// older recording at path is kept: for a run that failed, whose recording
// should not replace the one before. The .partial file replays as any
// recording does. A log that recorded no scene is removed, as by Close.
func (lg *InputLog) ClosePartial() (string, error) {
	path := lg.Path()
	return path, lg.close(false)
}

func (lg *InputLog) close(rename bool) error {
	f := lg.log.File
	if f == nil {
		return nil
	}
	lg.log.File = nil
	switch {
	case len(lg.log.Scenes) == 0:
		return f.Discard()
	case rename:
		return f.Close()
	}
	return f.Keep()
}

// Path returns where the log is being recorded (path+".partial" until
// Close), or "" when it is not written to a file.
func (lg *InputLog) Path() string {
	if lg.log.File == nil {
		return ""
	}
	return lg.log.File.Partial()
}

// WriteTo writes the whole log in its file format, as one chunk: a log
// recorded to a file by [InputLog.Create] holds the same records in many.
// A setting longer than 64 KiB is an error.
func (lg *InputLog) WriteTo(w io.Writer) (int64, error) {
	b, err := inputlog.Encode(lg.run(), &lg.log)
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// Save writes the whole log to a file, atomically: it is written to a
// temporary file in the same folder, synced, then renamed to path, so a
// failed save (a full disk) leaves an older file at path as it was.
func (lg *InputLog) Save(path string) error {
	b, err := inputlog.Encode(lg.run(), &lg.log)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}

// ParseInputLog decodes a log from its file format. A damaged file
// (a chunk whose checksum does not match, a record that makes no sense) is
// an error wrapping [ErrBadInputLog] that says at which byte, never a panic
// and never a replay of damaged input; a file of another version is refused
// by name. A file whose last chunk is incomplete is a recording cut short
// (a crash, a kill): it is read up to its last whole chunk, and the log's
// [InputLog.Complete] is false.
func ParseInputLog(data []byte) (*InputLog, error) {
	run, l, err := inputlog.Parse(data)
	if err != nil {
		return nil, err
	}
	return &InputLog{Seed: run.Seed, Settings: run.Settings, Players: run.Players, determinism: run.Determinism,
		version: run.Version, log: *l}, nil
}

// LoadInputLog reads a log from a file (a recording, or the .partial file
// of one cut short). A file larger than [MaxInputLogSize] is refused before
// it is read whole; see [ParseInputLog] for what else is refused.
func LoadInputLog(path string) (*InputLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("engine: load input log: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("engine: load input log %s: is a directory", path)
	} else if err == nil && fi.Size() > MaxInputLogSize {
		return nil, fmt.Errorf("engine: load input log %s: %w: %d bytes, more than the %d read", path, ErrBadInputLog, fi.Size(), MaxInputLogSize)
	}
	// The header first: a file that is no input log (/dev/zero, say) is
	// refused before more of it is read.
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, f, int64(inputlog.HeaderSize)); err != nil && err != io.EOF {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	if err := inputlog.CheckHeader(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	if _, err := io.Copy(&buf, io.LimitReader(f, int64(MaxInputLogSize+1-inputlog.HeaderSize))); err != nil {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	if buf.Len() > MaxInputLogSize { // not a regular file: a pipe, a device
		return nil, fmt.Errorf("engine: load input log %s: %w: more than the %d bytes read", path, ErrBadInputLog, MaxInputLogSize)
	}
	lg, err := ParseInputLog(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	return lg, nil
}
