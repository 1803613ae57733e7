package streamsim_test

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// A proxy in front of an echo server, 20 ms away each way: a client that
// dials the proxy hears its echo a round trip of at least 40 ms later.
func ExampleListen() {
	echo, _ := net.Listen("tcp", "127.0.0.1:0")
	defer echo.Close()
	go func() {
		c, _ := echo.Accept()
		io.Copy(c, c)
		c.Close()
	}()

	link, _ := streamsim.ParseLink("20ms")
	p, _ := streamsim.Listen("127.0.0.1:0", echo.Addr().String(), link)
	defer p.Close()

	c, _ := net.Dial("tcp", p.Addr().String())
	defer c.Close()
	sent := time.Now()
	c.Write([]byte("hello"))
	b := make([]byte, 5)
	io.ReadFull(c, b)
	fmt.Println(string(b), time.Since(sent) >= 40*time.Millisecond)
	// Output: hello true
}
