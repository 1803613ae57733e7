//go:build js || wasip1

package cli

import (
	"context"
	"os"
)

// notifySignals: a program in a browser gets no signals.
func notifySignals() (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	return ctx, func() os.Signal { return nil }, cancel
}

func signalStatus(os.Signal) int { return 1 }
