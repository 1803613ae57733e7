package nakamatest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// TestStart starts a server and finds a rally match through the plugin's
// RPC, then kills Nakama and restarts it on the same database.
func TestStart(t *testing.T) {
	srv := nakamatest.Start(t)

	log, err := os.ReadFile(srv.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"msg":"fixedstep: serving rally`,
		`"msg":"Registered Go runtime Match creation function invocation","name":"rally"`,
		`"id":"rally_find"`, `"id":"rally_create"`, `"id":"rally_stats"`,
	} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("Nakama's log (%s) has no %s", srv.LogPath, want)
		}
	}

	token := authenticate(t, srv, "nakamatest-device-1")
	id := findMatch(t, srv, token)
	t.Logf("rally_find: match %s", id)

	pid := srv.PID()
	if _, err := os.Stat(fmt.Sprintf("/proc/%d/stat", pid)); err != nil {
		t.Errorf("PID %d: %v", pid, err)
	}
	srv.Kill()
	if srv.PID() != 0 {
		t.Errorf("PID after Kill = %d, want 0", srv.PID())
	}
	if _, err := (&http.Client{Timeout: time.Second}).Get(srv.URL + "/healthcheck"); err == nil {
		t.Errorf("the healthcheck answers after Kill")
	}
	srv.Restart()
	if srv.PID() == 0 || srv.PID() == pid {
		t.Errorf("PID after Restart = %d (before Kill: %d)", srv.PID(), pid)
	}
	// The token (a signed JWT) outlives a restart, and the account is in the database.
	if id2 := findMatch(t, srv, token); id2 == "" {
		t.Errorf("rally_find after Restart: no match id")
	}
}

// authenticate makes (or finds) the device's account and returns its
// session token.
func authenticate(t *testing.T, srv *nakamatest.Server, device string) string {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/v2/account/authenticate/device?create=true",
		strings.NewReader(fmt.Sprintf(`{"id":%q}`, device)))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(srv.ServerKey, "")
	var session struct{ Token string }
	call(t, req, &session)
	if session.Token == "" {
		t.Fatalf("authenticate: no token")
	}
	return session.Token
}

// findMatch calls the RPC rally_find for 2 players and returns the match id.
func findMatch(t *testing.T, srv *nakamatest.Server, token string) string {
	t.Helper()
	// Over HTTP an RPC's body is its payload as a JSON string.
	body, _ := json.Marshal(`{"players":2}`)
	req, err := http.NewRequest("POST", srv.URL+"/v2/rpc/rally_find", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var rpc struct{ Payload string }
	call(t, req, &rpc)
	var found struct {
		MatchID string `json:"match_id"`
	}
	if err := json.Unmarshal([]byte(rpc.Payload), &found); err != nil || found.MatchID == "" {
		t.Fatalf("rally_find: payload %q: want {\"match_id\": id} (%v)", rpc.Payload, err)
	}
	return found.MatchID
}

func call(t *testing.T, req *http.Request, out any) {
	t.Helper()
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s: %s", req.Method, req.URL.Path, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s %s: %v: %s", req.Method, req.URL.Path, err, b)
	}
}
