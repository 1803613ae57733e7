package wire

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/statefile"
)

// A Kept is a finished match as its game server keeps it: the start its
// players were sent, its end, and the tick message of every tick it ran
// (each tick's number, the inputs that changed and the state checksum
// after it: what the players were sent), as a history (AppendHistory)
// compressed with zstd (the engine's state files' encoding). A client plays it again as a player who came back
// catches up: every tick with the server's inputs, every checksum checked
// against the server's. Its JSON is what the server stores.
type Kept struct {
	Start Start `json:"start"` // Seat 0; Resumed: the last tick run
	End   End   `json:"end"`

	// Bytes is the length of the history; Ticks holds it compressed.
	Bytes int    `json:"bytes"`
	Ticks []byte `json:"ticks"`
}

// MaxKept bounds a kept match's history: past it, a server keeps none (a
// game server keeps this much of a match under way for its players who
// come back, about an hour of a game whose inputs change every tick).
const MaxKept = 16 << 20

// Keep returns the kept match of start, end and history (its ticks'
// messages, AppendHistory's).
func Keep(start Start, end End, history []byte) (*Kept, error) {
	if len(history) > MaxKept {
		return nil, fmt.Errorf("wire: a match's ticks of %d bytes, more than %d", len(history), MaxKept)
	}
	start.Seat, start.Resumed, start.From, start.StateBytes = 0, end.Tick, 0, 0
	return &Kept{Start: start, End: end, Bytes: len(history), Ticks: statefile.Compress(nil, history)}, nil
}

// History returns the kept match's tick messages, checked to be whole
// tick messages of ticks 1 to End.Tick in order, which decode for the
// match's players (their inputs are not applied: a Session does that).
// Damaged or foreign bytes are an error, and nothing is decompressed past
// Bytes, nor past MaxKept.
func (k *Kept) History() ([]byte, error) {
	switch {
	case k.Bytes < 0 || k.Bytes > MaxKept:
		return nil, fmt.Errorf("wire: a kept match of %d bytes of ticks: at most %d", k.Bytes, MaxKept)
	case k.Start.Players < 1 || k.Start.Players > input.MaxPlayers:
		return nil, fmt.Errorf("wire: a kept match of %d players", k.Start.Players)
	case k.End.Tick < 0 || k.Start.Resumed != k.End.Tick || k.Start.From != 0:
		return nil, fmt.Errorf("wire: a kept match that ended after tick %d says it ran %d", k.End.Tick, k.Start.Resumed)
	}
	h, err := statefile.Decompress(k.Ticks, uint64(k.Bytes))
	if err != nil {
		return nil, fmt.Errorf("wire: a kept match's ticks: %w", err)
	}
	if len(h) != k.Bytes {
		return nil, fmt.Errorf("wire: a kept match's ticks are %d bytes; it says %d", len(h), k.Bytes)
	}
	var in [input.MaxPlayers]input.State
	players := in[:k.Start.Players]
	next := int64(1)
	for rest := h; len(rest) > 0; next++ {
		msg, after, err := SplitHistory(rest)
		if err != nil {
			return nil, fmt.Errorf("wire: a kept match's tick %d: %w", next, err)
		}
		t, _, err := DecodeTick(msg, players)
		if err != nil {
			return nil, fmt.Errorf("wire: a kept match's tick %d: %w", next, err)
		}
		if t != next {
			return nil, fmt.Errorf("wire: a kept match's tick %d comes where tick %d should", t, next)
		}
		rest = after
	}
	if next-1 != k.End.Tick {
		return nil, fmt.Errorf("wire: a kept match of %d ticks says it ran %d", next-1, k.End.Tick)
	}
	return h, nil
}
