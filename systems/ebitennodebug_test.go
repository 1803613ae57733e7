//go:build !ebitenginedebug

package systems_test

// ebitenDebug reports whether the test was built with ebiten's
// ebitenginedebug tag (see TestRenderDrawCommands).
const ebitenDebug = false
