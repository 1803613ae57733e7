package inputlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// A save file holds a run up to a tick: which game and version made it,
// where in the run it stops, the state checksum there, and the run's
// recording up to there (a whole input log, as Encode writes it), and
// from version 2 the scene's state there when the scene gave one (a state
// file, package statefile; empty when none). Its format (version 2):
//
//	file    = "FSTEPSAV" version:u16 chunk
//	chunk   = n:uvarint payload:n bytes crc:u32
//	payload = game:str gameVersion:str scene:uvarint tick:uvarint sum:u64
//	          log:uvarint-length bytes (an input log file)
//	          state:uvarint-length bytes (version 2)
//
// Version 1 saves, which end after the log, are read as saves with no
// state.
// crc is the CRC-32C of n and the payload, as in an input log; the file
// ends with the chunk. A file cut short, with a byte changed, of another
// format version, or with anything after its chunk is refused by name.

// The save file's magic and version.
const (
	SaveMagic   = "FSTEPSAV"
	SaveVersion = 2
)

// ErrBadSave is wrapped by every error about a malformed save file.
var ErrBadSave = errors.New("malformed save file")

// SaveMeta is what a save says of itself.
type SaveMeta struct {
	Game, Version string // the game and its version
	Scene         int    // the scene timeline it stops in, from 1
	Tick          int64  // the ticks of that timeline's first group it ran
	Sum           uint64 // the state checksum there (0: the scene had none)
	State         []byte // the scene's state there as a state file (empty: none)
}

// EncodeSave returns the save file of log l (the run's recording up to
// the save) and its run record.
func EncodeSave(meta SaveMeta, run Run, l *Log) ([]byte, error) {
	lg, err := Encode(run, l)
	if err != nil {
		return nil, err
	}
	p := appendStr(nil, meta.Game)
	p = appendStr(p, meta.Version)
	p = binary.AppendUvarint(p, uint64(meta.Scene))
	p = binary.AppendUvarint(p, uint64(meta.Tick))
	p = binary.LittleEndian.AppendUint64(p, meta.Sum)
	p = binary.AppendUvarint(p, uint64(len(lg)))
	p = append(p, lg...)
	p = binary.AppendUvarint(p, uint64(len(meta.State)))
	p = append(p, meta.State...)
	head := binary.LittleEndian.AppendUint16([]byte(SaveMagic), SaveVersion)
	return appendChunk(head, p), nil
}

// IsSave reports whether data starts as a save file does (its magic).
func IsSave(data []byte) bool {
	return len(data) >= len(SaveMagic) && string(data[:len(SaveMagic)]) == SaveMagic
}

// ParseSave decodes a save file and the input log it holds.
func ParseSave(data []byte) (SaveMeta, Run, *Log, error) {
	var meta SaveMeta
	bad := func(format string, args ...any) (SaveMeta, Run, *Log, error) {
		return meta, Run{}, nil, fmt.Errorf("%w: "+format, append([]any{ErrBadSave}, args...)...)
	}
	if len(data) > MaxSize {
		return bad("%d bytes, more than the %d read", len(data), MaxSize)
	}
	head := len(SaveMagic) + 2
	if IsLog(data) {
		return bad("not a save file but a recording (a replay plays it)")
	}
	if !IsSave(data) || len(data) < head {
		return bad("not a save file (bad magic)")
	}
	v := binary.LittleEndian.Uint16(data[len(SaveMagic):])
	if v != 1 && v != SaveVersion {
		return bad("format version %d, this engine reads versions 1 and %d", v, SaveVersion)
	}
	n, k := binary.Uvarint(data[head:])
	if k <= 0 || n > uint64(len(data)-head-k) || len(data)-head-k-int(n) < 4 {
		return bad("cut short: %d bytes, the save is longer", len(data))
	}
	end := head + k + int(n)
	if crc32.Checksum(data[head:end], castagnoli) != binary.LittleEndian.Uint32(data[end:]) {
		return bad("damaged: the file fails its checksum")
	}
	if extra := len(data) - end - 4; extra != 0 {
		return bad("%d bytes after the save's end", extra)
	}
	p := &logParser{data: data[:end], off: head + k}
	meta.Game = p.str(MaxSetting)
	meta.Version = p.str(MaxSetting)
	scene, tick := p.uvarint(), p.uvarint()
	meta.Sum = p.u64()
	lg := p.bytes(p.count(1))
	if v >= 2 {
		meta.State = p.bytes(p.count(1))
	}
	if p.err != nil {
		return bad("%v", p.err)
	}
	if scene < 1 || scene > math.MaxInt32 || tick > math.MaxInt64 { // an int is 4 bytes on 386
		return bad("it says scene %d, tick %d: no recording stops there", scene, tick)
	}
	meta.Scene, meta.Tick = int(scene), int64(tick)
	if p.off != end {
		return bad("%d bytes after the log and the state", end-p.off)
	}
	run, l, err := Parse(lg)
	if err != nil {
		return bad("its recording: %v", err)
	}
	if l.Complete || meta.Scene < 1 || meta.Scene != len(l.Scenes) || meta.Tick < 0 ||
		l.Scenes[meta.Scene-1].End != EndNone || l.Scenes[meta.Scene-1].Ticks[0] != meta.Tick {
		return bad("it says scene %d, tick %d; its recording does not stop there", meta.Scene, meta.Tick)
	}
	return meta, run, l, nil
}
