package tokenapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/member"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestProjectAccessTokens(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	maint, maintToken := in.NewUser(t, "maint")
	dev, devToken := in.NewUser(t, "dev")
	_, strangerToken := in.NewUser(t, "stranger")
	g := in.NewGroup(t, "acme", "private", nil)
	p := in.NewProject(t, g, "widget", "private")
	in.AddProjectMember(t, p, maint, 40)
	in.AddProjectMember(t, p, dev, 30)
	pid := strconv.Itoa(p.ID)
	base := "/projects/" + pid + "/access_tokens"

	expires := gitlab.ISOTime(time.Now().UTC().AddDate(0, 0, 20))
	tok, resp, err := in.Client(t, maintToken).ProjectAccessTokens.CreateProjectAccessToken("acme/widget", &gitlab.CreateProjectAccessTokenOptions{
		Name: gitlab.Ptr("deployer"), Description: gitlab.Ptr("ships it"), Scopes: &[]string{"api", "write_repository"},
		AccessLevel: gitlab.Ptr(gitlab.DeveloperPermissions), ExpiresAt: &expires,
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "deployer", tok.Name)
	assert.Equal(t, gitlab.DeveloperPermissions, tok.AccessLevel)
	assert.Equal(t, date(20), tok.ExpiresAt.String())
	require.NotEmpty(t, tok.Token)

	t.Run("a bot user backs the token", func(t *testing.T) {
		bot, err := in.DB.Client.User.Get(ctx, int(tok.UserID))
		require.NoError(t, err)
		assert.Regexp(t, `^project_`+pid+`_bot_[0-9a-f]{32}$`, bot.Username)
		assert.Equal(t, bot.Username+"@noreply.127.0.0.1", bot.Email)
		assert.Equal(t, "project_bot", bot.UserType)
		assert.Equal(t, "deployer", bot.Name)
		require.NotNil(t, bot.BotProjectID)
		assert.Equal(t, p.ID, *bot.BotProjectID)
		hasNS, err := bot.QueryNamespace().Exist(ctx)
		require.NoError(t, err)
		assert.False(t, hasNS, "bots get no personal namespace")
		m, err := in.DB.Client.Member.Query().Where(member.UserID(bot.ID), member.ProjectID(p.ID)).Only(ctx)
		require.NoError(t, err)
		assert.Equal(t, 30, m.AccessLevel)

		u, _, err := in.Client(t, tok.Token).Users.CurrentUser()
		require.NoError(t, err)
		assert.Equal(t, bot.Username, u.Username)
	})

	t.Run("exact shape", func(t *testing.T) {
		r := in.Do(t, "POST", base, maintToken, `{"name":"shape","scopes":["read_api"]}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "access_level,active,created_at,description,expires_at,id,last_used_at,last_used_ips,name,resource_id,resource_type,revoked,scopes,token,user_id", keys(m))
		assert.Equal(t, float64(40), m["access_level"], "Maintainer by default")
		assert.Equal(t, "project", m["resource_type"])
		assert.Equal(t, float64(p.ID), m["resource_id"])
		assert.Equal(t, []any{}, m["last_used_ips"])
		assert.Equal(t, date(365), m["expires_at"])

		r = in.Do(t, "GET", base+"/"+strconv.FormatInt(tok.ID, 10), maintToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "access_level,active,created_at,description,expires_at,id,last_used_at,last_used_ips,name,resource_id,resource_type,revoked,scopes,user_id", keys(servertest.Object(t, r)))
	})

	t.Run("list and get (client-go)", func(t *testing.T) {
		list, _, err := in.Client(t, maintToken).ProjectAccessTokens.ListProjectAccessTokens(p.ID, nil)
		require.NoError(t, err)
		require.Len(t, list, 2)
		assert.Equal(t, tok.ID, list[0].ID)
		assert.Equal(t, gitlab.DeveloperPermissions, list[0].AccessLevel)
		got, _, err := in.Client(t, servertest.RootToken).ProjectAccessTokens.GetProjectAccessToken(p.ID, tok.ID)
		require.NoError(t, err)
		assert.Equal(t, "ships it", got.Description)
		assert.Empty(t, got.Token)
	})

	for _, tc := range []struct {
		desc, method, path, token, body string
		status                          int
		want                            string
	}{
		{"developer lists", "GET", base, devToken, "", 401, `{"message":"401 Unauthorized"}`},
		{"developer creates", "POST", base, devToken, `{"name":"x","scopes":["api"]}`, 400,
			`{"message":"400 Bad request - User does not have permission to create project access token"}`},
		{"developer revokes", "DELETE", base + "/" + strconv.FormatInt(tok.ID, 10), devToken, "", 400,
			`{"message":"400 Bad request - User dev cannot delete deployer"}`},
		{"developer rotates", "POST", base + "/" + strconv.FormatInt(tok.ID, 10) + "/rotate", devToken, "", 401, `{"message":"401 Unauthorized"}`},
		{"maintainer asks for Owner", "POST", base, maintToken, `{"name":"x","scopes":["api"],"access_level":50}`, 400,
			`{"message":"400 Bad request - Access level of the token contains permissions not held by the creating user"}`},
		{"bad access level", "POST", base, maintToken, `{"name":"x","scopes":["api"],"access_level":45}`, 400,
			`{"error":"access_level does not have a valid value"}`},
		{"read_user is not a bot scope", "POST", base, maintToken, `{"name":"x","scopes":["read_user"]}`, 400,
			`{"error":"scopes does not have a valid value"}`},
		{"missing scopes", "POST", base, maintToken, `{"name":"x"}`, 400, `{"error":"scopes is missing"}`},
		{"too far ahead", "POST", base, maintToken, `{"name":"x","scopes":["api"],"expires_at":"` + date(400) + `"}`, 400,
			`{"message":"400 Bad request - Expires at must be before ` + date(365) + `"}`},
		{"unknown token", "GET", base + "/999", maintToken, "", 404,
			`{"message":"404 Could not find project access token with token_id: 999 Not Found"}`},
		{"unknown token, rotate, non-admin", "POST", base + "/999/rotate", maintToken, "", 401, `{"message":"401 Unauthorized"}`},
		{"unknown token, rotate, admin", "POST", base + "/999/rotate", servertest.RootToken, "", 404, `{"message":"404 Not Found"}`},
		{"non-member", "GET", base, strangerToken, "", 404, `{"message":"404 Project Not Found"}`},
		{"non-member creates", "POST", base, strangerToken, `{"name":"x","scopes":["api"]}`, 404, `{"message":"404 Project Not Found"}`},
		{"anonymous", "GET", base, "", "", 401, `{"message":"401 Unauthorized"}`},
		{"self rotation by a human", "POST", base + "/self/rotate", maintToken, "", 405, `{"message":"405 Method Not Allowed"}`},
		{"bad state", "GET", base + "?state=x", maintToken, "", 400, `{"error":"state does not have a valid value"}`},
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

	t.Run("no bot was left behind by refused creations", func(t *testing.T) {
		n, err := in.DB.Client.Member.Query().Where(member.ProjectID(p.ID)).Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, 4, n, "maint, dev and two bots")
	})

	t.Run("rotate", func(t *testing.T) {
		_, old := createProjectToken(t, in, maintToken, p.ID, "rotating")
		oldID := tokenID(t, in, old)
		next, resp, err := in.Client(t, maintToken).ProjectAccessTokens.RotateProjectAccessToken(p.ID, int64(oldID), nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "rotating", next.Name)
		assert.Equal(t, date(7), next.ExpiresAt.String())
		assert.Equal(t, gitlab.MaintainerPermissions, next.AccessLevel)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", old, nil).Status)
		assert.Equal(t, http.StatusOK, in.Do(t, "GET", "/user", next.Token, nil).Status)
	})

	t.Run("a maintainer cannot rotate an Owner-level token", func(t *testing.T) {
		owner, secret := createProjectToken(t, in, servertest.RootToken, p.ID, "owner-bot", 50)
		_ = secret
		r := in.Do(t, "POST", base+"/"+strconv.Itoa(owner)+"/rotate", maintToken, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":"400 Bad request - Not eligible to rotate token with access level higher than the user"}`, string(r.Body))
	})

	t.Run("self rotation by the bot", func(t *testing.T) {
		_, secret := createProjectToken(t, in, maintToken, p.ID, "selfie")
		next, resp, err := in.Client(t, secret).ProjectAccessTokens.RotateProjectAccessTokenSelf(p.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "selfie", next.Name)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", secret, nil).Status)

		// The bot's token is not one of another project's tokens.
		other := in.NewProject(t, g, "other", "public")
		r := in.Do(t, "POST", "/projects/"+strconv.Itoa(other.ID)+"/access_tokens/self/rotate", next.Token, nil)
		assert.Equal(t, http.StatusUnauthorized, r.Status, r.String())
	})

	t.Run("revoke keeps the bot and lists the token as inactive", func(t *testing.T) {
		id, secret := createProjectToken(t, in, maintToken, p.ID, "doomed")
		resp, err := in.Client(t, maintToken).ProjectAccessTokens.RevokeProjectAccessToken(p.ID, int64(id))
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", secret, nil).Status)

		r := in.Do(t, "GET", base+"?state=inactive", maintToken, nil)
		require.Equal(t, http.StatusOK, r.Status)
		rows := array(t, r)
		assert.Contains(t, ids(rows), id)
		for _, row := range rows {
			assert.Equal(t, false, row["active"])
		}
		r = in.Do(t, "GET", base+"?state=active", maintToken, nil)
		assert.NotContains(t, ids(array(t, r)), id)
	})
}

func TestGroupAccessTokens(t *testing.T) {
	in := servertest.Start(t)
	owner, ownerToken := in.NewUser(t, "owner")
	maint, maintToken := in.NewUser(t, "maint")
	g := in.NewGroup(t, "acme", "public", nil)
	in.AddGroupMember(t, g, owner, 50)
	in.AddGroupMember(t, g, maint, 40)
	base := "/groups/" + strconv.Itoa(g.ID) + "/access_tokens"

	tok, resp, err := in.Client(t, ownerToken).GroupAccessTokens.CreateGroupAccessToken("acme", &gitlab.CreateGroupAccessTokenOptions{
		Name: gitlab.Ptr("group-bot"), Scopes: &[]string{"read_api"}, AccessLevel: gitlab.Ptr(gitlab.OwnerPermissions),
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, gitlab.OwnerPermissions, tok.AccessLevel)

	r := in.Do(t, "GET", base+"/"+strconv.FormatInt(tok.ID, 10), ownerToken, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	m := servertest.Object(t, r)
	assert.Equal(t, "group", m["resource_type"])
	assert.Equal(t, float64(g.ID), m["resource_id"])

	bot, err := in.DB.Client.User.Get(context.Background(), int(tok.UserID))
	require.NoError(t, err)
	assert.Regexp(t, `^group_`+strconv.Itoa(g.ID)+`_bot_[0-9a-f]{32}$`, bot.Username)
	require.NotNil(t, bot.BotNamespaceID)
	assert.Equal(t, g.ID, *bot.BotNamespaceID)

	for _, tc := range []struct {
		desc, method, path, token, body string
		status                          int
		want                            string
	}{
		{"maintainer lists", "GET", base, maintToken, "", 401, `{"message":"401 Unauthorized"}`},
		{"maintainer creates", "POST", base, maintToken, `{"name":"x","scopes":["api"]}`, 400,
			`{"message":"400 Bad request - User does not have permission to create group access token"}`},
		{"unknown group", "GET", "/groups/nope/access_tokens", ownerToken, "", 404, `{"message":"404 Group Not Found"}`},
		{"unknown token", "DELETE", base + "/999", ownerToken, "", 404,
			`{"message":"404 Could not find group access token with token_id: 999 Not Found"}`},
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

	list, _, err := in.Client(t, servertest.RootToken).GroupAccessTokens.ListGroupAccessTokens(g.ID, nil)
	require.NoError(t, err)
	require.Len(t, list, 1)
	next, _, err := in.Client(t, ownerToken).GroupAccessTokens.RotateGroupAccessToken(g.ID, tok.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, "group-bot", next.Name)
	_, err = in.Client(t, ownerToken).GroupAccessTokens.RevokeGroupAccessToken(g.ID, next.ID)
	require.NoError(t, err)
	r = in.Do(t, "GET", base+"?state=active", ownerToken, nil)
	assert.Empty(t, array(t, r))
}

// createProjectToken creates a project access token over HTTP and returns its id and secret.
func createProjectToken(t *testing.T, in *servertest.Instance, token string, projectID int, name string, level ...int) (int, string) {
	t.Helper()
	body := map[string]any{"name": name, "scopes": []string{"api"}}
	if len(level) > 0 {
		body["access_level"] = level[0]
	}
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(projectID)+"/access_tokens", token, jsonBody(t, body))
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	m := servertest.Object(t, r)
	return int(m["id"].(float64)), m["token"].(string)
}
