package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// serve serves dir (what build wrote) over HTTP on addr, printing each
// game's URL to out, until the process ends.
func serve(addr, dir string, out io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return fmt.Errorf("%s has no games: build them first (make web, or go run ./cmd/web build -out %s): %w", dir, dir, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(out, "serving %s on %s\n", dir, base)
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "main.wasm")); err == nil {
				fmt.Fprintf(out, "  %s: %s%s/\n", e.Name(), base, e.Name())
			}
		}
	}
	return http.Serve(ln, handler(dir))
}

// handler serves the files in dir as http.FileServer does, with two changes
// for games: a .wasm file goes out as its gzipped copy (NAME.wasm.gz, which
// build writes) to a client that accepts gzip, and nothing is cached, so a
// rebuilt game loads on the next reload.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Add("Vary", "Accept-Encoding")
		name := path.Clean(r.URL.Path)
		if strings.HasSuffix(name, ".wasm") && acceptsGzip(r) {
			f, err := http.Dir(dir).Open(name + ".gz")
			if err == nil {
				defer f.Close()
				if st, err := f.Stat(); err == nil && !st.IsDir() {
					h.Set("Content-Type", "application/wasm")
					h.Set("Content-Encoding", "gzip")
					http.ServeContent(w, r, name, st.ModTime(), f)
					return
				}
			} else if !errors.Is(err, os.ErrNotExist) {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, enc := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(enc), ";")
		if strings.TrimSpace(name) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
