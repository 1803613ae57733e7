// Package nakamatest gives a test a real game server: Nakama with the
// fixedstep plugin (server/plugin), on a Postgres cluster of its own, on
// free ports of 127.0.0.1.
//
//	srv := nakamatest.Start(t)
//	c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey})
//
// Start builds nakama and the plugin with scripts/server.sh (the command
// make server uses; an unchanged build takes seconds), makes a cluster with
// initdb in a temporary directory, starts Postgres and Nakama, and waits for
// Nakama's healthcheck. t.Cleanup stops both and removes the directory (kept,
// and said so, when the test failed).
//
// When Postgres or the Go toolchain is missing, Start fails the test with
// what to install (scripts/server.sh deps installs it), unless
// NAKAMATEST_ALLOW_SKIP=1, when it skips the test saying the same.
package nakamatest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// AllowSkipEnv is the environment variable that, set to 1, lets Start and
// Build skip a test when Postgres or the toolchain is missing.
const AllowSkipEnv = "NAKAMATEST_ALLOW_SKIP"

// Options are Start's options; the zero value is the default.
type Options struct {
	// ServerKey is the socket server key clients give (default "defaultkey").
	ServerKey string
	// Args are more nakama flags, e.g. "--logger.level", "DEBUG".
	Args []string
}

// Server is a running Nakama with the plugin, and its Postgres.
type Server struct {
	// URL is the HTTP API's base, http://127.0.0.1:PORT; the realtime
	// socket is ws://127.0.0.1:PORT/ws and gRPC is on PORT-1.
	URL string
	// ServerKey is the socket server key.
	ServerKey string
	// LogPath is Nakama's output, its migrations' among it, every start
	// appended; PostgresLogPath is Postgres's.
	LogPath, PostgresLogPath string

	t      testing.TB
	bins   Binaries
	dir    string
	config string // Nakama's config file: the database's address
	args   []string
	pg     *proc
	psql   []string // psql's command line for the database, and its environment's password (Query)
	pgEnv  string

	mu     sync.Mutex
	nakama *proc
}

// proc is a started process and a channel closed when it has exited.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error // cmd.Wait's, once done is closed
}

func startProc(cmd *exec.Cmd) (*proc, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends sig, waits up to grace, then kills; it says whether the
// process exited within grace.
func (p *proc) stop(sig syscall.Signal, grace time.Duration) bool {
	if p.exited() {
		return true
	}
	p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return true
	case <-time.After(grace):
		p.cmd.Process.Kill()
		<-p.done
		return false
	}
}

// Start starts a server for the test (see the package comment); opts are
// optional, at most one.
func Start(t testing.TB, opts ...Options) *Server {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.ServerKey == "" {
		o.ServerKey = "defaultkey"
	}
	pgBin := postgresBin(t)
	bins := Build(t)

	dir, err := os.MkdirTemp("", "nakamatest-")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{
		t:               t,
		bins:            bins,
		dir:             dir,
		ServerKey:       o.ServerKey,
		LogPath:         filepath.Join(dir, "nakama.log"),
		PostgresLogPath: filepath.Join(dir, "postgres.log"),
	}
	t.Cleanup(s.cleanup)
	// Postgres runs as its own user when the test runs as root: it must
	// reach its directory.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s.startPostgres(pgBin)

	port := freePorts(t, -1, 0)    // the API, and gRPC on port-1
	console := freePorts(t, -3, 0) // the console, and its gRPC on port-3
	s.URL = fmt.Sprintf("http://127.0.0.1:%d", port)
	s.args = append([]string{
		"--name", "nakamatest",
		"--data_dir", filepath.Join(dir, "nakama"),
		"--config", s.config, // the database's address, password and all: not on a command line ps shows
		"--runtime.path", bins.Modules,
		"--socket.address", "127.0.0.1",
		"--socket.port", strconv.Itoa(port),
		"--socket.server_key", o.ServerKey,
		"--console.address", "127.0.0.1",
		"--console.port", strconv.Itoa(console),
		// A client that has not read its socket for this many messages is
		// dropped as too slow: 64 by default, a second of a match's ticks. A
		// test's clients share a busy machine, and may be starved longer.
		"--socket.outgoing_queue_size", "1024",
		// A match's messages from its players wait in one queue, which drops
		// what comes when it is full (128 by default): a flooding player
		// could crowd out the others' inputs in the tick before it is
		// removed (match.KickAt). make server sets the same.
		"--match.input_queue_size", "4096",
		// On SIGTERM, matches get MatchTerminate (their players are told)
		// within this many seconds; 0 stops them without it.
		"--shutdown_grace_sec", "2",
	}, o.Args...)
	s.startNakama()
	return s
}

// PID is the running Nakama's process id (tests read its CPU time from
// /proc/PID/stat); 0 when Nakama was killed and not restarted.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nakama == nil || s.nakama.exited() {
		return 0
	}
	return s.nakama.cmd.Process.Pid
}

// Kill kills Nakama with SIGKILL, as a crash would, and waits for it to
// exit; Postgres goes on. Restart starts it again.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nakama != nil {
		s.nakama.stop(syscall.SIGKILL, 10*time.Second)
	}
}

// Restart starts Nakama again on the same database and ports, migrating
// first, and waits for its healthcheck; a Nakama still running is stopped
// first (SIGTERM). Call it from the test's goroutine.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	if s.nakama != nil {
		s.nakama.stop(syscall.SIGTERM, 10*time.Second)
	}
	s.mu.Unlock()
	s.startNakama()
}

func (s *Server) startNakama() {
	t := s.t
	t.Helper()
	log, err := os.OpenFile(s.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()

	// migrate makes the database when it is missing, then its schema.
	fmt.Fprintf(log, "nakamatest: %s migrate up\n", s.bins.Nakama)
	migrate := exec.Command(s.bins.Nakama, "migrate", "up", "--config", s.config)
	migrate.Stdout, migrate.Stderr = log, log
	if err := migrate.Run(); err != nil {
		t.Fatalf("nakamatest: nakama migrate up: %v\n%s", err, s.tails())
	}

	fmt.Fprintf(log, "nakamatest: %s %s\n", s.bins.Nakama, strings.Join(s.args, " "))
	cmd := exec.Command(s.bins.Nakama, s.args...)
	cmd.Env = append(os.Environ(), "NAKAMA_TELEMETRY=0")
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	p, err := startProc(cmd)
	if err != nil {
		t.Fatalf("nakamatest: starting nakama: %v", err)
	}
	s.mu.Lock()
	s.nakama = p
	s.mu.Unlock()
	if err := s.waitHealthy(p); err != nil {
		t.Fatalf("nakamatest: %v\n%s", err, s.tails())
	}
	t.Logf("nakamatest: Nakama (pid %d) answers at %s after %v; log %s", p.cmd.Process.Pid, s.URL, time.Since(start).Round(time.Millisecond), s.LogPath)
}

// Deadlines that follow progress: Nakama gets stallTimeout after its log
// last grew, and maxStart in all.
const (
	stallTimeout = 60 * time.Second
	maxStart     = 5 * time.Minute
)

// waitHealthy waits for GET /healthcheck to answer 200 while p runs and its
// log grows.
func (s *Server) waitHealthy(p *proc) error {
	client := &http.Client{Timeout: 2 * time.Second}
	start := time.Now()
	lastSize, lastGrew := int64(-1), start
	for {
		resp, err := client.Get(s.URL + "/healthcheck")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if p.exited() {
			return fmt.Errorf("nakama exited before its healthcheck answered: %v", p.err)
		}
		now := time.Now()
		if fi, err := os.Stat(s.LogPath); err == nil && fi.Size() != lastSize {
			lastSize, lastGrew = fi.Size(), now
		}
		switch {
		case now.Sub(lastGrew) > stallTimeout:
			return fmt.Errorf("nakama's healthcheck did not answer, and its log has not grown for %v", stallTimeout)
		case now.Sub(start) > maxStart:
			return fmt.Errorf("nakama's healthcheck did not answer in %v", maxStart)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startPostgres makes a cluster in s.dir/pg and starts it on a free port.
func (s *Server) startPostgres(bin string) {
	t := s.t
	t.Helper()
	start := time.Now()
	cred := postgresUser(t)
	data := filepath.Join(s.dir, "pg")
	pwfile := filepath.Join(s.dir, "pgpass")
	password := strconv.FormatUint(rand.Uint64(), 36)
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pwfile, []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		for _, f := range []string{data, pwfile} {
			if err := os.Chown(f, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--pwfile", pwfile,
		"--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.Dir = s.dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("nakamatest: initdb: %v\n%s", err, out)
	}

	port := freePorts(t, 0)
	log, err := os.Create(s.PostgresLogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	// A test's database needs no durability.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	s.pg, err = startProc(cmd)
	if err != nil {
		t.Fatalf("nakamatest: starting postgres: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(s.PostgresLogPath)
		if bytes.Contains(b, []byte("database system is ready to accept connections")) {
			break
		}
		if s.pg.exited() || time.Now().After(deadline) {
			t.Fatalf("nakamatest: postgres did not start (%v)\n%s", s.pg.err, s.tails())
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.psql = []string{filepath.Join(bin, "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "-d", "nakama",
		"-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"}
	s.pgEnv = "PGPASSWORD=" + password
	s.config = filepath.Join(filepath.Dir(s.PostgresLogPath), "nakama.yml")
	yml := fmt.Sprintf("database:\n  address:\n    - \"postgres:%s@127.0.0.1:%d/nakama?sslmode=disable\"\n", password, port)
	if err := os.WriteFile(s.config, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("nakamatest: Postgres ready on 127.0.0.1:%d after %v (initdb included)", port, time.Since(start).Round(time.Millisecond))
}

// StorageCount returns how many objects Nakama's storage holds in
// collection, read from its database with psql: for a test of what the
// server keeps that no client may read.
func (s *Server) StorageCount(collection string) int {
	s.t.Helper()
	if strings.Trim(collection, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		s.t.Fatalf("nakamatest: StorageCount(%q): a collection of a-z, 0-9 and _ only", collection)
	}
	cmd := exec.Command(s.psql[0], append(s.psql[1:], "-c", "SELECT count(*) FROM storage WHERE collection = '"+collection+"'")...)
	cmd.Env = append(os.Environ(), s.pgEnv)
	out, err := cmd.CombinedOutput()
	n, perr := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || perr != nil {
		s.t.Fatalf("nakamatest: counting the storage's %s: %v\n%s", collection, err, out)
	}
	return n
}

func (s *Server) cleanup() {
	s.mu.Lock()
	if s.nakama != nil {
		s.nakama.stop(syscall.SIGTERM, 10*time.Second)
	}
	s.mu.Unlock()
	if s.pg != nil && !s.pg.stop(syscall.SIGINT, 20*time.Second) { // fast shutdown
		s.t.Logf("nakamatest: postgres did not stop in 20 s: killed")
	}
	if s.t.Failed() {
		os.RemoveAll(filepath.Join(s.dir, "pg")) // the cluster; its log stays
		s.t.Logf("nakamatest: logs kept: %s, %s", s.LogPath, s.PostgresLogPath)
		return
	}
	os.RemoveAll(s.dir)
}

// tails is the end of both logs, for a failure's message.
func (s *Server) tails() string {
	var b strings.Builder
	for _, f := range []string{s.LogPath, s.PostgresLogPath} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		lines = lines[max(0, len(lines)-40):]
		fmt.Fprintf(&b, "--- the end of %s:\n%s\n", f, strings.Join(lines, "\n"))
	}
	return b.String()
}

// Binaries are the built server and plugin.
type Binaries struct {
	Nakama  string // server/_build/nakama
	Plugin  string // server/_build/modules/fixedstep.so
	Modules string // the plugin's directory, Nakama's --runtime.path
}

var build struct {
	sync.Mutex
	bins Binaries
	err  error
	done bool
}

// Build builds nakama and the plugin with scripts/server.sh bins, once for
// the test process, and returns them.
func Build(t testing.TB) Binaries {
	t.Helper()
	goCmd := cmp.Or(os.Getenv("GO"), "go")
	if _, err := exec.LookPath(goCmd); err != nil {
		need(t, fmt.Sprintf("Go >= 1.26 (%q is not on PATH): install it from https://go.dev/dl/", goCmd))
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		need(t, "gcc (a Go plugin needs cgo): apt-get install gcc libc6-dev, or scripts/server.sh deps")
	}
	build.Lock()
	defer build.Unlock()
	if !build.done {
		build.bins, build.err = runBuild()
		build.done = true
	}
	if build.err != nil {
		t.Fatalf("nakamatest: %v", build.err)
	}
	return build.bins
}

func runBuild() (Binaries, error) {
	root, err := repoRoot()
	if err != nil {
		return Binaries{}, err
	}
	out := filepath.Join(root, "server", "_build")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "server.sh"), "bins")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return Binaries{}, fmt.Errorf("scripts/server.sh bins: %v\n%s", err, out)
	}
	return Binaries{
		Nakama:  filepath.Join(out, "nakama"),
		Plugin:  filepath.Join(out, "modules", "fixedstep.so"),
		Modules: filepath.Join(out, "modules"),
	}, nil
}

// repoRoot is the directory above the working directory (a test's is its
// package's) that holds scripts/server.sh.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "scripts", "server.sh")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no scripts/server.sh in %s or above", dir)
		}
	}
}

// postgresBin is the newest installed Postgres's bin directory (Debian's
// /usr/lib/postgresql/N/bin), or the one initdb on PATH is in.
func postgresBin(t testing.TB) string {
	t.Helper()
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d
		}
	}
	need(t, "Postgres (initdb and postgres): apt-get install postgresql, or scripts/server.sh deps")
	return ""
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// postgresUser is the credential Postgres runs with: none (the test's own)
// unless the test runs as root, which Postgres refuses, when it is user
// postgres's.
func postgresUser(t testing.TB) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		need(t, "a user postgres to run Postgres as (the test runs as root): apt-get install postgresql makes it")
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("nakamatest: user postgres: %v", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// need fails the test for want, or skips it when AllowSkipEnv allows.
func need(t testing.TB, want string) {
	t.Helper()
	if os.Getenv(AllowSkipEnv) == "1" {
		t.Skipf("nakamatest: missing %s (%s=1: skipping)", want, AllowSkipEnv)
	}
	t.Fatalf("nakamatest: missing %s (set %s=1 to skip instead)", want, AllowSkipEnv)
}

var ports struct {
	sync.Mutex
	given map[int]bool
}

// freePorts returns a port p such that p+o is free on 127.0.0.1 for each
// offset o, and not given before in this process. It draws from 10000 to
// 32767, below Linux's ephemeral ports, so that no outgoing connection takes
// it meanwhile.
func freePorts(t testing.TB, offsets ...int) int {
	t.Helper()
	ports.Lock()
	defer ports.Unlock()
	if ports.given == nil {
		ports.given = map[int]bool{}
	}
	for range 1000 {
		p := 10010 + rand.IntN(32768-10010)
		ok := true
		for _, o := range offsets {
			if ports.given[p+o] || !portFree(p+o) {
				ok = false
				break
			}
		}
		if ok {
			for _, o := range offsets {
				ports.given[p+o] = true
			}
			return p
		}
	}
	t.Fatalf("nakamatest: no free ports on 127.0.0.1")
	return 0
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}
