//go:build js

package cli

import (
	"context"
	"errors"
	"io"

	"github.com/fixedstep/fixedstep/engine"
)

// In a browser there is no online play: the client (engine/online/client)
// is left out of the WebAssembly build, which it would make a third
// larger, and Go's WebAssembly has no socket to reach a server with.
type onlineRun struct{}

func (a *App) joinOnline(context.Context) (*onlineRun, error) {
	return nil, errors.New("cli: -server: online play is not built for the browser")
}

func (o *onlineRun) ended(err error) error                           { return err }
func (o *onlineRun) summary(io.Writer, engine.SessionStats, float64) {}
func (o *onlineRun) close()                                          {}
func (o *onlineRun) engineSession() engine.Session                   { return nil }
