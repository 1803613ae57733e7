package cli

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/fixedstep/fixedstep/engine/input"
)

// Local multiplayer: -seats, for a game that seats several players on one
// machine (App.MaxSeats).

// seatsUsage is -seats's line of -h.
const seatsUsage = "players on this machine, one seat each, in player order: kb (the whole keyboard and the mouse), " +
	"kb1 (its left half: WASD, Space, left Shift), kb2 (its right half: the arrows, Enter, right Shift), pad0 to pad3; " +
	"in a networked run, DEVICE@N is on player N's machine (kb1,kb2,pad0@2). Recordings keep it"

// defineSeats defines -seats when the game seats players (MaxSeats).
func (a *App) defineSeats(fs *flag.FlagSet) {
	if a.MaxSeats > 0 {
		fs.StringVar(&a.f.seats, "seats", "", seatsUsage)
	}
}

// Seats returns the seats -seats gives (or the replayed recording's, or a
// networked session's), checked: none when -seats is not set, or the game
// has no seats (MaxSeats 0). A game gives them to its scenes, which seat
// their players by them (core.Stage.SetSeats); it is known when the
// game's first scene is made.
func (a *App) Seats() input.Seats { return a.seats }

// checkSeats reads -seats, refusing what a run cannot seat: an unknown
// device, a device taken twice, more players than the game seats, a
// device on another machine without a networked run that has it.
func (a *App) checkSeats() error {
	a.seats = input.Seats{}
	if a.MaxSeats <= 0 || a.f.seats == "" {
		return nil
	}
	s, err := input.ParseSeats(a.f.seats)
	if err != nil {
		return &FlagError{"seats", a.f.seats, err.Error()}
	}
	if most := min(a.MaxSeats, input.MaxPlayers); int(s.N) > most {
		return &FlagError{"seats", a.f.seats, fmt.Sprintf("%d players: %s seats at most %d", s.N, a.name(), most)}
	}
	if peers := s.Peers(); peers > 1 {
		machines := 1
		switch {
		case a.f.replay != "" || a.f.load != "":
			machines = input.MaxPlayers // the recording's machines: it was checked as it was made
			if a.run != nil && a.run.replay != nil {
				machines = max(a.run.replay.Players, 1)
			}
		case a.run != nil && a.run.mode != nil:
			machines = input.MaxPlayers // a joiner learns the session's players from the host
			if n, err := strconv.Atoi(a.run.Value("players")); err == nil && a.run.Given("players") {
				machines = n
			}
		}
		if peers > machines {
			for i := range int(s.N) {
				if st := s.Seat[i]; int(st.Peer) >= machines {
					reason := fmt.Sprintf("seat %d (%v) is on networked player %d's machine, and the run has %d", i+1, st, st.Peer+1, machines)
					if machines == 1 {
						reason += ": that needs a networked run (-host with -players)"
					}
					return &FlagError{"seats", a.f.seats, reason}
				}
			}
		}
	}
	a.seats = s
	return nil
}
