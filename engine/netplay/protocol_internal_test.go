package netplay

import (
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// A bye's message carries a whole desync error (some 500 bytes), where a
// str stops at maxString; one longer than maxMessage arrives cut, saying
// so, and still valid UTF-8.
func TestByeMessageWhole(t *testing.T) {
	whole := strings.Repeat("component types that differ: Body; ", 17) // 595 bytes
	long := strings.Repeat("é", maxMessage)
	var w writer
	w.text(whole, maxMessage)
	w.text(long, maxMessage)
	r := reader{wirebytes.Reader{B: w.b}}
	if got := r.text(maxMessage); got != whole {
		t.Errorf("a %d-byte message arrived as %d bytes", len(whole), len(got))
	}
	cut := r.text(maxMessage)
	if !r.Done() || len(cut) > maxMessage || !strings.HasSuffix(cut, "...") || !strings.HasPrefix(long, strings.TrimSuffix(cut, "...")) {
		t.Errorf("a %d-byte message arrived as %q (%d bytes), done %v", len(long), cut, len(cut), r.Done())
	}
}

// A spectator's goodbye names no tick: it sends no input of its own.
func TestByeTextOfASpectator(t *testing.T) {
	if got := byeText(byeFinished, 0, "", true); got != "its run ended" {
		t.Errorf("a spectator that finished: %q", got)
	}
	if got := byeText(byeFinished, 182, "", false); got != "its run ended after tick 182" {
		t.Errorf("a player that finished: %q", got)
	}
}
