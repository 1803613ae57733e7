// Package inputlog is the input log's codec and data: the records a
// recording is made of, the two ways they are written (record by record as
// a run is recorded, and a whole log at once), the parser that reads them
// back and refuses damage by name, the file a recording is written to as
// it runs, and the walker over a tick's input entry that both replay and
// the parser use. Package engine's InputLog is the public face of a Log.
//
// The file format (version 5; versions 3 and 4 are read too),
// little-endian throughout:
//
//	file    = "FSTEPINP" version:u16 chunk*
//	chunk   = n:uvarint payload:n bytes crc:u32
//
// crc is the CRC-32C of the chunk's n and payload, so a damaged byte is
// found and named, never replayed. A recording is written chunk by chunk
// as the game runs; a file whose last chunk is incomplete (a crash, a kill)
// holds the run up to its last whole chunk.
//
// A payload is a sequence of records, each a tag byte and its fields
// (str is a uvarint length and the bytes; ticks are uvarints):
//
//	'R' seed:u64 settings:uvarint (key:str value:str)*   the run (first record)
//	'N' players:uvarint                        the run has 2 or more players (right after 'R')
//	'A' determinism:uvarint                    the arithmetic it was recorded with (engine.Determinism; none: 0)
//	'S' name:str every:uvarint groups:uvarint (name:str hz:f64)*
//	                                            a scene timeline begins
//	'I' stream:uvarint entry                   a tick's input changed
//	'C' step:uvarint sum:u64                   a state checksum, step ticks after the last
//	'P' groups:uvarint ticks*                  the timeline ran this far (each chunk ends with one)
//	'E' end:u8 groups:uvarint ticks* err:str   the timeline ended
//	'Z'                                        the run ended: the file is whole
//	'Y' group:uvarint from:uvarint names:uvarint name:str*
//	                                            a group's system names from a tick on
//	'D' group:uvarint step:uvarint n:uvarint sum:u32*
//	                                            the state after each system of a tick
//	'K' step:uvarint new:uvarint name:str* n:uvarint (part:uvarint sum:u32)*
//	                                            the parts of the state after a tick
//
// A run of one player has an input stream per group, its index the
// group's; a run of n players (an 'N' record) has n per group, player p's
// of group g at index g*n+p.
//
// An entry is the uvarint distance in ticks from the stream's previous entry,
// then the changes from the previous tick's held state as ops, then 0. A
// tick without an entry holds the same keys, buttons, cursor and axes as
// the tick before, with no edges and no wheel motion. Edges are derived
// from the held state (pressed: held now, not before); only edges that
// differ from the derived ones (a key pressed and released between two
// ticks) are stored. A typical key change costs 6 bytes in all.
//
// Versions: 5 holds the same records as 4, but its state checksums
// ('C', 'D', 'K') name component types by the names they declare
// (package engine/state); 4 and 3 named them by Go package path, and a
// replay of one hashes so again (Run.Version says which). 4 added 'A':
// version 3 is 4 without it.
package inputlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
)

// The file's magic and version.
const (
	Magic   = "FSTEPINP"
	Version = 5
	// OldestVersion is the oldest version read: version 3 is version 4
	// without the determinism record.
	OldestVersion = 3
	// DeclaredNames is the first version whose state checksums name
	// component types by their declared names; the versions before named
	// them by Go package path.
	DeclaredNames = 5
	// LastPathNames is the last version that named them by package path:
	// a run that goes on from such a recording (a save) is recorded as one.
	LastPathNames = DeclaredNames - 1
)

// HeaderSize is the size of the magic and the version.
const HeaderSize = len(Magic) + 2

// MaxSize is the largest input log file read: a larger file is refused
// before it is read whole (a recording of an hour at 60 Hz with a checksum
// every tick is about 2 MB).
const MaxSize = 256 << 20

// MaxPlayers is the most players a run has (input.MaxPlayers).
const MaxPlayers = input.MaxPlayers

// MaxSetting bounds a setting's key or value, and a failed scene's error.
const MaxSetting = 1 << 16

// Record tags.
const (
	recRun      = 'R'
	recScene    = 'S'
	recInput    = 'I'
	recCheck    = 'C'
	recProgress = 'P'
	recEnd      = 'E'
	recRunEnd   = 'Z'
	recPlayers  = 'N' // the run's players, when more than one
	recArith    = 'A' // the determinism version it was recorded with
	recNames    = 'Y' // a group's system names
	recSystems  = 'D' // the state after each system of a tick
	recParts    = 'K' // the parts of the state after a tick
)

// ErrMalformed is wrapped by every error about a malformed input log.
var ErrMalformed = errors.New("malformed input log")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header returns the file's header: the magic and version v (Version when 0).
func Header(v int) []byte {
	if v == 0 {
		v = Version
	}
	return binary.LittleEndian.AppendUint16([]byte(Magic), uint16(v))
}

// IsLog reports whether data starts as an input log does (its magic).
func IsLog(data []byte) bool { return len(data) >= len(Magic) && string(data[:len(Magic)]) == Magic }

// CheckHeader checks the magic and the version at the start of data.
func CheckHeader(data []byte) error {
	if IsSave(data) {
		return fmt.Errorf("%w: not an input log but a save file (a load reads it)", ErrMalformed)
	}
	if len(data) < HeaderSize || !IsLog(data) {
		return fmt.Errorf("%w: not an input log (bad magic)", ErrMalformed)
	}
	if v := binary.LittleEndian.Uint16(data[len(Magic):]); v < OldestVersion || v > Version {
		hint := "an older build of the engine wrote it: record it again"
		if v > Version {
			hint = "a newer build of the engine wrote it"
		}
		return fmt.Errorf("%w: version %d, this engine reads versions %d to %d (%s)", ErrMalformed, v, OldestVersion, Version, hint)
	}
	return nil
}

// ResealChunks returns data with the CRC of every whole chunk recomputed,
// so that a fuzzer's changes to the records inside get past the checksum
// and reach the record parser.
func ResealChunks(data []byte) []byte {
	out := append([]byte(nil), data...)
	off := HeaderSize
	for off < len(out) {
		n, k := binary.Uvarint(out[off:])
		if k <= 0 || n > uint64(len(out)-off-k) || len(out)-off-k-int(n) < 4 {
			break
		}
		end := off + k + int(n)
		binary.LittleEndian.PutUint32(out[end:], crc32.Checksum(out[off:end], castagnoli))
		off = end + 4
	}
	return out
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// whole reports whether v is a whole number that an int64 holds exactly,
// and not -0.
func whole(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) < 1<<52 && !(v == 0 && math.Signbit(v))
}

func appendF64(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

func f64(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func uvarint(b []byte) (uint64, int) { return binary.Uvarint(b) }
