// Package linkspec reads a link conditioner's spec as a command line
// gives it (netsim's -netsim, streamsim's -server-netsim): terms separated
// by commas, each a duration in a range or a share from 0 to 1. Its
// errors name the spec, the part and the range it must be in.
package linkspec

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// A Term reads one part of a spec, trimmed, into the value it sets.
type Term func(p string) error

// Parse reads s, its parts read by terms in order: s empty, or of more
// parts than terms, is an error that wants form; a part a term refuses is
// one that names it. Errors begin with pkg, the conditioner's name.
func Parse(pkg, s, form string, terms ...Term) error {
	parts := strings.Split(s, ",")
	if s == "" || len(parts) > len(terms) {
		return fmt.Errorf("%s: %q: want %s", pkg, s, form)
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if err := terms[i](p); err != nil {
			return fmt.Errorf("%s: %q: part %d, %q: %w", pkg, s, i+1, p, err)
		}
	}
	return nil
}

// Duration is a term that reads a time from 0 to *max (read as the term
// is: a term before may have set it) into d: name says what it is, why
// (if not empty) why max bounds it.
func Duration(d *time.Duration, name string, max *time.Duration, why string) Term {
	return func(p string) (err error) {
		*d, err = duration(p, name, *max, why)
		return err
	}
}

// Share is a term that reads a share into v: a percentage (2%) or a
// fraction (0.02), from 0 to 1.
func Share(v *float64) Term {
	return func(p string) (err error) {
		*v, err = share(p)
		return err
	}
}

// duration reads a time from 0 to max.
func duration(p, name string, max time.Duration, why string) (time.Duration, error) {
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

// share reads a share.
func share(p string) (float64, error) {
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
