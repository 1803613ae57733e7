package physics

// QueryIndexesFound reports whether the queries reach cp's spatial indexes
// directly (see cpindex.go).
func QueryIndexesFound() bool { return spaceIndexFound }

// SetQueryIndexes turns the direct use of cp's spatial indexes off (the
// queries then go through cp's public Space.BBQuery) or back on, and returns
// a function that restores the setting.
func SetQueryIndexes(on bool) (restore func()) {
	old := spaceIndexFound
	spaceIndexFound = on && old
	return func() { spaceIndexFound = old }
}

// TrackNoTouches turns the tracking of touching pairs off, for a baseline
// in BenchmarkTouching: OnTouch and Touching then see no pair. Call it
// before the first step.
func TrackNoTouches(p *Physics) { p.touches.off = true }
