package gitserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"anvil/cmd/anvil/server"
	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingHasher is bcrypt at the lowest cost that counts its password comparisons, so that a
// test can see which path a sign-in took without timing it.
type countingHasher struct {
	users.Bcrypt
	compares atomic.Int64
}

func (h *countingHasher) Compare(hash, pw string) bool {
	h.compares.Add(1)
	return h.Bcrypt.Compare(hash, pw)
}

// jwtAuth asks the registry's token endpoint for a pull token with Basic credentials.
func jwtAuth(t *testing.T, in *servertest.Instance, project, user, password string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, in.URL+"/jwt/auth?service=container_registry&scope=repository:"+project+":pull", nil)
	require.NoError(t, err)
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

// lockState reads a user's failed attempt count and lock end from the database.
func lockState(t *testing.T, in *servertest.Instance, id int) (int, *time.Time) {
	t.Helper()
	u, err := in.DB.Client.User.Get(context.Background(), id)
	require.NoError(t, err)
	return u.FailedAttempts, u.LockedUntil
}

// lockedInAPI reads "locked" of a user through REST (as token's owner sees it) and GraphQL.
func lockedInAPI(t *testing.T, in *servertest.Instance, token, username string, id int) (rest, graphql bool) {
	t.Helper()
	r := in.Do(t, "GET", "/users/"+strconv.Itoa(id), token, nil)
	require.Equal(t, 200, r.Status, r.String())
	var u struct {
		Locked *bool `json:"locked"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &u), r.String())
	require.NotNil(t, u.Locked, "locked is always present")
	g := in.Do(t, "POST", "/api/graphql", token, `{"query":"{ user(username: \"`+username+`\") { locked } }"}`)
	require.Equal(t, 200, g.Status, g.String())
	var gr struct {
		Data struct {
			User struct{ Locked bool } `json:"user"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(g.Body, &gr), g.String())
	return *u.Locked, gr.Data.User.Locked
}

// TestSignIn_lockAfterTenFailures locks an account after 10 wrong passwords sent by git and
// registry clients, as GitLab's lockable accounts do, shows it as locked to the API, refuses
// the right password and the account's tokens over git while it lasts (its API tokens keep
// working: a lock stops sign-in only), and lifts it by time and by an administrator.
func TestSignIn_lockAfterTenFailures(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	f.project(t, "locked-repo", "private", true)
	dev := f.users["developer"]
	const path = "g/locked-repo.git"
	gitAs := func(password string) int {
		resp, _ := infoRefs(t, in, path, "git-upload-pack", "developer", password)
		return resp.StatusCode
	}
	require.Equal(t, 200, gitAs(servertest.UserPassword))

	// Nine failures, then the right password: the count starts again.
	for i := 0; i < 9; i++ {
		require.Equal(t, 401, gitAs("wrong-password"), "failure %d", i+1)
	}
	n, until := lockState(t, in, dev.ID)
	assert.Equal(t, 9, n)
	assert.Nil(t, until)
	require.Equal(t, 200, gitAs(servertest.UserPassword))
	n, _ = lockState(t, in, dev.ID)
	assert.Equal(t, 0, n, "a successful sign-in clears the count")

	// Ten failures, by git and by the registry's token endpoint (the email counts as the login).
	lock := func() {
		t.Helper()
		for i := 0; i < 5; i++ {
			require.Equal(t, 401, gitAs("wrong-password"))
			resp, _ := jwtAuth(t, in, "g/locked-repo", "developer@example.com", "wrong-password")
			require.Equal(t, 401, resp.StatusCode)
		}
	}
	before := time.Now()
	lock()
	n, until = lockState(t, in, dev.ID)
	assert.Equal(t, 10, n)
	require.NotNil(t, until, "the tenth failure locks the account")
	assert.WithinRange(t, *until, before.Add(10*time.Minute-time.Second), time.Now().Add(10*time.Minute+time.Second))

	rest, gql := lockedInAPI(t, in, servertest.RootToken, "developer", dev.ID)
	assert.True(t, rest, "an administrator sees the lock")
	assert.True(t, gql)
	rest, _ = lockedInAPI(t, in, f.tokens["guest"], "developer", dev.ID)
	assert.True(t, rest, "locked is part of GitLab's UserBasic")

	resp, body := infoRefs(t, in, path, "git-upload-pack", "developer", servertest.UserPassword)
	assert.Equal(t, 401, resp.StatusCode, "the right password is refused while locked")
	assert.Contains(t, body, accessDenied)
	assert.Equal(t, 401, gitAs(f.tokens["developer"]), "so is a token over git: the account cannot sign in")
	jr, _ := jwtAuth(t, in, "g/locked-repo", "developer", servertest.UserPassword)
	assert.Equal(t, 401, jr.StatusCode)
	assert.Equal(t, 200, in.Do(t, "GET", "/user", f.tokens["developer"], nil).Status, "API tokens keep working")

	// The lock runs out: the next sign-in succeeds and clears it.
	past := time.Now().Add(-time.Second)
	require.NoError(t, in.DB.Client.User.UpdateOneID(dev.ID).SetLockedUntil(past).Exec(context.Background()))
	require.Equal(t, 200, gitAs(servertest.UserPassword))
	n, until = lockState(t, in, dev.ID)
	assert.Equal(t, 0, n)
	assert.Nil(t, until)
	rest, gql = lockedInAPI(t, in, servertest.RootToken, "developer", dev.ID)
	assert.False(t, rest)
	assert.False(t, gql)

	// An administrator lifts a lock; nobody else may.
	lock()
	ctx := context.Background()
	_, err := in.Services.Users.Unlock(ctx, authz.System(f.users["owner"]), "developer")
	assert.True(t, apperr.Is(err, apperr.KindForbidden), "%v", err)
	_, err = in.Services.Users.Unlock(ctx, authz.Anonymous, "developer")
	assert.True(t, apperr.Is(err, apperr.KindUnauthorized), "%v", err)
	changed, err := in.Services.Users.Unlock(ctx, authz.System(f.root), "developer")
	require.NoError(t, err)
	assert.True(t, changed)
	require.Equal(t, 200, gitAs(servertest.UserPassword))
	changed, err = in.Services.Users.Unlock(ctx, authz.System(f.root), "developer")
	require.NoError(t, err)
	assert.False(t, changed, "unlocking an account that is not locked changes nothing")
}

// TestSignIn_sameWorkForUnknownLogins checks that a password sign-in for a login that names
// no account, or an account that cannot sign in, compares the password once, exactly as a
// wrong password for a real account does: the answer's timing does not tell who has an
// account. It counts the comparisons of an injected hasher rather than timing anything.
func TestSignIn_sameWorkForUnknownLogins(t *testing.T) {
	h := &countingHasher{Bcrypt: users.Bcrypt{Cost: 4}}
	in := servertest.StartWith(t, server.Options{Hasher: h})
	f := newFixture(t, in)
	f.project(t, "public-repo", "public", true)
	ctx := context.Background()
	blocked := f.users["reporter"]
	require.NoError(t, in.DB.Client.User.UpdateOneID(blocked.ID).SetState("blocked").Exec(ctx))
	locked := f.users["maintainer"]
	require.NoError(t, in.DB.Client.User.UpdateOneID(locked.ID).SetLockedUntil(time.Now().Add(time.Hour)).Exec(ctx))

	for _, tc := range []struct {
		name, login, password string
		status                int
		compares              int64
	}{
		{"known username, wrong password", "developer", "wrong-password", 401, 1},
		{"known email, wrong password", "developer@example.com", "wrong-password", 401, 1},
		{"unknown username", "no-such-user", "wrong-password", 401, 1},
		{"unknown email", "nobody@corp.example", "wrong-password", 401, 1},
		{"blocked account, right password", "reporter", servertest.UserPassword, 401, 1},
		{"locked account, right password", "maintainer", servertest.UserPassword, 401, 1},
		{"right password", "developer", servertest.UserPassword, 200, 1},
		{"a token as the password", "anything", f.tokens["developer"], 200, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := h.compares.Load()
			resp, _ := infoRefs(t, in, "g/public-repo.git", "git-upload-pack", tc.login, tc.password)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, tc.compares, h.compares.Load()-start, "password comparisons")
		})
	}
	n, _ := lockState(t, in, locked.ID)
	assert.Equal(t, 0, n, "attempts on a locked account are not counted (GitLab does not check them)")
}

// TestSignIn_failedAuthenticationBan bans an address after 30 failed authentications within 3
// minutes, counted across git and /jwt/auth, as GitLab's failed-authentication ban does: the
// banned address gets 403 for everything it authenticates, right credentials included, and no
// password is hashed for it; a successful authentication before that resets the count.
// Loopback is allow-listed by default, so the test server allow-lists nothing.
func TestSignIn_failedAuthenticationBan(t *testing.T) {
	h := &countingHasher{Bcrypt: users.Bcrypt{Cost: 4}}
	in := servertest.StartWith(t, server.Options{Hasher: h}, func(c *config.Config) {
		c.GitAuthBan.Allowlist = []netip.Prefix{}
	})
	f := newFixture(t, in)
	f.project(t, "repo", "public", true)
	const path = "g/repo.git"
	fail := func(i int) {
		t.Helper()
		if i%2 == 0 {
			resp, _ := infoRefs(t, in, path, "git-upload-pack", "nobody-"+strconv.Itoa(i), "wrong-password")
			require.Equal(t, 401, resp.StatusCode, "failure %d (git)", i+1)
			return
		}
		resp, _ := jwtAuth(t, in, "g/repo", "nobody", "glpat-not-a-token-"+strconv.Itoa(i))
		require.Equal(t, 401, resp.StatusCode, "failure %d (registry)", i+1)
	}
	for i := 0; i < 29; i++ {
		fail(i)
	}
	resp, _ := infoRefs(t, in, path, "git-upload-pack", "developer", servertest.UserPassword)
	require.Equal(t, 200, resp.StatusCode, "29 failures do not ban")
	for i := 0; i < 29; i++ {
		fail(i)
	}
	resp, _ = infoRefs(t, in, path, "git-upload-pack", "developer", f.tokens["developer"])
	require.Equal(t, 200, resp.StatusCode, "the success before reset the count")
	for i := 0; i < 30; i++ {
		fail(i)
	}

	const banned = "Too many failed authentication attempts from this IP"
	compares := h.compares.Load()
	resp, body := infoRefs(t, in, path, "git-upload-pack", "developer", servertest.UserPassword)
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, banned, body)
	assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Empty(t, resp.Header.Get("WWW-Authenticate"))
	resp, body = jwtAuth(t, in, "g/repo", "developer", f.tokens["developer"])
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, banned, body)
	resp, _ = infoRefs(t, in, path, "git-receive-pack", "developer", "wrong-password")
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, compares, h.compares.Load(), "a banned address costs no password hashing")

	resp, _ = infoRefs(t, in, path, "git-upload-pack", "", "")
	assert.Equal(t, 200, resp.StatusCode, "anonymous reads of public code present no credentials to ban")
	assert.Equal(t, 200, in.Do(t, "GET", "/user", f.tokens["developer"], nil).Status, "the API is not part of the ban")
}

// TestSignIn_loopbackNotBanned checks the default allowlist: the loopback address never gets
// banned (the project's own tests, and a reverse proxy on the same host, connect from it).
func TestSignIn_loopbackNotBanned(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	f.project(t, "repo", "public", true)
	for i := 0; i < 35; i++ {
		resp, _ := infoRefs(t, in, "g/repo.git", "git-upload-pack", "nobody", "wrong-password")
		require.Equal(t, 401, resp.StatusCode, "failure %d", i+1)
	}
	resp, _ := infoRefs(t, in, "g/repo.git", "git-upload-pack", "developer", servertest.UserPassword)
	assert.Equal(t, 200, resp.StatusCode)
}
