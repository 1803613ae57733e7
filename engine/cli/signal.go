//go:build !js && !wasip1

package cli

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// notifySignals returns a context that SIGINT or SIGTERM cancels, a func
// that tells which signal did (nil: none), and one that stops listening.
func notifySignals() (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			cancel()
		case <-done:
		}
	}()
	signalled := func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, signalled, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// signalStatus is the exit status a shell reports for a process a signal
// ended: 128 plus its number.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}
