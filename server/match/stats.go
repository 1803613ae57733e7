package match

import "time"

// Stats is what MatchSignal "stats" returns: the match's counters.
type Stats struct {
	Match   string           `json:"match"`
	Phase   string           `json:"phase"`
	Tick    int64            `json:"tick"` // the last tick run
	Players []SeatJSON       `json:"players"`
	Loop    LoopStats        `json:"loop"`
	Bytes   int64            `json:"bytes"`               // tick messages' payloads broadcast, per player
	Strange map[string]int64 `json:"strangers,omitempty"` // messages before the start, or from no player of the match, by reason
}

// SeatJSON is one seat's counters in Stats: its player's (User), and
// those before it when a newcomer took the seat over.
type SeatJSON struct {
	Seat      int              `json:"seat"`
	User      string           `json:"user"`
	Left      bool             `json:"left"`
	Back      int              `json:"back,omitempty"`      // times the player came back after leaving
	Newcomers int              `json:"newcomers,omitempty"` // times a newcomer took the seat over after its player left
	Kicked    bool             `json:"kicked,omitempty"`
	Taken     int64            `json:"taken"`
	Late      int64            `json:"late"`
	Last      int64            `json:"last"` // the stamp of the last input taken
	Refused   map[string]int64 `json:"refused,omitempty"`
}

// LoopStats times the match's ticks: Step is the simulation's share of a
// MatchLoop call, Interval the wall time between two calls (Nakama's
// ticker: 1/Hz when the server keeps up).
type LoopStats struct {
	Ticks       int64   `json:"ticks"`
	StepP50Us   float64 `json:"step_p50_us"`
	StepP99Us   float64 `json:"step_p99_us"`
	StepMaxUs   float64 `json:"step_max_us"`
	IntervalP50 float64 `json:"interval_p50_ms"`
	IntervalP99 float64 `json:"interval_p99_ms"`
	IntervalMax float64 `json:"interval_max_ms"`
	LoopP99Us   float64 `json:"loop_p99_us"` // a whole MatchLoop call
}

// stats returns the match's counters.
func (h *Handler) stats(s *state) Stats {
	us := func(d time.Duration) float64 { return float64(d.Microseconds()) }
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	st := Stats{Match: s.id, Phase: phaseNames[s.phase], Tick: s.last, Bytes: s.bytes,
		Loop: LoopStats{Ticks: s.step.Count(), StepP50Us: us(s.step.Quantile(0.5)), StepP99Us: us(s.step.Quantile(0.99)),
			StepMaxUs: us(s.step.Max()), IntervalP50: ms(s.interval.Quantile(0.5)), IntervalP99: ms(s.interval.Quantile(0.99)),
			IntervalMax: ms(s.interval.Max()), LoopP99Us: us(s.loop.Quantile(0.99))}}
	for i, p := range s.seats {
		sj := SeatJSON{Seat: i, User: p.user, Left: p.left, Back: p.back, Newcomers: p.took, Kicked: p.kicked}
		if s.inputs != nil {
			ss := s.inputs.Stats(i)
			sj.Taken, sj.Late, sj.Last = ss.Taken, ss.Late, ss.Last
			for r, n := range ss.Refused {
				if n > 0 {
					if sj.Refused == nil {
						sj.Refused = map[string]int64{}
					}
					sj.Refused[Reason(r).String()] = n
				}
			}
		}
		st.Players = append(st.Players, sj)
	}
	for r, n := range s.strange {
		if n > 0 {
			if st.Strange == nil {
				st.Strange = map[string]int64{}
			}
			st.Strange[Reason(r).String()] = n
		}
	}
	return st
}
