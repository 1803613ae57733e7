//go:build ebitenginedebug

package render_test

// ebitenDebug reports whether the test was built with ebiten's
// ebitenginedebug tag, under which ebiten logs the graphics commands it
// flushes (see TestRenderDrawCommands).
const ebitenDebug = true
