package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A recording is written as the game runs: records gather in a buffer, and
// at the start of a frame, once flushEvery of real time has passed since the
// last write (or flushSize bytes have gathered), they go to the file as one
// chunk, with the timeline's progress. A kill loses at most that much.
var flushEvery = 100 * time.Millisecond

const flushSize = 64 << 10

// logFile is the file a log is written to while it is recorded.
type logFile struct {
	f        *os.File
	path     string // where the recording goes when it is closed
	partial  string // where it is written meanwhile: path + ".partial"
	buf      []byte // records not written yet
	chunk    []byte // the chunk being written, reused
	last     int64  // nanotime of the last write
	progress []int64
	start    int64 // bytes of the header and the run record: where timelines begin
	err      error // the first write error
}

// PartialSuffix is added to a recording's path while it is written (see
// [InputLog.Create]).
const PartialSuffix = ".partial"

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
	if lg.file != nil || len(lg.scenes) > 0 {
		return errors.New("engine: InputLog.Create: the log is recording already")
	}
	if err := lg.checkSettings(); err != nil {
		return err
	}
	if path == "" {
		return errors.New("engine: record: no file name")
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("engine: record to %s: is a directory", path)
	}
	partial := path + PartialSuffix
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("engine: record to %s: %s exists, the recording of a run that did not end: "+
			"replay it, move it or delete it first", path, partial)
	}
	if err != nil {
		return fmt.Errorf("engine: record: %w", err)
	}
	lf := &logFile{f: f, path: path, partial: partial, last: nanotime()}
	header := appendChunk(binary.LittleEndian.AppendUint16([]byte(logMagic), logVersion), appendRunRecord(nil, lg))
	if _, err := f.Write(header); err != nil {
		f.Close()
		os.Remove(partial)
		return fmt.Errorf("engine: record: %w", err)
	}
	lf.start = int64(len(header))
	lg.file = lf
	return nil
}

// Close finishes the file [InputLog.Create] began: it writes what is left,
// syncs it to the disk and renames it from path+".partial" to path,
// replacing an older file there. After an error the .partial file is left
// in place, and the error names it. Close without Create does nothing.
func (lg *InputLog) Close() error {
	lf := lg.file
	if lf == nil {
		return nil
	}
	lg.file = nil
	err := lf.flush(nil, true)
	if serr := lf.f.Sync(); err == nil {
		err = serr
	}
	if cerr := lf.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lf.partial, lf.path)
	}
	if err != nil {
		return fmt.Errorf("engine: save recording %s: %w (what was recorded is in %s)", lf.path, err, lf.partial)
	}
	syncDir(filepath.Dir(lf.path))
	return nil
}

// Path returns where the log is being recorded (path+".partial" until
// Close), or "" when it is not written to a file.
func (lg *InputLog) Path() string {
	if lg.file == nil {
		return ""
	}
	return lg.file.partial
}

// flush writes the records gathered to the file as a chunk, once it is time
// (or always, with force), ending it with the progress of timeline s (nil:
// none). A write error is kept and returned from then on.
func (lf *logFile) flush(s *logScene, force bool) error {
	if lf.err != nil {
		return lf.err
	}
	now := nanotime()
	if !force && now-lf.last < int64(flushEvery) && len(lf.buf) < flushSize {
		return nil
	}
	if s != nil && (len(lf.buf) > 0 || !slices.Equal(lf.progress, s.ticks)) {
		lf.buf = appendProgressRecord(lf.buf, s.ticks)
		lf.progress = append(lf.progress[:0], s.ticks...)
	}
	if len(lf.buf) == 0 {
		return nil
	}
	lf.chunk = appendChunk(lf.chunk[:0], lf.buf)
	lf.buf = lf.buf[:0]
	lf.last = now
	if _, err := lf.f.Write(lf.chunk); err != nil {
		lf.err = fmt.Errorf("engine: recording to %s: %w", lf.partial, err)
	}
	return lf.err
}

// restart cuts the file back to its run record, for the timelines to be
// written again (a rewind's re-run records them anew). An error is kept,
// like a write's.
func (lf *logFile) restart() {
	lf.buf, lf.progress = lf.buf[:0], lf.progress[:0]
	if lf.err != nil {
		return
	}
	err := lf.f.Truncate(lf.start)
	if err == nil {
		_, err = lf.f.Seek(lf.start, io.SeekStart)
	}
	if err != nil {
		lf.err = fmt.Errorf("engine: recording to %s: rewind: %w", lf.partial, err)
	}
}

// Save writes the whole log to a file, atomically: it is written to a
// temporary file in the same folder, synced, then renamed to path, so a
// failed save (a full disk) leaves an older file at path as it was.
func (lg *InputLog) Save(path string) error {
	b, err := lg.encode()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder and a rename.
func writeFileAtomic(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("engine: save %s: is a directory", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Chmod(0o644); err == nil { // CreateTemp makes it 0600: a saved file is the user's to share
		err = cerr
	}
	if serr := tmp.Sync(); err == nil {
		err = serr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir syncs a folder, so that a rename in it survives a power cut
// (best effort: not every system syncs folders).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
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
	if _, err := io.CopyN(&buf, f, int64(headerSize)); err != nil && err != io.EOF {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	if err := checkHeader(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	if _, err := io.Copy(&buf, io.LimitReader(f, int64(MaxInputLogSize+1-headerSize))); err != nil {
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
