package crosscpu

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// thirtyTwoBit lists the packages whose own tests also run on a 32-bit CPU:
// those that read hostile bytes into counts and lengths (a space, a world's
// layout, a value, an input log, a save), and those that sum and write the
// state. There an int is 32 bits, and a count of 2^31 or more read into
// one is negative: a check that only asks "more than the limit?" lets it
// through.
var thirtyTwoBit = []string{"./engine", "./engine/state", "./third_party/cp", "./third_party/donburi/..."}

// The packages of thirtyTwoBit pass their tests built for 386 (run
// natively here, as the 386 target of TestEveryCPUPlaysTheSameGame is).
func TestPackagesPassOn32Bits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the tests of four packages for 386")
	}
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skip("386 programs run natively on linux/amd64 only")
	}
	args := append([]string{"test", "-count=1", "-timeout", "0"}, thirtyTwoBit...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOARCH=386", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test for 386: %v\n%s", err, out)
	}
	t.Logf("go test for 386:\n%s", out)
}
