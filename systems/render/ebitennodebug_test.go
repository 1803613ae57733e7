//go:build !ebitenginedebug

package render_test

// ebitenDebug reports whether the test was built with ebiten's
// ebitenginedebug tag (see TestRenderDrawCommands).
const ebitenDebug = false
