package cp_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/fusedops"
)

// A product by a power of two, which is exact: 0.5*x, x*0.5, x/2.0, 2*x.
var exactProductRE = regexp.MustCompile(`\b0\.5\s*\*|\*\s*0\.5\b|/\s*2\.0\b|\b2\s*\*`)

// Compiled for arm64, riscv64 and amd64 v3, this copy has no multiply-add
// left but those of products by powers of two: such a product is exact,
// so fused or not it gives the same bits. (A multiply-add is placed on the
// line of its sum: the product is on that line or the one before.)
func TestNoMultiplyAddLeft(t *testing.T) {
	for _, target := range fusedops.Targets[:3] {
		ops, err := fusedops.Find(".", ".", target)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range ops {
			src, err := os.ReadFile(op.File)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Split(string(src), "\n")[op.Line-2:op.Line], "\n")
			if !exactProductRE.MatchString(text) {
				t.Errorf("%s: %v: %s", target.Name, op, strings.TrimSpace(text))
			}
		}
		t.Logf("%s: %d multiply-adds, all of products by powers of two", target.Name, len(ops))
	}
}
