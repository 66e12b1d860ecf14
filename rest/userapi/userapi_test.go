package userapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUserAPI_basics(t *testing.T) {
	in := servertest.Start(t)

	t.Run("current user root", func(t *testing.T) {
		gl := in.Client(t, servertest.RootToken)
		u, _, err := gl.Users.CurrentUser()
		require.NoError(t, err)
		assert.Equal(t, int64(1), u.ID)
		assert.Equal(t, "root", u.Username)
		assert.True(t, u.IsAdmin)
		assert.Equal(t, in.URL+"/root", u.WebURL)

		r := in.Do(t, "GET", "/user", servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		var body map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &body))
		assert.Equal(t, "admin@example.com", body["email"])
		assert.Equal(t, "active", body["state"])
		assert.Regexp(t, `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`, body["created_at"])
	})

	t.Run("authentication errors", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token, path string
			status            int
			body              string
		}{
			{"anonymous /user", "", "/user", 401, `{"message":"401 Unauthorized"}`},
			{"unknown token on a public route", "glpat-nope", "/users/1", 401, `{"message":"401 Unauthorized"}`},
			{"unknown route", servertest.RootToken, "/nothing/here", 404, `{"error":"404 Not Found"}`},
			{"unknown user", servertest.RootToken, "/users/999", 404, `{"message":"404 User Not Found"}`},
			{"non-numeric user id", servertest.RootToken, "/users/abc", 404, `{"message":"404 User Not Found"}`},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				r := in.Do(t, "GET", tc.path, tc.token, nil)
				assert.Equal(t, tc.status, r.Status)
				assert.JSONEq(t, tc.body, string(r.Body))
			})
		}
	})

	t.Run("read_user scope reads users and the version, not projects", func(t *testing.T) {
		u, _ := in.NewUser(t, "alice")
		readUser := in.NewToken(t, u.ID, "read_user")
		r := in.Do(t, "GET", "/user", readUser, nil)
		assert.Equal(t, http.StatusOK, r.Status, r.String())
		r = in.Do(t, "GET", "/users?username=alice", readUser, nil)
		assert.Equal(t, http.StatusOK, r.Status, r.String())
		r = in.Do(t, "GET", "/version", readUser, nil)
		assert.Equal(t, http.StatusOK, r.Status, r.String())
		r = in.Do(t, "GET", "/projects", readUser, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api read_api"}`, string(r.Body))
		r = in.Do(t, "POST", "/users/1/block", readUser, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}`, string(r.Body))
	})

	t.Run("version", func(t *testing.T) {
		v, _, err := in.Client(t, servertest.RootToken).Version.GetVersion()
		require.NoError(t, err)
		assert.Equal(t, "18.6.0-ee", v.Version)
	})
}
