package streamsim

import "time"

// Decisions returns the delays of the first n chunks a link's schedule
// draws for the bytes a connection's dialer sends, and how many of them
// were lost.
func Decisions(l Link, n int) (delays []time.Duration, lost int) {
	s := newSchedule(l, saltSent)
	for range n {
		d, l := s.decide()
		delays = append(delays, d)
		if l {
			lost++
		}
	}
	return delays, lost
}
