package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"anvil/cmd/anvil/server"
	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/version"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setEnv points the command at a fresh data directory and database and returns the directory.
func setEnv(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, k := range []string{"ANVIL_LISTEN", "ANVIL_EXTERNAL_URL", "ANVIL_INITIAL_ROOT_PASSWORD", "ANVIL_INITIAL_ROOT_TOKEN", "ANVIL_REPOSITORY_STORAGES"} {
		t.Setenv(k, "")
	}
	t.Setenv("ANVIL_DATA_DIR", dir)
	t.Setenv("ANVIL_DATABASE_URL", servertest.Database(t))
	t.Setenv("ANVIL_LOG_LEVEL", "error")
	return dir
}

// capture runs run(args) and returns what it printed on stdout.
func capture(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	orig := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	runErr := run(args)
	os.Stdout = orig
	require.NoError(t, w.Close())
	return <-out, runErr
}

func TestRun_version(t *testing.T) {
	setEnv(t)
	out, err := capture(t, "version")
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("anvil %s (revision %s, GitLab API %s)\n", version.Anvil, version.Revision, version.GitLab), out)
}

func TestRun_helpAndUnknownCommands(t *testing.T) {
	setEnv(t)
	out, err := capture(t, "help")
	require.NoError(t, err)
	assert.Contains(t, out, "usage: anvil")
	_, err = capture(t, "frobnicate")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown command "frobnicate"`)
	_, err = capture(t, "token")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "usage: anvil token create")
}

// TestRun_migrateIsIdempotent runs `anvil migrate` on an empty database, adds data, and runs it
// again: the second run succeeds and keeps everything.
func TestRun_migrateIsIdempotent(t *testing.T) {
	dir := setEnv(t)
	_, err := capture(t, "migrate")
	require.NoError(t, err)
	if os.Getenv("ANVIL_DATABASE_URL") == "" {
		_, err := os.Stat(filepath.Join(dir, "anvil.db"))
		require.NoError(t, err, "the embedded database lives in the data directory")
	}

	ctx := context.Background()
	d, err := db.Open(os.Getenv("ANVIL_DATABASE_URL"), dir)
	require.NoError(t, err)
	n, err := d.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "migrate alone creates no users")
	_, err = d.Client.User.Create().SetUsername("kept").SetName("Kept").SetEmail("kept@example.com").Save(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Close())

	for range 2 {
		_, err = capture(t, "migrate")
		require.NoError(t, err)
	}
	d, err = db.Open(os.Getenv("ANVIL_DATABASE_URL"), dir)
	require.NoError(t, err)
	defer d.Close()
	u, err := d.Client.User.Query().Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, "kept", u.Username)
}

// TestRun_tokenCreate checks that `anvil token create` prints a token that then works against
// the API with the requested scopes and expiry.
func TestRun_tokenCreate(t *testing.T) {
	setEnv(t)
	expires := time.Now().AddDate(0, 3, 0).Format("2006-01-02")
	out, err := capture(t, "token", "create", "-user", "root", "-name", "ci", "-scopes", "api,read_user", "-expires-at", expires)
	require.NoError(t, err)
	secret := strings.TrimSpace(out)
	require.True(t, strings.HasPrefix(secret, "glpat-"), "token %q", secret)
	require.NotContains(t, secret, "\n", "only the token is printed")

	cfg, err := config.FromEnv()
	require.NoError(t, err)
	srv, err := server.New(context.Background(), cfg, newLogger("error"), server.Options{})
	require.NoError(t, err)
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler)
	defer ts.Close()
	req, err := http.NewRequest("GET", ts.URL+"/api/v4/personal_access_tokens/self", nil)
	require.NoError(t, err)
	req.Header.Set("PRIVATE-TOKEN", secret)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	var self struct {
		Name      string   `json:"name"`
		Scopes    []string `json:"scopes"`
		UserID    int      `json:"user_id"`
		ExpiresAt string   `json:"expires_at"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&self))
	assert.Equal(t, "ci", self.Name)
	assert.Equal(t, []string{"api", "read_user"}, self.Scopes)
	assert.Equal(t, 1, self.UserID)
	assert.Equal(t, expires, self.ExpiresAt)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"token", "create", "-user", "nobody"}, `user "nobody"`},
		{[]string{"token", "create", "-expires-at", "2020-13-01"}, "expires-at"},
		{[]string{"token", "create", "-scopes", "no_such_scope"}, "scope"},
		{[]string{"token", "create", "-no-such-flag"}, "flag provided but not defined"},
	} {
		_, err := capture(t, tc.args...)
		require.Error(t, err, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
	}
}

// TestRun_serveStopsOnSIGTERM runs `anvil serve` with its embedded defaults (SQLite in the data
// directory) on a free port, waits until it answers, sends SIGTERM and expects a clean return.
func TestRun_serveStopsOnSIGTERM(t *testing.T) {
	setEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	done := make(chan error, 1)
	go func() { done <- run([]string{"serve", "-listen", addr}) }()
	up := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !up; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve returned early: %v", err)
		default:
		}
		resp, err := http.Get("http://" + addr + "/-/readiness")
		if err == nil {
			up = resp.StatusCode == 200
			_ = resp.Body.Close()
		}
	}
	require.True(t, up, "server never became ready")

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	_, err = net.DialTimeout("tcp", addr, time.Second)
	assert.Error(t, err, "the port is released")
}

// TestRun_userUnlock checks that `anvil user unlock` lifts a lock left by failed sign-ins and
// clears the count, and says so when there was none.
func TestRun_userUnlock(t *testing.T) {
	setEnv(t)
	cfg, err := config.FromEnv()
	require.NoError(t, err)
	ctx := context.Background()
	srv, err := server.New(ctx, cfg, newLogger("error"), server.Options{BcryptCost: 4})
	require.NoError(t, err)
	u, err := srv.DB.Client.User.Create().SetUsername("locked-out").SetName("L").SetEmail("l@example.com").
		SetFailedAttempts(10).SetLockedUntil(time.Now().Add(10 * time.Minute)).Save(ctx)
	require.NoError(t, err)
	require.NoError(t, srv.Close())

	out, err := capture(t, "user", "unlock", "-user", "locked-out")
	require.NoError(t, err)
	assert.Equal(t, "unlocked locked-out\n", out)
	d, err := db.Open(os.Getenv("ANVIL_DATABASE_URL"), cfg.DataDir)
	require.NoError(t, err)
	got, err := d.Client.User.Get(ctx, u.ID)
	require.NoError(t, err)
	require.NoError(t, d.Close())
	assert.Equal(t, 0, got.FailedAttempts)
	assert.Nil(t, got.LockedUntil)

	out, err = capture(t, "user", "unlock", "-user", "locked-out")
	require.NoError(t, err)
	assert.Equal(t, "locked-out was not locked\n", out)
	_, err = capture(t, "user", "unlock", "-user", "nobody")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `user "nobody"`)
	_, err = capture(t, "user", "lock")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "usage: anvil user unlock -user NAME")
}
