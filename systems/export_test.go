package systems

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

// InspectorBuilds returns how many times the inspector rebuilt its panel.
func InspectorBuilds(i *Inspector) int { return i.builds }

// InspectorChanged returns the panel's lines marked as changed in the last
// tick (drawn in yellow).
func InspectorChanged(i *Inspector) []string {
	var out []string
	for _, l := range i.lines {
		if l.changed {
			out = append(out, l.text)
		}
	}
	return out
}
