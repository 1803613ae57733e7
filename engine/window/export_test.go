package window

// Openings for the tests in package window_test.

// SetLayoutObserver makes f see every Layout call of the driver: the
// outside size ebiten passed and the screen size returned. Set it before Run.
func SetLayoutObserver(f func(outsideWidth, outsideHeight, screenWidth, screenHeight int)) {
	layoutObserver = f
}

// DrawOnFinalScreen turns the browser's drawing path on or off
// (drawsOnFinalScreen) for the windows run after it.
func DrawOnFinalScreen(on bool) { drawsOnFinalScreen = on }

// OnFinalScreen reports whether the frame being rendered is drawn on
// ebiten's final screen.
func OnFinalScreen() bool {
	g := running.Load()
	return g != nil && g.d.final
}
