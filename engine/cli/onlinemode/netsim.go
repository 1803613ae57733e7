//go:build !js

package onlinemode

import (
	"fmt"
	"net"
	"net/url"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// conditioned returns the server's URL the client dials: -server's, or
// with -server-netsim a proxy's on 127.0.0.1 that forwards to it through
// the link (the proxy returned, for End to close).
func (m *Mode) conditioned(r *cli.Run) (string, *streamsim.Proxy, error) {
	if m.netLink == "" {
		return m.server, nil, nil
	}
	link, _ := streamsim.ParseLink(m.netLink) // checked with the flags
	u, _ := url.Parse(m.server)
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "80")
	}
	p, err := streamsim.Listen("127.0.0.1:0", target, link)
	if err != nil {
		return "", nil, fmt.Errorf("-server-netsim %s: %w", m.netLink, err)
	}
	u.Host = p.Addr().String()
	fmt.Fprintf(r.Log(), "%s: the connection to %s goes through %s, a link of %v each way (-server-netsim)\n", r.Game().Name, m.server, u.Host, link)
	return u.String(), p, nil
}
