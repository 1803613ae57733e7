package engine_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The simulation core links no graphics library and no cgo: a server, a
// bot or a verifier of recordings builds it alone.
func TestCoreLinksNoGraphics(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "./input", "./state").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "hajimehoshi") || strings.Contains(dep, "ebitengine") || dep == "runtime/cgo" {
			t.Errorf("the core depends on %s", dep)
		}
	}
}

// The state reader (package engine/state) links no physics library: cp's
// summaries are registered by package systems/physics, as ebiten's are by
// package components/gfx.
func TestStateLinksNoPhysics(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./state").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/fixedstep/fixedstep/third_party/cp") || strings.Contains(dep, "jakecoffman") ||
			strings.HasPrefix(dep, "github.com/fixedstep/fixedstep/systems") {
			t.Errorf("engine/state depends on %s", dep)
		}
	}
}
