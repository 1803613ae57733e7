package inputlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// file returns an input log file of one chunk holding the records given.
func file(records ...[]byte) []byte {
	return appendChunk(Header(0), bytes.Join(records, nil))
}

// scene returns the record of a scene of the groups named, each at 60 Hz.
func scene(names ...string) []byte {
	s := &Scene{Name: "S", Every: 1}
	for _, n := range names {
		s.Groups = append(s.Groups, Group{Name: n, Hz: 60})
	}
	return appendSceneRecord(nil, s)
}

// cursorMove returns an input record of stream 0, a tick after the last,
// moving the cursor by (dx, dy) whole pixels.
func cursorMove(dx, dy int64) []byte {
	e := binary.AppendUvarint(nil, 1)
	e = append(e, opCursor)
	e = binary.AppendVarint(e, dx)
	e = binary.AppendVarint(e, dy)
	return appendInputRecord(nil, 0, append(e, opEnd))
}

// cursorAt returns an input record of stream 0, a tick after the last,
// putting the cursor at (x, y).
func cursorAt(x, y float64) []byte {
	var zero input.State
	return appendInputRecord(nil, 0, AppendEntry(nil, 1, &zero, &input.State{CursorX: x, CursorY: y}))
}

// A file is refused, naming what is wrong, when a record means nothing
// the engine writes: a cursor moved by whole pixels from a cursor that is
// not whole (its int64 is the CPU's: amd64 and arm64 differ) or to past
// 2^52 pixels, two groups of one name (the loop refuses them), a setting
// given twice, a part named twice in one record, a determinism version
// outside 1 to 255 or given twice. The same records without the fault
// parse.
func TestParseRefusesWhatMeansNothing(t *testing.T) {
	run := appendRunRecord(nil, Run{Seed: 1})
	progress := func(ticks int64) []byte { return appendProgressRecord(nil, []int64{ticks}) }
	arith := func(d int) []byte { return appendRunRecord(nil, Run{Seed: 1, Determinism: d}) }
	settings := func(kv ...string) []byte {
		b := binary.LittleEndian.AppendUint64([]byte{recRun}, 1)
		b = binary.AppendUvarint(b, uint64(len(kv)/2))
		for _, s := range kv {
			b = appendStr(b, s)
		}
		return b
	}
	parts := func(names ...string) []byte {
		b := binary.AppendUvarint([]byte{recParts}, 1)
		b = binary.AppendUvarint(b, uint64(len(names)))
		for _, n := range names {
			b = appendStr(b, n)
		}
		return binary.AppendUvarint(b, 0)
	}
	for _, c := range []struct {
		name string
		good []byte
		bad  []byte
		says string
	}{
		{"a cursor move from 1e300",
			file(run, scene("g"), cursorAt(3, 4), cursorMove(1, 0), progress(2)),
			file(run, scene("g"), cursorAt(1e300, 4), cursorMove(1, 0), progress(2)), "not a whole number of pixels"},
		{"a cursor move from 0.5",
			file(run, scene("g"), cursorAt(3, 0), cursorMove(1, 0), progress(2)),
			file(run, scene("g"), cursorAt(0.5, 0), cursorMove(1, 0), progress(2)), "not a whole number of pixels"},
		{"a cursor move past 2^52",
			file(run, scene("g"), cursorMove(1<<52-1, 0), progress(1)),
			file(run, scene("g"), cursorMove(1<<52, 0), progress(1)), "past 2^52 pixels"},
		{"a cursor move by 2^62",
			file(run, scene("g"), cursorMove(-1<<51, 0), progress(1)),
			file(run, scene("g"), cursorMove(1<<62, 0), progress(1)), "bad cursor move"},
		{"two groups of one name",
			file(run, scene("physics", "ai"), appendProgressRecord(nil, []int64{0, 0})),
			file(run, scene("physics", "physics"), appendProgressRecord(nil, []int64{0, 0})), `two groups named "physics"`},
		{"a setting given twice",
			file(settings("level", "3", "seed", "4")),
			file(settings("level", "3", "level", "4")), `setting "level" given twice`},
		{"a part named twice in one record",
			file(run, scene("g"), parts("Body", "Shape"), progress(1)),
			file(run, scene("g"), parts("Body", "Body"), progress(1)), `part "Body" named twice`},
		{"determinism version 0",
			file(arith(1), scene("g"), progress(1)),
			file(run, []byte{recArith, 0}, scene("g"), progress(1)), "determinism version 0"},
		{"a second determinism record",
			file(arith(1), scene("g"), progress(1)),
			file(arith(1), []byte{recArith, 1}, scene("g"), progress(1)), "a determinism record after a scene, or a second one"},
		{"determinism version 256",
			file(arith(255), scene("g"), progress(1)),
			file(run, []byte{recArith, 0x80, 0x02}, scene("g"), progress(1)), "determinism version 256"},
	} {
		if _, _, err := Parse(c.good); err != nil {
			t.Errorf("%s: the good file: %v", c.name, err)
		}
		_, _, err := Parse(c.bad)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
	}
}

// A record's count that the bytes left could hold, of items that turn out
// bad from the first, allocates about what the bytes hold, not 16 bytes (a
// string's header) an item: the names of a group's systems are not made
// by their count.
func TestCountAllocatesByItsBytes(t *testing.T) {
	const n = 1 << 20
	names := binary.AppendUvarint([]byte{recNames, 0, 1}, n)
	names = append(names, bytes.Repeat([]byte{0x80}, n)...) // the first name's length never ends
	data := file(appendRunRecord(nil, Run{Seed: 1}), scene("g"), names)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := Parse(data)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("a names record of bad names: %v", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(data)) {
		t.Errorf("parsing %d bytes allocated %d", len(data), got)
	}
}

// A save whose scene or tick does not fit an int or an int64 (a 386's int
// is 4 bytes: scene 2^32+1 read as 1 there) is refused by its numbers.
func TestSaveNumbersChecked(t *testing.T) {
	l := &Log{}
	l.BeginScene("S", []Group{{Name: "g", Hz: 60}}, 1)
	l.SetTicks([]int64{5})
	good, err := EncodeSave(SaveMeta{Game: "g", Version: "1", Scene: 1, Tick: 5}, Run{Seed: 1}, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ParseSave(good); err != nil {
		t.Fatalf("the good save: %v", err)
	}
	for _, c := range []struct {
		scene, tick uint64
		says        string
	}{
		{1<<32 + 1, 5, "scene 4294967297, tick 5"},
		{1, 1<<63 + 5, "scene 1, tick 9223372036854775813"},
		{math.MaxUint64, 5, "scene 18446744073709551615"},
	} {
		p := appendStr(nil, "g")
		p = appendStr(p, "1")
		p = binary.AppendUvarint(p, c.scene)
		p = binary.AppendUvarint(p, c.tick)
		p = binary.LittleEndian.AppendUint64(p, 0)
		lg, _ := Encode(Run{Seed: 1}, l)
		p = binary.AppendUvarint(p, uint64(len(lg)))
		p = append(p, lg...)
		p = binary.AppendUvarint(p, 0) // no state
		data := appendChunk(binary.LittleEndian.AppendUint16([]byte(SaveMagic), SaveVersion), p)
		if _, _, _, err := ParseSave(data); !errors.Is(err, ErrBadSave) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("scene %d, tick %d: %v, want it refused saying %q", c.scene, c.tick, err, c.says)
		}
	}
}

// recorded returns the file of a run recorded as the engine records one
// (Log's recording methods, then Encode, as InputLog.WriteTo writes it):
// a scene of two groups (60 and 10 Hz) for 600 ticks of the first, then
// one of a group at 50 Hz for 300, each tick's input at random where it
// changed, a state checksum every tick of the first group, and the run's
// end, in one chunk.
func recorded(tb testing.TB, seed uint64) []byte {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	l := &Log{}
	for _, sc := range []struct {
		groups []Group
		ticks  []int64
	}{
		{[]Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: 10}}, []int64{600, 100}},
		{[]Group{{Name: "only", Hz: 50}}, []int64{300}},
	} {
		l.BeginScene("S", sc.groups, 1)
		for g, n := range sc.ticks {
			var held input.State
			for tick := int64(1); tick <= n; tick++ {
				if cur := randomInput(r, &held); !cur.Same(&held) {
					l.AddInput(g, tick, &held, &cur)
					held = cur
					held.ClearEdges()
				}
			}
		}
		for tick := int64(1); tick <= sc.ticks[0]; tick++ {
			l.AddCheck(tick, r.Uint64())
		}
		l.SetTicks(sc.ticks)
		l.EndScene(EndReturned, "")
	}
	if err := l.Finish(); err != nil {
		tb.Fatal(err)
	}
	data, err := Encode(Run{Seed: seed, Determinism: 1}, l)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// A truncated, corrupt or wrong-version log is an error, never a panic.
func TestParseRejectsBadData(t *testing.T) {
	good := recorded(t, 5)
	if _, _, err := Parse(good); err != nil {
		t.Fatal(err)
	}
	wrongVersion := bytes.Clone(good)
	wrongVersion[8] = 9
	bad := map[string][]byte{
		"empty":         nil,
		"magic":         append([]byte("NOTALOG!"), good[8:]...),
		"version":       wrongVersion,
		"truncated":     good[:len(good)/2],
		"trailing":      append(bytes.Clone(good), 0),
		"huge count":    append(bytes.Clone(good[:18]), 0xff, 0xff, 0xff, 0xff, 0x0f),
		"header only":   good[:18],
		"one byte less": good[:len(good)-1],
	}
	for name, data := range bad {
		if _, _, err := Parse(data); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// Logs of older versions are refused by name, and so are newer ones.
func TestParseVersions(t *testing.T) {
	for v, says := range map[byte]string{1: "version 1, this engine reads versions 3 to 5 (an older build",
		2: "version 2, this engine reads versions 3 to 5 (an older build", 6: "version 6, this engine reads versions 3 to 5 (a newer build"} {
		data := append([]byte("FSTEPINP"), v, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 1)
		if _, _, err := Parse(data); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), says) {
			t.Errorf("version %d: %v", v, err)
		}
	}
}

// A damaged byte anywhere is "corrupt file at byte N", never a replay of
// damaged input (nor a divergence); a file cut anywhere is a recording cut
// short, which loads, and here, cut in its only chunk, holds no run.
func TestDamagedFiles(t *testing.T) {
	good := recorded(t, 5)
	for i := 10; i < len(good); i += len(good) / 97 {
		for bit := range 8 {
			bad := bytes.Clone(good)
			bad[i] ^= 1 << bit
			if _, _, err := Parse(bad); !errors.Is(err, ErrMalformed) {
				t.Fatalf("bit %d of byte %d flipped: %v", bit, i, err)
			}
		}
	}
	bad := bytes.Clone(good)
	bad[len(bad)/2] ^= 4
	if _, _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "corrupt file at byte 10:") {
		t.Fatalf("a flipped bit: %v", err)
	}
	for _, n := range []int{11, 100, len(good) / 2, len(good) - 1} {
		_, cut, err := Parse(good[:n])
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "holds no run") {
			t.Fatalf("cut at %d bytes (of one chunk): %v, %v", n, cut, err)
		}
	}
}
