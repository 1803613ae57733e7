//go:build js

package onlinemode

import (
	"context"
	"errors"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
)

// In a browser there is no online play: the client (engine/online/client)
// is left out of the WebAssembly build, which it would make a third
// larger, and Go's WebAssembly has no socket to reach a server with.
type match struct{}

// Start refuses -server: online play is not built for the browser.
func (m *Mode) Start(_ context.Context, _ *cli.Run, at cli.Stage) (engine.Session, error) {
	if at != cli.BeforeFirst || m.server == "" {
		return nil, nil
	}
	return nil, errors.New("-server: online play is not built for the browser")
}

// End is never called: Start starts no session.
func (m *Mode) End(_ *cli.Run, err error) error { return err }

// Summary is never called: Start starts no session.
func (m *Mode) Summary(*cli.Run, io.Writer) {}
