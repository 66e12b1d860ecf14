package tokenapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/user"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// insufficient is GitLab's insufficient_scope body for the given scope list.
func insufficient(scope string) string {
	return `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"` + scope + `"}`
}

func TestAuthentication_tokenSources(t *testing.T) {
	in := servertest.Start(t)
	_, token := in.NewUser(t, "alice")
	for _, tc := range []struct {
		desc, path string
		header     map[string]string
	}{
		{"PRIVATE-TOKEN header", "/user", map[string]string{"PRIVATE-TOKEN": token}},
		{"Authorization: Bearer", "/user", map[string]string{"Authorization": "Bearer " + token}},
		{"lower-case bearer scheme", "/user", map[string]string{"Authorization": "bearer " + token}},
		{"private_token parameter", "/user?private_token=" + token, nil},
		{"access_token parameter", "/user?access_token=" + token, nil},
		{"bearer_token parameter", "/user?bearer_token=" + token, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := raw(t, in, "GET", tc.path, tc.header)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			assert.Equal(t, "alice", servertest.Object(t, r)["username"])
		})
	}
}

func TestAuthentication_refusals(t *testing.T) {
	in := servertest.Start(t)
	alice, _ := in.NewUser(t, "alice")
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	today := time.Now().UTC()
	_, expired := issue(t, in, alice.ID, &yesterday, "api")
	_, expiresToday := issue(t, in, alice.ID, &today, "api")
	revokedTok, revoked := issue(t, in, alice.ID, nil, "api")
	require.Equal(t, http.StatusNoContent, in.Do(t, "DELETE", "/personal_access_tokens/"+strconv.Itoa(revokedTok.ID), servertest.RootToken, nil).Status)
	_, revokedAndExpired := issue(t, in, alice.ID, &yesterday, "api")
	require.NoError(t, in.Services.Tokens.RevokeSelf(context.Background(), actorFor(mustToken(t, in, revokedAndExpired))))

	const expiredBody = `{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}`
	const revokedBody = `{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}`
	for _, tc := range []struct {
		desc, token, path string
		status            int
		want              string
	}{
		{"unknown token on a public resource", "glpat-unknown", "/users/1", 401, `{"message":"401 Unauthorized"}`},
		{"expired", expired, "/users/1", 401, expiredBody},
		{"expires today: expired since midnight UTC", expiresToday, "/user", 401, expiredBody},
		{"revoked", revoked, "/users/1", 401, revokedBody},
		{"expired is reported before revoked", revokedAndExpired, "/user", 401, expiredBody},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
			if tc.status == 401 && tc.want != `{"message":"401 Unauthorized"}` {
				assert.Contains(t, r.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
			}
		})
	}

	for _, tc := range []struct {
		state user.State
		want  string
	}{
		{user.StateBlocked, `{"message":"403 Forbidden - Your account has been blocked."}`},
		{user.StateBanned, `{"message":"403 Forbidden - Your account has been blocked."}`},
		{user.StateLdapBlocked, `{"message":"403 Forbidden - Your account has been blocked."}`},
		{user.StateBlockedPendingApproval, `{"message":"403 Forbidden - Your account is pending approval from your administrator and hence blocked."}`},
		{user.StateDeactivated, `{"message":"403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ` + in.URL + `"}`},
	} {
		t.Run("user "+string(tc.state), func(t *testing.T) {
			u, token := in.NewUser(t, "u_"+string(tc.state))
			require.NoError(t, in.DB.Client.User.UpdateOneID(u.ID).SetState(tc.state).Exec(context.Background()))
			r := in.Do(t, "GET", "/users/1", token, nil)
			assert.Equal(t, http.StatusForbidden, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
}

func TestAuthentication_sudo(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	admin, _ := in.NewUser(t, "admin2", servertest.Admin)
	adminNoSudo := in.NewToken(t, admin.ID, "api")
	g := in.NewGroup(t, "secret", "private", nil)
	p := in.NewProject(t, g, "vault", "private")
	tokensPath := "/projects/" + strconv.Itoa(p.ID) + "/access_tokens"

	for _, tc := range []struct {
		desc, path string
		header     map[string]string
		status     int
		want       string
	}{
		{"non-administrator", "/user", map[string]string{"PRIVATE-TOKEN": aliceToken, "Sudo": "root"}, 403,
			`{"message":"403 Forbidden - Must be admin to use sudo"}`},
		{"administrator token without the sudo scope", "/user", map[string]string{"PRIVATE-TOKEN": adminNoSudo, "Sudo": "alice"}, 403,
			insufficient("sudo")},
		{"unknown user", "/user", map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "nobody"}, 404,
			`{"message":"404 User with ID or username 'nobody' Not Found"}`},
		{"unknown id", "/user?sudo=999", map[string]string{"PRIVATE-TOKEN": servertest.RootToken}, 404,
			`{"message":"404 User with ID or username '999' Not Found"}`},
		{"anonymous", "/user", map[string]string{"Sudo": "alice"}, 401, `{"message":"401 Unauthorized"}`},
		{"sudo sees what the user sees", tokensPath, map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "alice"}, 404,
			`{"message":"404 Project Not Found"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := raw(t, in, "GET", tc.path, tc.header)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}

	t.Run("acts as the user: header (any case), parameter, id, client-go", func(t *testing.T) {
		for _, h := range []struct {
			path   string
			header map[string]string
		}{
			{"/user", map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "ALICE"}},
			{"/user?sudo=alice", map[string]string{"PRIVATE-TOKEN": servertest.RootToken}},
			{"/user", map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "sudo": strconv.Itoa(alice.ID)}},
		} {
			r := raw(t, in, "GET", h.path, h.header)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			m := servertest.Object(t, r)
			assert.Equal(t, "alice", m["username"])
			assert.NotContains(t, m, "is_admin", "alice's own view, not the administrator's")
		}
		u, _, err := in.Client(t, servertest.RootToken).Users.CurrentUser(gitlab.WithSudo("alice"))
		require.NoError(t, err)
		assert.Equal(t, "alice", u.Username)

		// Without sudo root reads the project's tokens; as alice it is invisible (above).
		assert.Equal(t, http.StatusOK, in.Do(t, "GET", tokensPath, servertest.RootToken, nil).Status)
		// Alice's token list, not everyone's.
		r := raw(t, in, "GET", "/personal_access_tokens", map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "alice"})
		require.Equal(t, http.StatusOK, r.Status)
		for _, row := range array(t, r) {
			assert.Equal(t, float64(alice.ID), row["user_id"])
		}
	})
}

func TestAuthentication_scopes(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	g := in.NewGroup(t, "acme", "public", nil)
	in.AddGroupMember(t, g, alice, 50)
	p := in.NewProject(t, g, "widget", "public")
	readAPI := in.NewToken(t, alice.ID, "read_api")
	readUser := in.NewToken(t, alice.ID, "read_user")
	victim, _ := issue(t, in, alice.ID, nil, "api")
	victimPath := "/personal_access_tokens/" + strconv.Itoa(victim.ID)
	projectTokens := "/projects/" + strconv.Itoa(p.ID) + "/access_tokens"

	for _, tc := range []struct {
		desc, token, method, path string
		status                    int
		want                      string
	}{
		{"read_api GETs", readAPI, "GET", "/personal_access_tokens", 200, ""},
		{"read_api GETs a project's tokens", readAPI, "GET", projectTokens, 200, ""},
		{"read_api reads /version", readAPI, "GET", "/version", 200, ""},
		{"read_api may not POST", readAPI, "POST", victimPath + "/rotate", 403, insufficient("api")},
		{"read_api may not PUT", readAPI, "PUT", "/groups/" + strconv.Itoa(g.ID), 403, insufficient("api")},
		{"read_api may not DELETE", readAPI, "DELETE", victimPath, 403, insufficient("api")},
		{"read_user reads /user", readUser, "GET", "/user", 200, ""},
		{"read_user reads /users/:id", readUser, "GET", "/users/1", 200, ""},
		{"read_user reads /version", readUser, "GET", "/version", 200, ""},
		{"read_user reads /metadata", readUser, "GET", "/metadata", 200, ""},
		{"read_user may not read a project's tokens", readUser, "GET", projectTokens, 403, insufficient("api read_api")},
		{"read_user may not read groups", readUser, "GET", "/groups", 403, insufficient("api read_api")},
		{"read_user may not list its tokens", readUser, "GET", "/personal_access_tokens", 403, insufficient("api read_api")},
		{"read_user reads itself", readUser, "GET", "/personal_access_tokens/self", 200, ""},
		{"api does everything: GET", aliceToken, "GET", projectTokens, 200, ""},
		{"api does everything: DELETE", aliceToken, "DELETE", victimPath, 204, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, tc.method, tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
				assert.Contains(t, r.Header.Get("WWW-Authenticate"), `error="insufficient_scope"`)
			}
		})
	}

	t.Run("api does everything: POST", func(t *testing.T) {
		_, resp, err := in.Client(t, aliceToken).ProjectAccessTokens.CreateProjectAccessToken(p.ID, &gitlab.CreateProjectAccessTokenOptions{
			Name: gitlab.Ptr("x"), Scopes: &[]string{"read_api"},
		})
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, resp.StatusCode)
	})

	t.Run("a sudo-scoped token with sudo skips route scopes, as GitLab does", func(t *testing.T) {
		sudoOnly := in.NewToken(t, 1, "sudo")
		r := raw(t, in, "GET", "/version", map[string]string{"PRIVATE-TOKEN": sudoOnly})
		assert.Equal(t, http.StatusForbidden, r.Status)
		r = raw(t, in, "GET", "/version", map[string]string{"PRIVATE-TOKEN": sudoOnly, "Sudo": "alice"})
		assert.Equal(t, http.StatusOK, r.Status, r.String())
	})
}

// mustToken loads the token with a secret.
func mustToken(t *testing.T, in *servertest.Instance, secret string) *ent.PersonalAccessToken {
	t.Helper()
	tok, err := in.DB.Client.PersonalAccessToken.Get(context.Background(), tokenID(t, in, secret))
	require.NoError(t, err)
	return tok
}
