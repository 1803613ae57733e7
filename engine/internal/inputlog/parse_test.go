package inputlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
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
// given twice, a part named twice in one record. The same records without
// the fault parse.
func TestParseRefusesWhatMeansNothing(t *testing.T) {
	run := appendRunRecord(nil, Run{Seed: 1})
	progress := func(ticks int64) []byte { return appendProgressRecord(nil, []int64{ticks}) }
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
		data := appendChunk(binary.LittleEndian.AppendUint16([]byte(SaveMagic), SaveVersion), p)
		if _, _, _, err := ParseSave(data); !errors.Is(err, ErrBadSave) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("scene %d, tick %d: %v, want it refused saying %q", c.scene, c.tick, err, c.says)
		}
	}
}
