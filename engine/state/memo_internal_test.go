package state

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// counted is a library-like type with a summary that counts its calls.
type counted struct{ v int64 }

var summaries int

func init() {
	Summarize("state.counted", func(c *counted, w *Writer) {
		summaries++
		w.Int("V", c.v)
	})
}

// holder and pair hold counted values behind pointers, as a sprite holds
// its image.
type holder struct {
	C *counted
	N int
}

type pair struct{ A, B *counted }

var (
	holderC = donburi.NewComponentType[holder]()
	pairC   = donburi.NewComponentType[pair]()
)

// A world whose entities share library values behind pointers (one for
// many, and one of each entity's own, in two component types) sums the
// same with the memo of summaries as without it, summarising a shared
// value far fewer times than it is met; after the shared value changes,
// the next sum of the same hasher sees the change.
func TestSumMemoIsExact(t *testing.T) {
	shared := &counted{v: 7}
	w := donburi.NewWorld()
	const n = 300
	for i := range n {
		own := &counted{v: int64(i)}
		e := w.Entry(w.Create(holderC, pairC))
		if i%3 == 0 {
			holderC.SetValue(e, holder{C: own, N: i})
		} else {
			holderC.SetValue(e, holder{C: shared, N: i})
		}
		pairC.SetValue(e, pair{A: shared, B: own})
	}
	plain := func() uint64 {
		t.Helper()
		memoizeSums = false
		defer func() { memoizeSums = true }()
		return NewHasher(nil).Sum(w)
	}
	h := NewHasher(nil)
	summaries = 0
	got := h.Sum(w)
	memoized := summaries
	summaries = 0
	want := plain()
	if got != want || summaries != 3*n || memoized >= 2*n {
		t.Fatalf("with the memo: %x after %d summaries; without: %x after %d (values met: %d)", got, memoized, want, summaries, 3*n)
	}
	shared.v++
	again := h.Sum(w)
	if want := plain(); again != want || again == got {
		t.Fatalf("after the shared value changed: %x, without the memo %x, before the change %x", again, want, got)
	}
	t.Logf("%d values met in a sum: %d summaries with the memo, %d without", 3*n, memoized, 3*n)

	// A world of the shared value only: no other value takes its place in
	// the memo between the sums.
	w = donburi.NewWorld()
	for range 5 {
		e := w.Entry(w.Create(holderC, pairC))
		holderC.SetValue(e, holder{C: shared})
		pairC.SetValue(e, pair{A: shared, B: shared})
	}
	before := h.Sum(w)
	shared.v++
	if after, want := h.Sum(w), plain(); after == before || after != want {
		t.Fatalf("a world of one shared value: %x after it changed, %x before, %x without the memo", after, before, want)
	}
}

// A type whose first memoTrial values in a sum are each an entity's own is
// summarised without the memo for the rest of that sum, shared values
// after them too, and sums the same; a type whose first values are shared
// keeps the memo. The next sum tries the memo again.
func TestSumMemoGivesUpOnUnsharedValues(t *testing.T) {
	shared := &counted{v: 7}
	world := func(sharedFirst bool) donburi.World {
		w := donburi.NewWorld()
		for i := range 200 {
			c := &counted{v: int64(i)}
			if i < 100 == sharedFirst {
				c = shared
			}
			holderC.SetValue(w.Entry(w.Create(holderC)), holder{C: c, N: i})
		}
		return w
	}
	plain := func(w donburi.World) uint64 {
		memoizeSums = false
		defer func() { memoizeSums = true }()
		return NewHasher(nil).Sum(w)
	}
	for _, c := range []struct {
		sharedFirst bool
		summaries   int // in each of two sums by one hasher
	}{
		{sharedFirst: false, summaries: 200}, // 64 misses: no memo for the 100 shared
		{sharedFirst: true, summaries: 101},  // the shared value once, then each own value
	} {
		w := world(c.sharedFirst)
		want := plain(w)
		h := NewHasher(nil)
		for round := range 2 {
			summaries = 0
			if got := h.Sum(w); got != want || summaries != c.summaries {
				t.Errorf("shared values first %v, sum %d: %x after %d summaries, want %x after %d",
					c.sharedFirst, round+1, got, summaries, want, c.summaries)
			}
		}
	}
}
