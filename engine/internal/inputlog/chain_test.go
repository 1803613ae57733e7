package inputlog

import (
	"encoding/binary"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// stream is the run checksum's stream, spelt out: the names of the scenes
// with checksums, each before its checksums.
func stream(l *Log) []byte {
	var b []byte
	for _, s := range l.Scenes {
		if len(s.Checks) == 0 {
			continue
		}
		b = binary.LittleEndian.AppendUint64(b, uint64(len(s.Name)))
		b = append(b, s.Name...)
		for _, c := range s.Checks {
			b = binary.LittleEndian.AppendUint64(b, uint64(c.Tick))
			b = binary.LittleEndian.AppendUint64(b, c.Sum)
		}
	}
	return b
}

// The run checksum kept as checksums are recorded is XXH64 over the
// stream the file's comment spells out; cut back to a mark it is the one
// of the checksums left, and recorded again the one of a log recorded
// straight; a log parsed from its file and a prefix compute the same.
func TestRunChecksumIsTheStream(t *testing.T) {
	l := &Log{}
	groups := []Group{{Name: "physics", Hz: 60}}
	if _, ok := l.RunChecksum(); ok {
		t.Fatal("an empty log has a run checksum")
	}
	want := func(what string) {
		t.Helper()
		got, ok := l.RunChecksum()
		if w := xxhash.Sum64(stream(l)); !ok || got != w {
			t.Fatalf("%s: run checksum %016x (%v), the stream's %016x", what, got, ok, w)
		}
	}
	l.BeginScene("Title", groups, 1)
	for tick := int64(1); tick <= 3; tick++ {
		l.AddCheck(tick, 7)
	}
	l.SetTicks([]int64{3})
	l.EndScene(EndReturned, "")
	l.BeginScene("Menu", groups, 1) // no checksum: not in the stream
	l.SetTicks([]int64{2})
	l.EndScene(EndReturned, "")
	l.BeginScene("Arena", groups, 1)
	var m Mark
	for tick := int64(1); tick <= 50; tick++ {
		if tick == 20 {
			l.Mark(&m, []int64{19})
		}
		l.AddCheck(tick, uint64(tick)*0x9e3779b97f4a7c15)
	}
	want("recorded")
	all, _ := l.RunChecksum()
	l.Cut(&m)
	want("cut back")
	for tick := int64(20); tick <= 50; tick++ {
		l.AddCheck(tick, uint64(tick)*0x9e3779b97f4a7c15)
	}
	if again, _ := l.RunChecksum(); again != all {
		t.Fatalf("recorded again after the cut: %016x, straight: %016x", again, all)
	}
	l.SetTicks([]int64{50})
	l.EndScene(EndReturned, "")
	if p := l.Prefix(3, []int64{30}); len(p.Scenes[2].Checks) != 30 {
		t.Fatalf("the prefix holds %d checksums", len(p.Scenes[2].Checks))
	} else if got, _ := p.RunChecksum(); got != xxhash.Sum64(stream(p)) {
		t.Fatalf("the prefix: %016x, its stream %016x", got, xxhash.Sum64(stream(p)))
	}
	l.Complete = true
	data, err := Encode(Run{}, l)
	if err != nil {
		t.Fatal(err)
	}
	_, back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := back.RunChecksum(); got != all {
		t.Fatalf("parsed: %016x, recorded %016x", got, all)
	}
	l.Restart()
	if _, ok := l.RunChecksum(); ok {
		t.Fatal("a restarted log has a run checksum")
	}
}
