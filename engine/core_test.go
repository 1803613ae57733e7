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
