package inputlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
)

// A recording is written as the game runs: records gather in a buffer, and
// at the start of a frame, once FlushEvery of real time has passed since
// the last write, or a second of game time (the first group's ticks), or
// flushSize bytes have gathered, they go to the file as one chunk, with the
// timeline's progress. A kill loses at most that much: a tenth of a second
// of a game in a window, a second of game time of one headless, however
// fast it runs.
var FlushEvery = 100 * time.Millisecond

const flushSize = 64 << 10

// PartialSuffix is added to a recording's path while it is written.
const PartialSuffix = ".partial"

// File is the file a log is written to while it is recorded: at
// path+PartialSuffix until Close renames it to path.
type File struct {
	f        *os.File
	path     string // where the recording goes when it is closed
	partial  string // where it is written meanwhile: path + ".partial"
	buf      []byte // records not written yet
	chunk    []byte // the chunk being written, reused
	last     time.Time
	progress []int64
	mark     mark   // the timeline's first-group tick at the last write
	start    int64  // bytes of the header and the run record: where timelines begin
	head     []byte // those bytes, for a restart's new file
	rewrite  bool   // restarted: the next write replaces the file (see restart)
	err      error  // the first write error

	// Where buf begins among the records of the timelines, for a Mark:
	// base bytes of records were written before it since the file's last
	// restart, the epoch-th.
	base  int64
	epoch int
	tmp   []byte // a payload being written, reused
}

// Create opens path+PartialSuffix, which must not exist, and writes the
// header and the run record to it. A path that cannot be written is an
// error now, before anything runs, and so is a path where something other
// than a regular file is (see atomicfile.Target; a link is followed, and
// the recording is written beside the file it names).
func Create(path string, run Run) (*File, error) {
	if err := CheckSettings(run.Settings); err != nil {
		return nil, err
	}
	if path == "" {
		return nil, errors.New("engine: record: no file name")
	}
	target, err := atomicfile.Target(path) // a link is followed; only a regular file is replaced
	if err != nil {
		return nil, fmt.Errorf("engine: record to %s: %w", path, err)
	}
	partial := target + PartialSuffix
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("engine: record to %s: %s exists, the recording of a run that did not end: "+
			"replay it, move it or delete it first", path, partial)
	}
	if err != nil {
		return nil, fmt.Errorf("engine: record: %w", err)
	}
	lf := &File{f: f, path: target, partial: partial, last: time.Now()}
	header := appendChunk(Header(run.Version), appendRunRecord(nil, run))
	if _, err := f.Write(header); err != nil {
		f.Close()
		os.Remove(partial)
		return nil, fmt.Errorf("engine: record: %w", err)
	}
	lf.start, lf.head = int64(len(header)), header
	return lf, nil
}

// Partial returns where the file is written until Close: path+PartialSuffix.
func (lf *File) Partial() string { return lf.partial }

// Close writes what is left, syncs the file to the disk and renames it from
// path+PartialSuffix to path, replacing an older file there (only a regular
// one: see atomicfile.Target). After an error the partial file is left in
// place, and the error names it.
func (lf *File) Close() error { return lf.close(true) }

// Keep finishes the file as Close does but leaves it at path+PartialSuffix,
// so that what was at path stays as it was (a run that failed does not
// replace an older recording).
func (lf *File) Keep() error { return lf.close(false) }

// Discard closes the file and removes it: nothing was recorded that is
// worth a file, and what was at path stays as it was.
func (lf *File) Discard() error {
	lf.f.Close()
	if err := os.Remove(lf.partial); err != nil {
		return fmt.Errorf("engine: recording %s: %w", lf.path, err)
	}
	return nil
}

func (lf *File) close(rename bool) error {
	err := lf.flush(nil, 0, true)
	if serr := lf.f.Sync(); err == nil {
		err = serr
	}
	if cerr := lf.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && rename {
		if _, err = atomicfile.Target(lf.path); err == nil { // still nothing but a regular file there
			err = os.Rename(lf.partial, lf.path)
		}
	}
	if err != nil {
		return fmt.Errorf("engine: save recording %s: %w (what was recorded is in %s)", lf.path, err, lf.partial)
	}
	atomicfile.SyncDir(filepath.Dir(lf.path))
	return nil
}

// A mark is where a timeline was at the file's last write: its index in
// the log and its first group's ticks.
type mark struct {
	scene int
	tick  int64
}

// gameSecond reports whether the log's scene-th timeline, which has run
// ticks (per group), its first group at hz, has run a second of game time,
// or more, since the last write.
func (lf *File) gameSecond(ticks []int64, hz float64, scene int) bool {
	if len(ticks) == 0 {
		return false
	}
	from := int64(0)
	if lf.mark.scene == scene {
		from = lf.mark.tick
	}
	return float64(ticks[0]-from) >= hz
}

// flush writes the records gathered to the file as a chunk, once it is time
// (or always, with force), ending it with the progress of timeline s (nil:
// none), the log's scene-th. A write error is kept and returned from then
// on.
func (lf *File) flush(s *Scene, scene int, force bool) error {
	var ticks []int64
	hz := 0.0
	if s != nil && len(s.Groups) > 0 {
		ticks, hz = s.Ticks, s.Groups[0].Hz
	}
	return lf.flushTo(len(lf.buf), ticks, hz, scene, force)
}

// flushTo writes the first n bytes of the records gathered to the file as a
// chunk, once it is time (or always, with force), ending it with a progress
// record of ticks (the log's scene-th timeline, whose first group runs at
// hz, ran this far; nil: none); the records after them stay gathered. A
// write error is kept and returned from then on.
func (lf *File) flushTo(n int, ticks []int64, hz float64, scene int, force bool) error {
	if lf.err != nil {
		return lf.err
	}
	now := time.Now()
	if !force && now.Sub(lf.last) < FlushEvery && n < flushSize && !lf.gameSecond(ticks, hz, scene) {
		return nil
	}
	if len(ticks) > 0 {
		lf.mark = mark{scene, ticks[0]}
	}
	payload := append(lf.tmp[:0], lf.buf[:n]...)
	if ticks != nil && (n > 0 || !slices.Equal(lf.progress, ticks)) {
		payload = appendProgressRecord(payload, ticks)
		lf.progress = append(lf.progress[:0], ticks...)
	}
	lf.tmp = payload
	lf.base += int64(n)
	lf.buf = lf.buf[:copy(lf.buf, lf.buf[n:])]
	if len(payload) == 0 && !(lf.rewrite && force) {
		return nil
	}
	lf.chunk = lf.chunk[:0]
	if len(payload) > 0 {
		lf.chunk = appendChunk(lf.chunk, payload)
	}
	lf.last = now
	if lf.rewrite {
		lf.err = lf.replace(lf.chunk)
		return lf.err
	}
	if _, err := lf.f.Write(lf.chunk); err != nil {
		lf.err = fmt.Errorf("engine: recording to %s: %w", lf.partial, err)
	}
	return lf.err
}

// SetVersion makes the file a recording of format version v (see
// Run.Version), before any timeline is recorded to it: the next write
// writes the file again with it.
func (lf *File) SetVersion(v int) {
	binary.LittleEndian.PutUint16(lf.head[len(Magic):], uint16(v))
	lf.restart()
}

// restart starts the file's timelines over, for them to be written again
// (a rewind's re-run records them anew). The file on the disk stays as it
// is until the next write, which replaces it whole (replace): a crash in
// between leaves the recording of the run before the rewind.
func (lf *File) restart() {
	lf.buf, lf.progress, lf.mark = lf.buf[:0], lf.progress[:0], mark{}
	lf.base, lf.epoch = 0, lf.epoch+1
	lf.rewrite = true
}

// replace writes the file again, its header and run record then chunk, as
// a new file beside it, and renames that over it, so that a crash at any
// point leaves the one or the other whole. Writes go on in the new file.
func (lf *File) replace(chunk []byte) error {
	lf.rewrite = false
	tmp := lf.partial + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("engine: recording to %s: rewind: %w", lf.partial, err)
	}
	if _, err = f.Write(lf.head); err == nil {
		if _, err = f.Write(chunk); err == nil {
			if err = f.Sync(); err == nil {
				err = os.Rename(tmp, lf.partial)
			}
		}
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("engine: recording to %s: rewind: %w", lf.partial, err)
	}
	lf.f.Close()
	lf.f = f
	return nil
}
