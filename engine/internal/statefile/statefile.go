// Package statefile writes and reads a scene's state as a file of its
// own: the state's bytes (what the scene's AppendState wrote, with the
// loop's counters), compressed with zstd, under a header that says which
// game, version, determinism version, scene and tick they are of, and the
// state checksum there. A save holds one beside its recording, so that it
// loads without simulating the run again.
//
// Format, version 2:
//
//	file    = "FSTATE" version:u16 n:uvarint payload:n bytes crc:u32
//	payload = game:str gameVersion:str determinism:uvarint
//	          scene:uvarint sceneName:str before:uvarint timeBefore:uvarint
//	          tick:uvarint sum:u64 rawLen:uvarint hash:u64 zstd:rest of the payload
//	str     = len:uvarint bytes
//
// before and timeBefore say where the scene's timeline begins in its run:
// the ticks of the first groups of the timelines before it, summed (a
// session's ticks before the scene's first), and their game time in
// nanoseconds. Version 1, which Parse still reads, has neither (Meta.Format
// says which a file is).
//
// crc is the CRC-32C of n and the payload, checked before anything is
// decompressed; hash is the xxhash64 of the state's bytes, checked after.
// The state's bytes are the same on every CPU (the engine's encoders are
// little-endian and fixed-width); zstd's are klauspost/compress's, which
// the engine's modules already use (Nakama's), pure Go where it has no
// assembly, and checked by hash wherever they are read.
package statefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/zstd"
)

// The file's magic and version.
const (
	Magic   = "FSTATE"
	Version = 2

	// MaxState bounds a state's bytes (uncompressed): a world of some
	// 100,000 bodies. A file that claims more is refused before anything
	// is allocated for it.
	MaxState = 256 << 20
	// maxStr bounds the header's strings.
	maxStr = 1 << 10
)

// ErrBad is wrapped by every error about a malformed state file.
var ErrBad = errors.New("malformed state file")

// Meta is what a state file says of itself.
type Meta struct {
	Game, Version string // the game and its version
	Determinism   int    // the engine's determinism version it was written under
	Scene         int    // the scene timeline, from 1
	SceneName     string
	Tick          int64  // the ticks of that timeline's first group run
	Sum           uint64 // the state checksum there (0: the scene had none)
	Hash          uint64 // the xxhash64 of the state's bytes (Parse sets it; Append computes it)
	// Before is the ticks of the first groups of the run's timelines
	// before the scene's, summed, and TimeBefore their game time in
	// nanoseconds: 0 in a file of format 1, which does not say them.
	Before, TimeBefore int64
	// Format is the format version of the file Parse read (Append writes
	// Version whatever it says).
	Format int
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var (
	encOnce sync.Once
	enc     *zstd.Encoder
)

func encoder() *zstd.Encoder {
	encOnce.Do(func() {
		enc, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
	})
	return enc
}

// Compress appends src compressed with zstd to dst: the state file's
// encoding, for the engine's other compressed bytes (a game server's kept
// matches).
func Compress(dst, src []byte) []byte { return encoder().EncodeAll(src, dst) }

// Decompress decodes bytes Compress made of raw bytes: a decoder of its
// own, that decodes no more than raw bytes, or 1 MiB for a small state
// (compressed bytes that would give more are an error, not an
// allocation), with a window of at most 16 MiB (the encoder's is 8).
func Decompress(src []byte, raw uint64) ([]byte, error) {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(max(raw, 1<<20)),
		zstd.WithDecoderMaxWindow(16<<20))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.DecodeAll(src, make([]byte, 0, raw))
}

// Append appends the state file of state (a scene's bytes), described by
// meta, to dst, in format Version. A negative Before or TimeBefore is an
// error.
func Append(dst []byte, meta Meta, state []byte) ([]byte, error) {
	return appendVersion(dst, meta, state, Version)
}

// appendVersion is Append in format version v (1 or 2).
func appendVersion(dst []byte, meta Meta, state []byte, v uint16) ([]byte, error) {
	if meta.Before < 0 || meta.TimeBefore < 0 || meta.Scene == 1 && (meta.Before != 0 || meta.TimeBefore != 0) {
		return dst, fmt.Errorf("statefile: %d ticks and %d ns before the scene %d", meta.Before, meta.TimeBefore, meta.Scene)
	}
	if len(state) > MaxState {
		return dst, fmt.Errorf("statefile: a state of %d bytes, more than %d", len(state), MaxState)
	}
	if len(meta.Game) > maxStr || len(meta.Version) > maxStr || len(meta.SceneName) > maxStr {
		return dst, fmt.Errorf("statefile: a name longer than %d bytes", maxStr)
	}
	p := appendStr(nil, meta.Game)
	p = appendStr(p, meta.Version)
	p = binary.AppendUvarint(p, uint64(meta.Determinism))
	p = binary.AppendUvarint(p, uint64(meta.Scene))
	p = appendStr(p, meta.SceneName)
	if v >= 2 {
		p = binary.AppendUvarint(p, uint64(meta.Before))
		p = binary.AppendUvarint(p, uint64(meta.TimeBefore))
	}
	p = binary.AppendUvarint(p, uint64(meta.Tick))
	p = binary.LittleEndian.AppendUint64(p, meta.Sum)
	p = binary.AppendUvarint(p, uint64(len(state)))
	p = binary.LittleEndian.AppendUint64(p, xxhash.Sum64(state))
	p = Compress(p, state)
	dst = binary.LittleEndian.AppendUint16(append(dst, Magic...), v)
	start := len(dst)
	dst = binary.AppendUvarint(dst, uint64(len(p)))
	dst = append(dst, p...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli)), nil
}

// Is reports whether data starts as a state file does (its magic).
func Is(data []byte) bool {
	return len(data) >= len(Magic) && string(data[:len(Magic)]) == Magic
}

// Parse reads a state file: its meta and the state's bytes. A file that
// is not one, of another format version, cut short, damaged, or followed
// by anything is an error wrapping ErrBad that says which.
func Parse(data []byte) (Meta, []byte, error) {
	var meta Meta
	bad := func(format string, args ...any) (Meta, []byte, error) {
		return meta, nil, fmt.Errorf("%w: "+format, append([]any{ErrBad}, args...)...)
	}
	head := len(Magic) + 2
	if !Is(data) || len(data) < head {
		return bad("not a state file (bad magic)")
	}
	format := binary.LittleEndian.Uint16(data[len(Magic):])
	if format < 1 || format > Version {
		return bad("format version %d, this engine reads versions 1 to %d", format, Version)
	}
	n, k := binary.Uvarint(data[head:])
	if k <= 0 || n > uint64(len(data)-head-k) || len(data)-head-k-int(n) < 4 {
		return bad("cut short: %d bytes, the file is longer", len(data))
	}
	end := head + k + int(n)
	if crc32.Checksum(data[head:end], castagnoli) != binary.LittleEndian.Uint32(data[end:]) {
		return bad("damaged: the file fails its checksum")
	}
	if extra := len(data) - end - 4; extra != 0 {
		return bad("%d bytes after the file's end", extra)
	}
	r := reader{b: data[head+k : end]}
	meta.Game, meta.Version = r.str(), r.str()
	det, scene := r.uvarint(), r.uvarint()
	meta.SceneName = r.str()
	var before, timeBefore uint64
	if format >= 2 {
		before, timeBefore = r.uvarint(), r.uvarint()
	}
	tick := r.uvarint()
	meta.Sum = r.u64()
	raw := r.uvarint()
	hash := r.u64()
	switch {
	case r.err != nil:
		return bad("%v", r.err)
	case det > math.MaxInt32 || scene < 1 || scene > math.MaxInt32 || tick > math.MaxInt64:
		return bad("it says determinism version %d, scene %d, tick %d", det, scene, tick)
	case before > math.MaxInt64/2 || timeBefore > math.MaxInt64/2 || scene == 1 && (before != 0 || timeBefore != 0):
		return bad("it says %d ticks and %d ns before its scene %d", before, timeBefore, scene)
	case raw > MaxState:
		return bad("a state of %d bytes, more than %d", raw, MaxState)
	}
	meta.Determinism, meta.Scene, meta.Tick, meta.Hash = int(det), int(scene), int64(tick), hash
	meta.Before, meta.TimeBefore, meta.Format = int64(before), int64(timeBefore), int(format)
	state, err := Decompress(r.b, raw)
	switch {
	case err != nil:
		return bad("its state: %v", err)
	case uint64(len(state)) != raw:
		return bad("its state is %d bytes, it says %d", len(state), raw)
	case xxhash.Sum64(state) != hash:
		return bad("its state fails its hash")
	}
	return meta, state, nil
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// reader reads the header's fields, keeping the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.err = errors.New("cut short in its header")
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *reader) u64() uint64 {
	if r.err == nil && len(r.b) < 8 {
		r.err = errors.New("cut short in its header")
	}
	if r.err != nil {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if r.err == nil && (n > maxStr || n > uint64(len(r.b))) {
		r.err = fmt.Errorf("a name of %d bytes", n)
	}
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
