package tokenapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/tokens"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestPersonalAccessTokens_Create(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	root := in.Client(t, servertest.RootToken)

	t.Run("administrator creates a token for a user (client-go)", func(t *testing.T) {
		expires := gitlab.ISOTime(time.Now().UTC().AddDate(0, 0, 30))
		pat, resp, err := root.Users.CreatePersonalAccessToken(int64(alice.ID), &gitlab.CreatePersonalAccessTokenOptions{
			Name: gitlab.Ptr("ci"), Description: gitlab.Ptr("for CI"), Scopes: &[]string{"api", "read_repository"}, ExpiresAt: &expires,
		})
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, resp.StatusCode)
		assert.Equal(t, "ci", pat.Name)
		assert.Equal(t, "for CI", pat.Description)
		assert.Equal(t, []string{"api", "read_repository"}, pat.Scopes)
		assert.Equal(t, int64(alice.ID), pat.UserID)
		assert.True(t, pat.Active)
		assert.False(t, pat.Revoked)
		assert.Equal(t, date(30), pat.ExpiresAt.String())
		assert.True(t, strings.HasPrefix(pat.Token, "glpat-"), pat.Token)

		// The secret works and belongs to alice.
		u, _, err := in.Client(t, pat.Token).Users.CurrentUser()
		require.NoError(t, err)
		assert.Equal(t, "alice", u.Username)
	})

	t.Run("exact shape, form-encoded, default expiry", func(t *testing.T) {
		r := in.Do(t, "POST", "/users/"+strconv.Itoa(alice.ID)+"/personal_access_tokens", servertest.RootToken,
			url.Values{"name": {"shape"}, "scopes[]": {"read_api"}})
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		m := servertest.Object(t, r)
		assert.Equal(t, "active,created_at,description,expires_at,id,last_used_at,name,revoked,scopes,token,user_id", keys(m))
		assert.Equal(t, "shape", m["name"])
		assert.Nil(t, m["description"])
		assert.Nil(t, m["last_used_at"])
		assert.Equal(t, []any{"read_api"}, m["scopes"])
		assert.Equal(t, float64(alice.ID), m["user_id"])
		assert.Equal(t, true, m["active"])
		assert.Equal(t, false, m["revoked"])
		assert.Equal(t, date(tokens.MaxLifetimeDays), m["expires_at"])
		assert.Regexp(t, timeRe, m["created_at"])
		assert.Regexp(t, `^glpat-[A-Za-z0-9_-]{32}$`, m["token"])
	})

	for _, tc := range []struct {
		desc, token, path, body string
		status                  int
		want                    string
	}{
		{"missing name and scopes", servertest.RootToken, "/users/2/personal_access_tokens", `{}`, 400,
			`{"error":"name is missing, scopes is missing"}`},
		{"unknown scope", servertest.RootToken, "/users/2/personal_access_tokens", `{"name":"x","scopes":["api","nope"]}`, 400,
			`{"error":"scopes does not have a valid value"}`},
		{"bad date", servertest.RootToken, "/users/2/personal_access_tokens", `{"name":"x","scopes":["api"],"expires_at":"soon"}`, 400,
			`{"error":"expires_at is invalid"}`},
		{"too far ahead", servertest.RootToken, "/users/2/personal_access_tokens",
			`{"name":"x","scopes":["api"],"expires_at":"` + date(tokens.MaxLifetimeDays+1) + `"}`, 422,
			`{"message":"Expires at must be before ` + date(tokens.MaxLifetimeDays) + `"}`},
		{"blank name", servertest.RootToken, "/users/2/personal_access_tokens", `{"name":" ","scopes":["api"]}`, 422,
			`{"message":"Name can't be blank"}`},
		{"unknown user", servertest.RootToken, "/users/999/personal_access_tokens", `{"name":"x","scopes":["api"]}`, 404,
			`{"message":"404 User Not Found"}`},
		{"non-administrator", aliceToken, "/users/2/personal_access_tokens", `{"name":"x","scopes":["api"]}`, 403,
			`{"message":"403 Forbidden"}`},
		{"anonymous", "", "/users/2/personal_access_tokens", `{"name":"x","scopes":["api"]}`, 401,
			`{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", tc.path, tc.token, tc.body)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
}

func TestPersonalAccessTokens_CreateOwn(t *testing.T) {
	in := servertest.Start(t)
	_, bobToken := in.NewUser(t, "bob")
	bob := in.Client(t, bobToken)

	pat, resp, err := bob.Users.CreatePersonalAccessTokenForCurrentUser(&gitlab.CreatePersonalAccessTokenForCurrentUserOptions{
		Name: gitlab.Ptr("kube"), Scopes: &[]string{"k8s_proxy"},
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, []string{"k8s_proxy"}, pat.Scopes)
	assert.Equal(t, date(1), pat.ExpiresAt.String(), "defaults to the next day")
	assert.NotEmpty(t, pat.Token)

	for _, tc := range []struct {
		desc, token, body string
		status            int
		want              string
	}{
		{"api scope refused", bobToken, `{"name":"x","scopes":["api"]}`, 400, `{"error":"scopes does not have a valid value"}`},
		{"self_rotate allowed", bobToken, `{"name":"x","scopes":["self_rotate"]}`, 201, ""},
		{"read_api token may not create", in.NewToken(t, 2, "read_api"), `{"name":"x","scopes":["k8s_proxy"]}`, 403,
			`{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}`},
		{"anonymous", "", `{"name":"x","scopes":["k8s_proxy"]}`, 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", "/user/personal_access_tokens", tc.token, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
		})
	}
}

func TestPersonalAccessTokens_Prefix(t *testing.T) {
	in := servertest.Start(t)
	alice, _ := in.NewUser(t, "alice")
	require.NoError(t, in.Services.Settings.Set(context.Background(), "personal_access_token_prefix", "anvil_"))

	pat, _, err := in.Client(t, servertest.RootToken).Users.CreatePersonalAccessToken(int64(alice.ID),
		&gitlab.CreatePersonalAccessTokenOptions{Name: gitlab.Ptr("p"), Scopes: &[]string{"api"}})
	require.NoError(t, err)
	assert.Regexp(t, `^anvil_[A-Za-z0-9_-]{32}$`, pat.Token)
	r := in.Do(t, "GET", "/user", pat.Token, nil)
	assert.Equal(t, http.StatusOK, r.Status, r.String())

	// Only the digest is stored.
	row, err := in.DB.Client.PersonalAccessToken.Get(context.Background(), int(pat.ID))
	require.NoError(t, err)
	assert.Equal(t, tokens.Digest(pat.Token), row.TokenDigest)
	assert.NotContains(t, row.TokenDigest, pat.Token)
}

func TestPersonalAccessTokens_List(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	bob, bobToken := in.NewUser(t, "bob")
	ctx := context.Background()
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	expired, _ := issue(t, in, alice.ID, &yesterday, "api")
	revoked, _ := issue(t, in, alice.ID, nil, "read_api")
	require.NoError(t, in.Services.Tokens.RevokeSelf(ctx, actorFor(revoked)))
	named, _, err := in.Services.Tokens.Create(ctx, nil, tokens.CreateInput{UserID: alice.ID, Name: "deploy-key", Scopes: []string{"api"}})
	require.NoError(t, err)
	imp, _, err := in.Services.Tokens.CreateImpersonation(ctx, adminActor(t, in), tokens.CreateInput{
		UserID: alice.ID, Name: "imp", Scopes: []string{"api"}, ExpiresAt: ptr(time.Now().AddDate(0, 0, 3)),
	})
	require.NoError(t, err)
	// alice's api token from NewUser has id aliceFirst.
	aliceFirst := tokenID(t, in, aliceToken)
	bobFirst := tokenID(t, in, bobToken)

	for _, tc := range []struct {
		desc, token, query string
		want               []int
	}{
		{"own tokens, no impersonation tokens", aliceToken, "", []int{aliceFirst, expired.ID, revoked.ID, named.ID}},
		{"own user_id is allowed", aliceToken, "?user_id=" + strconv.Itoa(alice.ID), []int{aliceFirst, expired.ID, revoked.ID, named.ID}},
		{"revoked=true", aliceToken, "?revoked=true", []int{revoked.ID}},
		{"revoked=false", aliceToken, "?revoked=false", []int{aliceFirst, expired.ID, named.ID}},
		{"state=active", aliceToken, "?state=active", []int{aliceFirst, named.ID}},
		{"state=inactive", aliceToken, "?state=inactive", []int{expired.ID, revoked.ID}},
		{"search", aliceToken, "?search=DEPLOY", []int{named.ID}},
		{"short search is exact", aliceToken, "?search=de", []int{}},
		{"sort name_desc", aliceToken, "?sort=name_desc&state=active", []int{aliceFirst, named.ID}},
		{"created_after the future", aliceToken, "?created_after=" + date(1), []int{}},
		{"created_before the future", aliceToken, "?created_before=" + date(1) + "T00:00:00Z&state=active", []int{aliceFirst, named.ID}},
		{"expires_before", aliceToken, "?expires_before=" + date(0), []int{expired.ID}},
		{"expires_after", aliceToken, "?expires_after=" + date(0) + "&revoked=false", []int{aliceFirst, named.ID}},
		{"last_used_after (only used tokens)", aliceToken, "?last_used_after=" + date(-1), []int{aliceFirst}},
		{"last_used_before the past", aliceToken, "?last_used_before=" + date(-1), []int{}},
		{"admin filters by user, including impersonation tokens", servertest.RootToken, "?user_id=" + strconv.Itoa(alice.ID),
			[]int{aliceFirst, expired.ID, revoked.ID, named.ID, imp.ID}},
		{"admin sees everyone", servertest.RootToken, "?user_id=" + strconv.Itoa(bob.ID), []int{bobFirst}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", "/personal_access_tokens"+tc.query, tc.token, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			items := array(t, r)
			assert.Equal(t, tc.want, ids(items))
			for _, item := range items {
				assert.IsType(t, []any{}, item["last_used_ips"], "list items carry last_used_ips")
			}
		})
	}

	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token, query string
			status             int
			want               string
		}{
			{"another user's id", aliceToken, "?user_id=" + strconv.Itoa(bob.ID), 401, `{"message":"401 Unauthorized"}`},
			{"admin, unknown user", servertest.RootToken, "?user_id=999", 404, `{"message":"404 Not Found"}`},
			{"bad state", aliceToken, "?state=gone", 400, `{"error":"state does not have a valid value"}`},
			{"bad revoked", aliceToken, "?revoked=maybe", 400, `{"error":"revoked is invalid"}`},
			{"bad created_after", aliceToken, "?created_after=yesterday", 400, `{"error":"created_after is invalid"}`},
			{"anonymous", "", "", 401, `{"message":"401 Unauthorized"}`},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				r := in.Do(t, "GET", "/personal_access_tokens"+tc.query, tc.token, nil)
				assert.Equal(t, tc.status, r.Status)
				assert.JSONEq(t, tc.want, string(r.Body))
			})
		}
	})

	t.Run("pagination headers and client-go", func(t *testing.T) {
		r := in.Do(t, "GET", "/personal_access_tokens?per_page=3&page=2", aliceToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []int{named.ID}, ids(array(t, r)))
		assert.Equal(t, "4", r.Header.Get("X-Total"))
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "3", r.Header.Get("X-Per-Page"))
		assert.Equal(t, "2", r.Header.Get("X-Page"))
		assert.Equal(t, "", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
		assert.Contains(t, r.Header.Get("Link"), `page=1&per_page=3>; rel="prev"`)
		assert.Contains(t, r.Header.Get("Link"), `rel="first"`)

		list, resp, err := in.Client(t, aliceToken).PersonalAccessTokens.ListPersonalAccessTokens(&gitlab.ListPersonalAccessTokensOptions{
			State: gitlab.Ptr("active"), ListOptions: gitlab.ListOptions{PerPage: 1},
		})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, int64(aliceFirst), list[0].ID)
		assert.Equal(t, int64(2), resp.TotalItems)
		assert.Equal(t, int64(2), resp.NextPage)
	})
}

func TestPersonalAccessTokens_GetRevokeRotate(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	_, bobToken := in.NewUser(t, "bob")
	aliceTok, aliceSecret := issue(t, in, alice.ID, nil, "api")
	aliceID := strconv.Itoa(aliceTok.ID)

	t.Run("get by id, with last_used_ips", func(t *testing.T) {
		// The address is the connection's: no proxy is trusted to name another.
		req, err := http.NewRequest("GET", in.URL+"/api/v4/user", nil)
		require.NoError(t, err)
		req.Header.Set("PRIVATE-TOKEN", aliceSecret)
		req.Header.Set("X-Forwarded-For", "203.0.113.9")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode)
		r := in.Do(t, "GET", "/personal_access_tokens/"+aliceID, aliceToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "active,created_at,description,expires_at,id,last_used_at,last_used_ips,name,revoked,scopes,user_id", keys(m))
		assert.Equal(t, []any{"127.0.0.1"}, m["last_used_ips"])
		assert.Regexp(t, timeRe, m["last_used_at"])

		pat, _, err := in.Client(t, servertest.RootToken).PersonalAccessTokens.GetSinglePersonalAccessTokenByID(int64(aliceTok.ID))
		require.NoError(t, err)
		assert.Equal(t, "fixture", pat.Name)
	})

	t.Run("self", func(t *testing.T) {
		// Any scope may read itself.
		_, secret := issue(t, in, alice.ID, nil, "read_repository")
		pat, _, err := in.Client(t, secret).PersonalAccessTokens.GetSinglePersonalAccessToken()
		require.NoError(t, err)
		assert.Equal(t, []string{"read_repository"}, pat.Scopes)
		assert.NotNil(t, pat.LastUsedAt)
	})

	for _, tc := range []struct {
		desc, method, path, token string
		status                    int
		want                      string
	}{
		{"get someone else's token", "GET", "/personal_access_tokens/" + aliceID, bobToken, 401, `{"message":"401 Unauthorized"}`},
		{"get unknown, non-admin", "GET", "/personal_access_tokens/99999", bobToken, 401, `{"message":"401 Unauthorized"}`},
		{"get unknown, admin", "GET", "/personal_access_tokens/99999", servertest.RootToken, 404, `{"message":"404 Not Found"}`},
		{"rotate someone else's token", "POST", "/personal_access_tokens/" + aliceID + "/rotate", bobToken, 401, `{"message":"401 Unauthorized"}`},
		{"rotate unknown, admin", "POST", "/personal_access_tokens/99999/rotate", servertest.RootToken, 404, `{"message":"404 Not Found"}`},
		{"revoke someone else's token", "DELETE", "/personal_access_tokens/" + aliceID, bobToken, 400, `{"message":"400 Bad request - Not permitted to revoke"}`},
		{"revoke unknown", "DELETE", "/personal_access_tokens/99999", bobToken, 404, `{"message":"404 Not found"}`},
		{"rotate with a bad date", "POST", "/personal_access_tokens/" + aliceID + "/rotate?expires_at=x", aliceToken, 400, `{"error":"expires_at is invalid"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, tc.method, tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}

	t.Run("rotate by id", func(t *testing.T) {
		tok, secret := issue(t, in, alice.ID, nil, "api", "read_user")
		expires := gitlab.ISOTime(time.Now().UTC().AddDate(0, 0, 10))
		pat, resp, err := in.Client(t, aliceToken).PersonalAccessTokens.RotatePersonalAccessTokenByID(int64(tok.ID),
			&gitlab.RotatePersonalAccessTokenOptions{ExpiresAt: &expires})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.NotEqual(t, int64(tok.ID), pat.ID)
		assert.Equal(t, "fixture", pat.Name)
		assert.Equal(t, []string{"api", "read_user"}, pat.Scopes)
		assert.Equal(t, date(10), pat.ExpiresAt.String())
		assert.True(t, pat.Active)

		r := in.Do(t, "GET", "/user", secret, nil)
		assert.Equal(t, http.StatusUnauthorized, r.Status)
		assert.JSONEq(t, `{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}`, string(r.Body))
		assert.Equal(t, http.StatusOK, in.Do(t, "GET", "/user", pat.Token, nil).Status)

		r = in.Do(t, "POST", "/personal_access_tokens/"+strconv.Itoa(tok.ID)+"/rotate", aliceToken, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":"400 Bad request - Token already revoked"}`, string(r.Body))
	})

	t.Run("rotate self defaults to a week; self_rotate scope suffices", func(t *testing.T) {
		_, secret := issue(t, in, alice.ID, nil, "self_rotate")
		pat, resp, err := in.Client(t, secret).PersonalAccessTokens.RotatePersonalAccessTokenSelf(nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, date(7), pat.ExpiresAt.String())
		assert.Equal(t, []string{"self_rotate"}, pat.Scopes)

		_, readOnly := issue(t, in, alice.ID, nil, "read_api")
		r := in.Do(t, "POST", "/personal_access_tokens/self/rotate", readOnly, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api self_rotate"}`, string(r.Body))
	})

	t.Run("revoke by id and self", func(t *testing.T) {
		tok, secret := issue(t, in, alice.ID, nil, "api")
		resp, err := in.Client(t, aliceToken).PersonalAccessTokens.RevokePersonalAccessTokenByID(int64(tok.ID))
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", secret, nil).Status)
		// Revoking again still answers 204.
		assert.Equal(t, http.StatusNoContent, in.Do(t, "DELETE", "/personal_access_tokens/"+strconv.Itoa(tok.ID), aliceToken, nil).Status)

		_, self := issue(t, in, alice.ID, nil, "read_user")
		resp, err = in.Client(t, self).PersonalAccessTokens.RevokePersonalAccessTokenSelf()
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", self, nil).Status)

		// An administrator revokes anyone's token.
		other, otherSecret := issue(t, in, alice.ID, nil, "api")
		assert.Equal(t, http.StatusNoContent, in.Do(t, "DELETE", "/personal_access_tokens/"+strconv.Itoa(other.ID), servertest.RootToken, nil).Status)
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, "GET", "/user", otherSecret, nil).Status)
	})
}
