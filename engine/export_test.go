package engine

// Openings for the tests in package engine_test.

// SetFocusPaused holds or releases game time as the window driver does when
// the window loses or regains focus under Window.PauseOnFocusLoss.
func (l *Loop) SetFocusPaused(p bool) { l.focusPaused = p }
