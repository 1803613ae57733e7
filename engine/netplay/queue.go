package netplay

import (
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
)

// ringTicks is how many ticks of every player's input, and of the state
// checksums, a session keeps: about 8.5 s at 60 Hz. A peer whose
// acknowledgements fall further behind cannot be sent what it lacks.
const ringTicks = 512

// queue is a session's inputs: every player's, confirmed as they arrive,
// predicted until then; what each tick last ran with, to find out which
// predictions proved wrong; the state checksums of the ticks simulated.
// Ticks are the session's (engine.Session's).
type queue struct {
	players int
	conf    [input.MaxPlayers]int64 // per player: every input up to this tick is known
	in      [input.MaxPlayers][ringTicks]input.State
	at      [input.MaxPlayers][ringTicks]int64 // the tick each slot of in holds; 0: none

	used       [ringTicks][input.MaxPlayers]input.State // what each tick last ran with
	usedAt     [ringTicks]int64
	predicted  [ringTicks]uint8 // players whose input each tick last ran with was predicted, one bit each
	wrong      [ringTicks]bool  // a prediction it ran with has proved wrong
	firstWrong int64            // the earliest such tick; 0: none
	simulated  int64            // the latest tick simulated

	sums  [ringTicks]uint64 // the state checksum after each tick's last simulation
	sumAt [ringTicks]int64
}

// reset readies q for a session of n players whose first `delay` ticks
// have no input (each player's first input plays after its delay).
func (q *queue) reset(n int, delay int64) {
	*q = queue{players: n}
	for p := range n {
		for t := int64(1); t <= delay; t++ {
			q.at[p][t%ringTicks] = t
		}
		q.conf[p] = delay
	}
}

// resetAt readies q for a session of n players joined under way, at
// tick t: every player's input of t is known (in), nothing after it.
func (q *queue) resetAt(n int, t int64, in []input.State) {
	*q = queue{players: n, simulated: t}
	for p := range n {
		q.in[p][t%ringTicks], q.at[p][t%ringTicks], q.conf[p] = in[p], t, t
	}
}

// known reports whether player p's input of tick t has arrived.
func (q *queue) known(p int, t int64) bool { return t > 0 && q.at[p][t%ringTicks] == t }

// input returns player p's input of tick t, which must be known.
func (q *queue) input(p int, t int64) input.State { return q.in[p][t%ringTicks] }

// confirmed is the last tick up to which every player's input is known.
func (q *queue) confirmed() int64 {
	c := int64(math.MaxInt64)
	for p := range q.players {
		c = min(c, q.conf[p])
	}
	return c
}

// final is the last tick no rollback can change: every input up to it
// known, none it ran with wrong, and simulated.
func (q *queue) final() int64 {
	f := min(q.confirmed(), q.simulated)
	if q.firstWrong > 0 {
		f = min(f, q.firstWrong-1)
	}
	return f
}

// inWindow reports whether player p's input of tick t can be kept: not
// so far ahead that its slot still holds a tick that is needed, by the
// inputs confirmed or by the ticks simulated (a spectator that joined late
// is sent the inputs from the first tick, and simulates them as fast as
// it can: the inputs it has not simulated yet must stay).
func (q *queue) inWindow(p int, t int64) bool {
	return t > 0 && t <= q.conf[p]+ringTicks/2 && t <= q.simulated+ringTicks/2
}

// add keeps player p's input of tick t, which must be in the window. It
// reports false when a different input for that tick arrived before (the
// new one is not kept). A tick that ran with a prediction this input
// proves wrong is marked for a rollback.
func (q *queue) add(p int, t int64, in *input.State) bool {
	i := t % ringTicks
	if q.at[p][i] == t {
		return q.in[p][i].Same(in)
	}
	q.in[p][i], q.at[p][i] = *in, t
	for q.known(p, q.conf[p]+1) {
		q.conf[p]++
	}
	if q.usedAt[i] == t && q.predicted[i]&(1<<p) != 0 && !q.used[i][p].Same(in) {
		q.wrong[i] = true
		if q.firstWrong == 0 || t < q.firstWrong {
			q.firstWrong = t
		}
	}
	return true
}

// inputs sets players[p] to player p's input of tick t, known or
// predicted (the last known input's held state, with no presses or
// releases), and keeps them as what tick t ran with.
func (q *queue) inputs(t int64, players []input.State) {
	i := t % ringTicks
	var pred uint8
	for p := range players {
		if q.known(p, t) {
			players[p] = q.in[p][i]
			continue
		}
		players[p] = q.in[p][q.conf[p]%ringTicks] // conf >= 0; slot 0 holds no tick: empty
		if q.conf[p] == 0 {
			players[p] = input.State{}
		}
		players[p].ClearEdges()
		pred |= 1 << p
	}
	copy(q.used[i][:], players)
	q.usedAt[i], q.predicted[i], q.wrong[i] = t, pred, false
	q.simulated = max(q.simulated, t)
	if q.firstWrong == t {
		q.firstWrong = 0
		for u := t + 1; u <= q.simulated; u++ {
			if j := u % ringTicks; q.usedAt[j] == u && q.wrong[j] {
				q.firstWrong = u
				break
			}
		}
	}
}

// rollback reports the earliest tick that ran with a prediction proved wrong.
func (q *queue) rollback() (int64, bool) { return q.firstWrong, q.firstWrong > 0 }

// setSum keeps the state checksum after tick t.
func (q *queue) setSum(t int64, sum uint64) {
	q.sums[t%ringTicks], q.sumAt[t%ringTicks] = sum, t
}

// sum returns the state checksum kept after tick t, if it is still kept.
func (q *queue) sum(t int64) (uint64, bool) {
	i := t % ringTicks
	return q.sums[i], t > 0 && q.sumAt[i] == t
}

// discard forgets what the ticks after t ran with and their checksums:
// they were not simulated after all (engine.Session.Discard).
func (q *queue) discard(t int64) {
	for u := t + 1; u <= q.simulated; u++ {
		i := u % ringTicks
		if q.usedAt[i] == u {
			q.usedAt[i], q.predicted[i], q.wrong[i] = 0, 0, false
		}
		if q.sumAt[i] == u {
			q.sumAt[i] = 0
		}
	}
	q.simulated = min(q.simulated, t)
	if q.firstWrong > t {
		q.firstWrong = 0
	}
}
