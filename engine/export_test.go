package engine

// Openings for the tests in package engine_test.

// SetLayoutObserver makes f see every Layout call of the window driver: the
// outside size ebiten passed and the screen size returned. Set it before Run.
func SetLayoutObserver(f func(outsideWidth, outsideHeight, screenWidth, screenHeight int)) {
	layoutObserver = f
}

// SetFocusPaused holds or releases game time as the window driver does when
// the window loses or regains focus under Window.PauseOnFocusLoss.
func (l *Loop) SetFocusPaused(p bool) { l.focusPaused = p }

// LogRates returns the group rates scene i of lg was recorded with, for
// tests that replay a log they did not record.
func LogRates(lg *InputLog, i int) []float64 { return lg.scenes[i].rates }
