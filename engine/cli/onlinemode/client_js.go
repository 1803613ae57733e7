//go:build js

package onlinemode

import (
	"errors"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// conditioned returns -server's URL: in a browser the page dials the
// server itself (fetch and the browser's WebSocket), so there is no
// connection for -server-netsim's proxy to carry: it is refused.
func (m *Mode) conditioned(*cli.Run) (string, *streamsim.Proxy, error) {
	if m.netLink != "" {
		return "", nil, errors.New("-server-netsim: a page's connections are the browser's: no proxy in the page can carry them")
	}
	return m.server, nil, nil
}
