package inputlog

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"
)

// The run checksum: every state checksum a log holds, chained in order, so
// that two runs have the same one only if every checked tick of every
// scene left the same state. It is XXH64 over this stream, little-endian:
//
//	for each scene with at least one checksum, in order:
//	    len(name):u64 name
//	    for each of its checksums, in tick order: tick:u64 sum:u64
//
// A log keeps it as it is recorded (addCheck), a Mark keeps it with the
// rest of the timeline's place, and Cut puts it back, so that a log cut
// back and recorded again (a rollback, a step back) chains the checksums
// it holds, as one recorded straight through would. Chaining a checksum
// costs one XXH64 write of 16 bytes (about 15 ns) and allocates nothing.

// chain is the run checksum so far. Its zero value has chained nothing.
type chain struct {
	d       xxhash.Digest
	started bool // d is set up (the zero Digest is not)
	chains  bool // a checksum has been chained
}

// scene chains the name of a scene whose first checksum follows.
func (c *chain) scene(name string) {
	if !c.started {
		c.d.Reset()
		c.started = true
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(len(name)))
	c.d.Write(b[:])
	c.d.WriteString(name)
}

// check chains the checksum sum, taken after tick `tick` (after the name
// of its scene: see scene).
func (c *chain) check(tick int64, sum uint64) {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], uint64(tick))
	binary.LittleEndian.PutUint64(b[8:], sum)
	c.d.Write(b[:])
	c.chains = true
}

// addCheck appends a checksum to timeline s, the log's last, and chains it.
func (l *Log) addCheck(s *Scene, tick int64, sum uint64) {
	if l.Unchained {
		s.Checks = append(s.Checks, Check{Tick: tick, Sum: sum})
		return
	}
	if len(s.Checks) == 0 {
		l.chain.scene(s.Name)
	}
	s.Checks = append(s.Checks, Check{Tick: tick, Sum: sum})
	l.chain.check(tick, sum)
}

// rechain computes the run checksum again from the checksums the log
// holds: for a log that was not recorded check by check (Prefix).
func (l *Log) rechain() {
	l.chain = chain{}
	for i := range l.Scenes {
		s := &l.Scenes[i]
		if len(s.Checks) > 0 {
			l.chain.scene(s.Name)
		}
		for _, c := range s.Checks {
			l.chain.check(c.Tick, c.Sum)
		}
	}
}

// RunChecksum returns the run checksum of the checksums the log holds (see
// above); ok is false when it holds none. It allocates nothing.
func (l *Log) RunChecksum() (sum uint64, ok bool) {
	if !l.chain.chains {
		return 0, false
	}
	return l.chain.d.Sum64(), true
}
