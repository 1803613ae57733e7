package devtools

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
