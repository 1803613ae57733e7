package window

// Openings for the tests in package window_test.

// SetLayoutObserver makes f see every Layout call of the driver: the
// outside size ebiten passed and the screen size returned. Set it before Run.
func SetLayoutObserver(f func(outsideWidth, outsideHeight, screenWidth, screenHeight int)) {
	layoutObserver = f
}
