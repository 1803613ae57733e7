package statefile

import (
	"bytes"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func sample() (Meta, []byte) {
	state := bytes.Repeat([]byte("a world of balls, "), 400)
	return Meta{Game: "demo", Version: "1", Determinism: 3, Scene: 2, SceneName: "Arena", Before: 45, TimeBefore: 1_500_000_000,
		Tick: 3600, Sum: 0x1234, Format: Version}, state
}

// A state file reads back as written: its meta and its state, compressed
// smaller than the state.
func TestRoundTrip(t *testing.T) {
	meta, state := sample()
	b, err := Append([]byte("x"), meta, state)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("x"+Magic)) {
		t.Fatal("Append did not append")
	}
	got, gotState, err := Parse(b[1:])
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash == 0 {
		t.Fatal("Parse gave no hash")
	}
	got.Hash = 0
	if got != meta || !bytes.Equal(gotState, state) {
		t.Fatalf("read %+v and %d bytes, wrote %+v and %d", got, len(gotState), meta, len(state))
	}
	if len(b) > len(state)/4 {
		t.Fatalf("%d bytes for a state of %d that repeats itself", len(b), len(state))
	}
	empty, err := Append(nil, Meta{Scene: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, s, err := Parse(empty); err != nil || len(s) != 0 {
		t.Fatalf("an empty state: %v, %d bytes", err, len(s))
	}
}

// Every truncation, every byte changed, bytes after the end, another
// version and a forged compressed body are refused by name.
func TestRefusals(t *testing.T) {
	meta, state := sample()
	b, _ := Append(nil, meta, state)
	for n := range len(b) {
		if _, _, err := Parse(b[:n]); !errors.Is(err, ErrBad) {
			t.Fatalf("%d bytes of %d: %v", n, len(b), err)
		}
	}
	for i := range b {
		c := bytes.Clone(b)
		c[i] ^= 0x20
		if _, _, err := Parse(c); !errors.Is(err, ErrBad) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
	}
	if _, _, err := Parse(append(bytes.Clone(b), 0)); err == nil || !strings.Contains(err.Error(), "after") {
		t.Fatalf("a byte after the end: %v", err)
	}
	v3 := bytes.Clone(b)
	v3[len(Magic)] = 3
	if _, _, err := Parse(v3); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("version 3: %v", err)
	}
	if _, err := Append(nil, Meta{Scene: 2, Before: -1}, nil); err == nil {
		t.Fatal("a negative count of ticks before the scene was written")
	}
	if _, err := Append(nil, Meta{Scene: 1, Before: 5}, nil); err == nil {
		t.Fatal("a state of the first scene with ticks before it was written")
	}
	p := appendStr(appendStr(nil, "demo"), "1")
	p = append(p, 3, 1) // determinism 3, scene 1
	p = appendStr(p, "Title")
	p = append(p, 45, 0)                // 45 ticks before the run's first scene
	p = append(p, 1)                    // tick 1
	p = append(p, make([]byte, 8)...)   // its checksum
	p = append(p, 0)                    // no bytes of state
	p = append(p, make([]byte, 8+4)...) // their hash, and a body that is none
	if _, _, err := Parse(frame(p)); err == nil || !strings.Contains(err.Error(), "before its scene 1") {
		t.Fatalf("a state of the first scene with ticks before it: %v", err)
	}
}

// A file of format 1 (no ticks before its scene) still reads: Format says
// so, Before and TimeBefore are 0.
func TestFormat1(t *testing.T) {
	meta, state := sample()
	b, err := appendVersion(nil, meta, state, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, gotState, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want := meta
	want.Before, want.TimeBefore, want.Format, got.Hash = 0, 0, 1, 0
	if got != want || !bytes.Equal(gotState, state) {
		t.Fatalf("read %+v, want %+v", got, want)
	}
}

// A compressed body that decodes to more than the state it claims (a
// small file that would take a great deal of memory) is refused without
// decoding it all, its checksum right.
func TestBombRefused(t *testing.T) {
	meta, _ := sample()
	small, _ := Append(nil, meta, []byte("tiny"))
	_, _, err := Parse(forge(t, small, bytes.Repeat([]byte{0}, 64<<20)))
	if !errors.Is(err, ErrBad) || !strings.Contains(err.Error(), "its state: ") {
		t.Fatalf("a body of 64 MiB claiming 4 bytes: %v", err)
	}
}

// forge replaces the zstd body of a file that holds "tiny" with big's,
// and fixes the file's checksum.
func forge(t *testing.T, file, big []byte) []byte {
	t.Helper()
	e, _ := zstd.NewWriter(nil)
	z := e.EncodeAll(big, nil)
	meta, _, err := Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	p := appendStr(nil, meta.Game)
	p = appendStr(p, meta.Version)
	p = append(p, byte(meta.Determinism), byte(meta.Scene))
	p = appendStr(p, meta.SceneName)
	p = append(p, 0, 0)       // nothing before the scene
	p = append(p, 0x90, 0x1c) // 3600
	p = append(p, 0x34, 0x12, 0, 0, 0, 0, 0, 0)
	p = append(p, 4)
	p = append(p, make([]byte, 8)...)
	p = append(p, z...)
	return frame(p)
}

func frame(p []byte) []byte {
	out := append([]byte(Magic), Version, 0)
	start := len(out)
	n := len(p)
	for n >= 0x80 {
		out = append(out, byte(n)|0x80)
		n >>= 7
	}
	out = append(out, byte(n))
	out = append(out, p...)
	crc := crc32Of(out[start:])
	return append(out, byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24))
}

func FuzzParse(f *testing.F) {
	meta, state := sample()
	b, _ := Append(nil, meta, state)
	f.Add(b)
	small, _ := Append(nil, Meta{Scene: 1}, []byte{1, 2, 3})
	f.Add(small)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, s, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Append(nil, m, s)
		if err != nil {
			t.Fatalf("a file read cannot be written: %v", err)
		}
		if _, s2, err := Parse(again); err != nil || !bytes.Equal(s, s2) {
			t.Fatalf("written again, it reads %v", err)
		}
	})
}

func crc32Of(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
