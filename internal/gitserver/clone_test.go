package gitserver_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// infoRefs requests GET <path>.git/info/refs?service=... with optional Basic credentials.
func infoRefs(t *testing.T, in *servertest.Instance, path, svc, user, password string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, in.URL+"/"+path+"/info/refs?service="+svc, nil)
	require.NoError(t, err)
	if user != "" || password != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

const accessDenied = "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect " +
	"or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, " +
	"or improperly scoped. See "

func TestGit_Clone(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	f.project(t, "pub", "public", true)
	f.project(t, "internal", "internal", true)
	f.project(t, "priv", "private", true)
	g := newGitClient(t, in)

	t.Run("anonymous clones a public project", func(t *testing.T) {
		dir, out, err := g.clone("g/pub", "", "")
		require.NoError(t, err, out)
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		require.NoError(t, err)
		assert.Equal(t, "# pub\n", string(readme))
		assert.Equal(t, "main\n", g.must(dir, "branch", "--show-current"))
	})
	t.Run("protocol v0 and v2, with and without .git", func(t *testing.T) {
		for _, c := range []struct{ proto, path string }{{"0", "g/pub"}, {"2", "g/pub"}, {"2", "g/pub.git"}} {
			dir := filepath.Join(t.TempDir(), "wc")
			out, err := g.run(g.home, "-c", "protocol.version="+c.proto, "clone", in.URL+"/"+c.path, dir)
			require.NoError(t, err, out)
			assert.FileExists(t, filepath.Join(dir, "README.md"))
		}
	})
	t.Run("anonymous is asked for credentials on internal and private projects", func(t *testing.T) {
		for _, path := range []string{"g/internal.git", "g/priv.git", "g/missing.git", "nowhere/x.git"} {
			resp, body := infoRefs(t, in, path, "git-upload-pack", "", "")
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, path)
			assert.Equal(t, `Basic realm="GitLab"`, resp.Header.Get("WWW-Authenticate"), path)
			assert.True(t, strings.HasPrefix(body, accessDenied), body)
		}
		_, out, err := g.clone("g/priv", "", "")
		require.Error(t, err)
		assert.Contains(t, out, "terminal prompts disabled")
	})
	t.Run("anonymous push to a public project asks for credentials", func(t *testing.T) {
		resp, _ := infoRefs(t, in, "g/pub.git", "git-receive-pack", "", "")
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Equal(t, `Basic realm="GitLab"`, resp.Header.Get("WWW-Authenticate"))
	})
	t.Run("a token clones a private project, whatever the username", func(t *testing.T) {
		for _, user := range []string{"developer", "oauth2", "anything"} {
			dir, out, err := g.clone("g/priv", user, f.tokens["developer"])
			require.NoError(t, err, out)
			assert.FileExists(t, filepath.Join(dir, "README.md"))
		}
	})
	t.Run("invisible project is 404 for a signed-in user", func(t *testing.T) {
		resp, body := infoRefs(t, in, "g/priv.git", "git-upload-pack", "outsider", f.tokens["outsider"])
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Equal(t, "The project you were looking for could not be found or you don't have permission to view it.", body)
		resp, _ = infoRefs(t, in, "g/missing.git", "git-upload-pack", "outsider", f.tokens["outsider"])
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("guest of a private project cannot download code", func(t *testing.T) {
		resp, body := infoRefs(t, in, "g/priv.git", "git-upload-pack", "guest", f.tokens["guest"])
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Equal(t, "You are not allowed to download code from this project.", body)
	})
	t.Run("wrong credentials are 401 with the challenge", func(t *testing.T) {
		for _, c := range []struct{ user, pw string }{{"developer", "glpat-wrong"}, {"developer", "wrong-password"}, {"", "x"}} {
			resp, body := infoRefs(t, in, "g/pub.git", "git-upload-pack", c.user, c.pw)
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, c)
			assert.Equal(t, `Basic realm="GitLab"`, resp.Header.Get("WWW-Authenticate"))
			assert.Equal(t, accessDenied+in.URL+"/help/topics/git/troubleshooting_git.md#error-on-git-fetch-http-basic-access-denied", body)
		}
	})
	t.Run("password authentication follows the instance setting", func(t *testing.T) {
		_, out, err := g.clone("g/priv", "developer", servertest.UserPassword)
		require.NoError(t, err, out)
		_, out, err = g.clone("g/priv", "developer@example.com", servertest.UserPassword)
		require.NoError(t, err, out)
		require.NoError(t, in.Services.Settings.Set(t.Context(), "password_authentication_enabled_for_git", false))
		defer func() {
			require.NoError(t, in.Services.Settings.Set(t.Context(), "password_authentication_enabled_for_git", true))
		}()
		resp, _ := infoRefs(t, in, "g/priv.git", "git-upload-pack", "developer", servertest.UserPassword)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		_, out, err = g.clone("g/priv", "developer", f.tokens["developer"])
		require.NoError(t, err, out)
	})
	t.Run("token scopes", func(t *testing.T) {
		dev := f.users["developer"]
		for _, c := range []struct {
			scope  string
			status int
			body   string
		}{
			{"read_repository", http.StatusOK, ""},
			{"write_repository", http.StatusOK, ""},
			{"read_api", http.StatusOK, ""},
			{"read_user", http.StatusForbidden, "You are not allowed to download code."},
		} {
			tok := in.NewToken(t, dev.ID, c.scope)
			resp, body := infoRefs(t, in, "g/priv.git", "git-upload-pack", "developer", tok)
			assert.Equal(t, c.status, resp.StatusCode, c.scope)
			if c.body != "" {
				assert.Equal(t, c.body, body)
			}
		}
	})
	t.Run("blocked users are refused", func(t *testing.T) {
		u, tok := in.NewUser(t, "blocky")
		in.AddGroupMember(t, f.group, u, 30)
		require.NoError(t, in.DB.Client.User.UpdateOneID(u.ID).SetState("blocked").Exec(t.Context()))
		resp, _ := infoRefs(t, in, "g/priv.git", "git-upload-pack", "blocky", tok)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		resp, _ = infoRefs(t, in, "g/priv.git", "git-upload-pack", "blocky", "password-blocky")
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	})
	t.Run("advertisement headers", func(t *testing.T) {
		resp, body := infoRefs(t, in, "g/pub.git", "git-upload-pack", "", "")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/x-git-upload-pack-advertisement", resp.Header.Get("Content-Type"))
		assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
		assert.True(t, strings.HasPrefix(body, "001e# service=git-upload-pack\n0000"), body)
		assert.Contains(t, body, "refs/heads/main")

		req, _ := http.NewRequest(http.MethodGet, in.URL+"/g/pub.git/info/refs?service=git-upload-pack", nil)
		req.Header.Set("Git-Protocol", "version=2")
		resp2, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp2.Body)
		resp2.Body.Close()
		assert.True(t, strings.HasPrefix(string(b), "000eversion 2\n"), string(b))
	})
	t.Run("gzipped protocol v2 request", func(t *testing.T) {
		var raw bytes.Buffer
		zw := gzip.NewWriter(&raw)
		fmt.Fprintf(zw, "%04xcommand=ls-refs\n0001%04xpeel\n0000", len("command=ls-refs\n")+4, len("peel\n")+4)
		require.NoError(t, zw.Close())
		req, _ := http.NewRequest(http.MethodPost, in.URL+"/g/pub.git/git-upload-pack", &raw)
		req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("Git-Protocol", "version=2")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
		assert.Equal(t, "application/x-git-upload-pack-result", resp.Header.Get("Content-Type"))
		assert.Contains(t, string(b), " refs/heads/main\n")
	})
	t.Run("HEAD and dumb requests", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodHead, in.URL+"/g/pub.git/info/refs?service=git-upload-pack", nil)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		resp, body := infoRefs(t, in, "g/pub.git", "", "developer", f.tokens["developer"])
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Equal(t, "The command you're trying to execute is not allowed.", body)
	})
}
