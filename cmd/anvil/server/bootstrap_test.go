package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"anvil/cmd/anvil/server"
	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/user"
	"anvil/internal/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// boot starts a server on cfg (data directory and database kept by the caller, so a second
// boot sees the first one's state) and returns it with its base URL and log.
func boot(t *testing.T, cfg config.Config) (*server.Server, string, *syncBuffer) {
	t.Helper()
	require.NoError(t, cfg.Normalize())
	logs := &syncBuffer{}
	srv, err := server.New(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, nil)), server.Options{BcryptCost: 4})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler)
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	return srv, ts.URL, logs
}

// getJSON GETs an API path with a token and decodes the JSON answer.
func getJSON(t *testing.T, base, path, token string, out any) int {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/api/v4"+path, nil)
	require.NoError(t, err)
	req.Header.Set("PRIVATE-TOKEN", token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if out != nil && resp.StatusCode == 200 {
		require.NoError(t, json.Unmarshal(body, out), string(body))
	}
	return resp.StatusCode
}

// TestBootstrap_firstStart checks the first start on an empty database: root is user 1 and an
// administrator, ANVIL_INITIAL_ROOT_TOKEN becomes a working api/sudo/admin_mode token, and a
// generated password lands in <data dir>/initial_root_password (mode 0600), as the log says. A
// second start on the same data creates nothing and keeps the password.
func TestBootstrap_firstStart(t *testing.T) {
	const secret = "glpat-bootstrap-test-token-0001"
	cfg := config.Config{DataDir: t.TempDir(), DatabaseURL: servertest.Database(t), InitialRootToken: secret}

	srv, base, logs := boot(t, cfg)
	ctx := context.Background()
	root, err := srv.DB.Client.User.Get(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, "root", root.Username)
	assert.True(t, root.Admin)
	assert.Equal(t, user.StateActive, root.State)

	pwFile := filepath.Join(srv.Config.DataDir, "initial_root_password")
	st, err := os.Stat(pwFile)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	content, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	pw, ok := strings.CutPrefix(strings.TrimSpace(string(content)), "Password: ")
	require.True(t, ok, "password file: %q", content)
	assert.GreaterOrEqual(t, len(pw), 20, "generated password is long")
	assert.NoError(t, bcrypt.CompareHashAndPassword([]byte(root.PasswordHash), []byte(pw)), "the written password is root's")
	assert.Contains(t, logs.String(), pwFile, "the log says where the password is")
	assert.NotContains(t, logs.String(), pw, "the password itself is never logged")

	var me struct {
		ID       int    `json:"id"`
		Username string `json:"username"`
		IsAdmin  bool   `json:"is_admin"`
	}
	require.Equal(t, 200, getJSON(t, base, "/user", secret, &me))
	assert.Equal(t, 1, me.ID)
	assert.Equal(t, "root", me.Username)
	assert.True(t, me.IsAdmin)
	var self struct {
		Scopes    []string `json:"scopes"`
		UserID    int      `json:"user_id"`
		Active    bool     `json:"active"`
		ExpiresAt *string  `json:"expires_at"`
	}
	require.Equal(t, 200, getJSON(t, base, "/personal_access_tokens/self", secret, &self))
	assert.ElementsMatch(t, []string{"api", "sudo", "admin_mode"}, self.Scopes)
	assert.Equal(t, 1, self.UserID)
	assert.True(t, self.Active)

	counts := func() (users, tokens int) {
		users, err := srv.DB.Client.User.Query().Count(ctx)
		require.NoError(t, err)
		tokens, err = srv.DB.Client.PersonalAccessToken.Query().Count(ctx)
		require.NoError(t, err)
		return users, tokens
	}
	users, tokens := counts()
	assert.Equal(t, 1, users)
	assert.Equal(t, 1, tokens)
	require.NoError(t, srv.Close())

	// Second start, same data: nothing new, the password file untouched, the token still works.
	srv2, base2, logs2 := boot(t, cfg)
	srv = srv2
	users, tokens = counts()
	assert.Equal(t, 1, users)
	assert.Equal(t, 1, tokens)
	again, err := os.ReadFile(pwFile)
	require.NoError(t, err)
	assert.Equal(t, string(content), string(again))
	assert.NotContains(t, logs2.String(), "created administrator root")
	require.Equal(t, 200, getJSON(t, base2, "/user", secret, nil))
}

// TestBootstrap_givenPassword checks that ANVIL_INITIAL_ROOT_PASSWORD is root's password and
// that no password file is written; without ANVIL_INITIAL_ROOT_TOKEN no token exists.
func TestBootstrap_givenPassword(t *testing.T) {
	cfg := config.Config{DataDir: t.TempDir(), DatabaseURL: servertest.Database(t), InitialRootPassword: "chosen-root-password-1"}
	srv, _, _ := boot(t, cfg)
	ctx := context.Background()
	root, err := srv.DB.Client.User.Get(ctx, 1)
	require.NoError(t, err)
	assert.NoError(t, bcrypt.CompareHashAndPassword([]byte(root.PasswordHash), []byte("chosen-root-password-1")))
	_, err = os.Stat(filepath.Join(srv.Config.DataDir, "initial_root_password"))
	assert.True(t, os.IsNotExist(err), "no password file when the password is given")
	n, err := srv.DB.Client.PersonalAccessToken.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
}

// TestBootstrap_tokenAddedLater checks that setting ANVIL_INITIAL_ROOT_TOKEN on a later start
// adds that token to the existing root without creating another user.
func TestBootstrap_tokenAddedLater(t *testing.T) {
	cfg := config.Config{DataDir: t.TempDir(), DatabaseURL: servertest.Database(t), InitialRootPassword: "chosen-root-password-1"}
	srv, _, _ := boot(t, cfg)
	require.NoError(t, srv.Close())
	cfg.InitialRootToken = "glpat-later-token-00000000001"
	srv, base, _ := boot(t, cfg)
	require.Equal(t, 200, getJSON(t, base, "/user", cfg.InitialRootToken, nil))
	n, err := srv.DB.Client.User.Query().Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n)
}
