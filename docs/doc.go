// Package docs holds the engine's guides: README.md at the module's root is
// the one screen, and the Markdown files of this folder are the guides it
// maps. The package has no code of its own; its tests hold the guides to the
// code (blocks_test.go says how): every Go block compiles, the programs run,
// the flags a command line shows exist, the tests and the Go names a guide
// shows exist, and the package picture of architecture.md matches the
// imports.
package docs
