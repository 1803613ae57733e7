package core

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// SetSeats makes the scene's players those at seats (input.Seats: a
// device each, on this machine or, in a networked run, on a player's):
// from then on every Update event the scene's systems handle holds in
// ev.Players one input per seat, player n's being its device's part of
// its machine's input (input.Seats.Split), so that ev.Player(n) is player
// n's whatever reads it (systems.PlayerControl for an entity with a
// components.Seat, aim, actions). ev.Input stays the first machine's whole
// input, for what belongs to no seat: a menu's Escape, the dev keys.
//
// The seats are the scene's state, kept as Keep keeps a value: a join
// screen changes them on a tick (SetSeats(s) with s.Join(st.Machines(),
// most)), and a replay, a rollback, the sync test and a step back split
// the recorded input again as the run did. What a run records is every
// machine's input as its devices gave it, so a recording of a local game
// replays with no -seats at all. The split allocates nothing.
//
// Call it while building the scene (with no seats, for a join screen
// that fills them), then from update systems only. Without it the
// players are the loop's (engine.Loop.Players), as ever.
func (s *Stage) SetSeats(seats input.Seats) {
	if !s.seated {
		if s.event == engine.Update {
			panic(fmt.Sprintf("core: SetSeats(%v) first called on a tick: call it while building the scene "+
				"(with no seats for a join screen), so that its state is kept from the start", seats))
		}
		s.seated = true
		Keep(s, &s.seats)
	}
	s.seats = seats
}

// Seats returns the scene's seats (see SetSeats); none without SetSeats.
func (s *Stage) Seats() input.Seats { return s.seats }

// Players returns how many players the scene has: its seats' number
// after SetSeats, else the loop's (1, or a networked run's players).
func (s *Stage) Players() int {
	if s.seated {
		return int(s.seats.N)
	}
	return s.Loop.Players()
}

// Machines returns, during an Update event, every machine's input for the
// tick as the loop gave it (ev.Players before SetSeats's split: this
// machine's, or in a networked run each player's machine's), for a join
// screen (input.Seats.Join); nil on other events. It is valid until the
// next event.
func (s *Stage) Machines() []input.State { return s.machines }

// split returns ev as the scene's systems see it: with seats, an Update
// event's Players split by them.
func (s *Stage) split(ev engine.Event) engine.Event {
	if ev.Kind != engine.Update {
		s.machines = nil
		return ev
	}
	s.machines = ev.Players
	if s.seated {
		ev.Players = s.seats.Split(ev.Players, &s.seatIn)
	}
	return ev
}
