package render_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/internal/ebitentest"
)

// The tests run beside a running ebiten game, so that those that draw can
// (ebitentest.OnGame).
func TestMain(m *testing.M) { ebitentest.Main(m) }
