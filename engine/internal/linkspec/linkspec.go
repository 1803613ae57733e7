// Package linkspec reads the terms of a link conditioner's spec as a
// command line gives them (netsim's -netsim, streamsim's -server-netsim):
// a duration in a range, a share from 0 to 1. Its errors name the range a
// term must be in; the caller names the term.
package linkspec

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration reads a time from 0 to max: name says what it is, why (if not
// empty) why max bounds it.
func Duration(p, name string, max time.Duration, why string) (time.Duration, error) {
	d, err := time.ParseDuration(p)
	switch {
	case err != nil:
		return 0, fmt.Errorf("want a %s from 0 to %v%s, e.g. 80ms", name, max, why)
	case strings.HasPrefix(p, "-"):
		return 0, fmt.Errorf("negative: want a %s from 0 to %v%s", name, max, why)
	case d > max:
		return 0, fmt.Errorf("more than %v: want a %s from 0 to %v%s", max, name, max, why)
	}
	return d, nil
}

// Share reads a share: a percentage (2%) or a fraction (0.02), from 0 to
// 1.
func Share(p string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
	if strings.HasSuffix(p, "%") {
		v /= 100
	}
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(v):
		return 0, errors.New("not a number: want a share from 0% to 100% (or 0 to 1)")
	case strings.HasPrefix(p, "-"):
		return 0, errors.New("negative: want a share from 0% to 100% (or 0 to 1)")
	case !(v >= 0 && v <= 1):
		return 0, errors.New("want a share from 0% to 100% (or 0 to 1)")
	}
	return v, nil
}

// ValidShare reports whether v is a share: 0 to 1, not NaN, not -0.
func ValidShare(v float64) bool { return v >= 0 && v <= 1 && !math.Signbit(v) }
