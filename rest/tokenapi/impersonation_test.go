package tokenapi_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestImpersonationTokens(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	root := in.Client(t, servertest.RootToken)
	base := "/users/" + strconv.Itoa(alice.ID) + "/impersonation_tokens"

	expires := time.Now().UTC().AddDate(0, 0, 5)
	imp, resp, err := root.Users.CreateImpersonationToken(int64(alice.ID), &gitlab.CreateImpersonationTokenOptions{
		Name: gitlab.Ptr("support"), Scopes: &[]string{"api"}, ExpiresAt: &expires,
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "support", imp.Name)
	assert.True(t, imp.Active)
	assert.Equal(t, date(5), imp.ExpiresAt.String())
	require.NotEmpty(t, imp.Token)

	t.Run("the token acts as the user", func(t *testing.T) {
		u, _, err := in.Client(t, imp.Token).Users.CurrentUser()
		require.NoError(t, err)
		assert.Equal(t, "alice", u.Username)
	})

	t.Run("exact shape on creation", func(t *testing.T) {
		r := in.Do(t, "POST", base, servertest.RootToken, `{"name":"shape","scopes":"read_api,read_user","expires_at":"`+date(2)+`"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "active,created_at,description,expires_at,id,impersonation,last_used_at,name,revoked,scopes,token,user_id", keys(m))
		assert.Equal(t, true, m["impersonation"])
		assert.Equal(t, []any{"read_api", "read_user"}, m["scopes"])
	})

	t.Run("list, filter by state, get", func(t *testing.T) {
		r := in.Do(t, "GET", base, servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		rows := array(t, r)
		require.Len(t, rows, 2)
		assert.Equal(t, "active,created_at,description,expires_at,id,impersonation,last_used_at,name,revoked,scopes,user_id", keys(rows[0]))
		assert.Equal(t, "2", r.Header.Get("X-Total"))

		list, _, err := root.Users.GetAllImpersonationTokens(int64(alice.ID), &gitlab.GetAllImpersonationTokensOptions{State: gitlab.Ptr("inactive")})
		require.NoError(t, err)
		assert.Empty(t, list)

		got, _, err := root.Users.GetImpersonationToken(int64(alice.ID), imp.ID)
		require.NoError(t, err)
		assert.Equal(t, "support", got.Name)
		assert.Empty(t, got.Token, "the secret is shown only on creation")
	})

	t.Run("impersonation tokens stay out of the user's own list", func(t *testing.T) {
		r := in.Do(t, "GET", "/personal_access_tokens", aliceToken, nil)
		require.Equal(t, http.StatusOK, r.Status)
		assert.Len(t, array(t, r), 1)
	})

	for _, tc := range []struct {
		desc, method, path, token, body string
		status                          int
		want                            string
	}{
		{"no expiry", "POST", base, servertest.RootToken, `{"name":"x","scopes":["api"]}`, 400,
			`{"message":{"expires_at":["can't be blank"]}}`},
		{"no scopes", "POST", base, servertest.RootToken, `{"name":"x","expires_at":"` + date(1) + `"}`, 400,
			`{"message":{"scopes":["can't be blank"]}}`},
		{"unknown scope", "POST", base, servertest.RootToken, `{"name":"x","scopes":["x"],"expires_at":"` + date(1) + `"}`, 400,
			`{"message":{"scopes":["can only contain available scopes"]}}`},
		{"missing name", "POST", base, servertest.RootToken, `{}`, 400, `{"error":"name is missing"}`},
		{"non-administrator", "GET", base, aliceToken, "", 403, `{"message":"403 Forbidden"}`},
		{"anonymous", "GET", base, "", "", 401, `{"message":"401 Unauthorized"}`},
		{"unknown user", "GET", "/users/999/impersonation_tokens", servertest.RootToken, "", 404, `{"message":"404 User Not Found"}`},
		{"unknown token", "GET", base + "/999", servertest.RootToken, "", 404, `{"message":"404 Impersonation Token Not Found"}`},
		{"another user's token", "GET", "/users/1/impersonation_tokens/" + strconv.FormatInt(imp.ID, 10), servertest.RootToken, "", 404,
			`{"message":"404 Impersonation Token Not Found"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			r := in.Do(t, tc.method, tc.path, tc.token, body)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}

	t.Run("revoke", func(t *testing.T) {
		resp, err := root.Users.RevokeImpersonationToken(int64(alice.ID), imp.ID)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		got, _, err := root.Users.GetImpersonationToken(int64(alice.ID), imp.ID)
		require.NoError(t, err)
		assert.True(t, got.Revoked)
		assert.False(t, got.Active)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", imp.Token, nil).Status)

		r := in.Do(t, "GET", base+"?state=inactive", servertest.RootToken, nil)
		assert.Equal(t, []int{int(imp.ID)}, ids(array(t, r)))
	})
}
