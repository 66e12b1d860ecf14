package registryapi_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenResponse asks /jwt/auth for a token with HTTP Basic (username empty: anonymous).
func tokenResponse(t *testing.T, in *servertest.Instance, username, secret string, scopes ...string) (int, map[string]any) {
	t.Helper()
	q := url.Values{"service": {"container_registry"}}
	for _, s := range scopes {
		q.Add("scope", s)
	}
	req, err := http.NewRequest("GET", in.URL+"/jwt/auth?"+q.Encode(), nil)
	require.NoError(t, err)
	if username != "" {
		req.SetBasicAuth(username, secret)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	if len(body) > 0 {
		require.NoError(t, json.Unmarshal(body, &out), string(body))
	}
	return resp.StatusCode, out
}

// grants returns the access a token grants, as "type:name:action,action" strings.
func grants(t *testing.T, token string) []string {
	t.Helper()
	parts := strings.Split(token, ".")
	require.Len(t, parts, 3)
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	var claims struct {
		Iss    string `json:"iss"`
		Aud    any    `json:"aud"`
		Access []struct {
			Type, Name string
			Actions    []string
		} `json:"access"`
	}
	require.NoError(t, json.Unmarshal(raw, &claims))
	assert.Equal(t, "gitlab-issuer", claims.Iss)
	out := []string{}
	for _, a := range claims.Access {
		out = append(out, a.Type+":"+a.Name+":"+strings.Join(a.Actions, ","))
	}
	return out
}

// granted asks for every action on path and returns those granted ("" for none).
func granted(t *testing.T, in *servertest.Instance, username, secret, path string) string {
	t.Helper()
	status, body := tokenResponse(t, in, username, secret, "repository:"+path+":pull,push,delete,*")
	require.Equal(t, http.StatusOK, status, body)
	g := grants(t, body["token"].(string))
	if len(g) == 0 {
		return ""
	}
	require.Len(t, g, 1)
	return strings.TrimPrefix(g[0], "repository:"+path+":")
}

// Tokens grant what the caller's role and the project's container_registry_access_level allow:
// pull to Reporters and above (and to everyone on public projects with an enabled registry),
// push and delete to Developers and above, "*" to Maintainers and above; nothing when the
// registry is disabled, administrators included.
func TestToken_roleAndAccessLevel(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "acme", "public", nil)
	_, adminTok := in.NewUser(t, "boss", servertest.Admin)
	roles := []struct {
		name  string
		level int // -1 anonymous, 0 signed-in non-member
	}{{"anonymous", -1}, {"stranger", 0}, {"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}, {"admin", 60}}
	tokens := map[string]string{"admin": adminTok}
	users := map[string]*ent.User{}
	for _, r := range roles {
		if r.level >= 0 && r.name != "admin" {
			users[r.name], tokens[r.name] = in.NewUser(t, r.name)
		}
	}
	for _, vis := range []string{"public", "private"} {
		for _, level := range []string{"enabled", "private", "disabled"} {
			p := in.NewProject(t, g, vis+"-"+level, vis)
			require.NoError(t, in.DB.Client.Project.UpdateOne(p).SetContainerRegistryAccessLevel(level).Exec(t.Context()))
			for _, r := range roles {
				if r.level >= 10 && r.level <= 50 {
					in.AddProjectMember(t, p, users[r.name], r.level)
				}
			}
			for _, r := range roles {
				var want []string
				if level != "disabled" {
					if r.level >= 20 || (level == "enabled" && vis == "public") {
						want = append(want, "pull")
					}
					if r.level >= 30 {
						want = append(want, "push", "delete")
					}
					if r.level >= 40 {
						want = append(want, "*")
					}
				}
				username, secret := "", ""
				if r.level >= 0 {
					username, secret = r.name, tokens[r.name]
					if r.name == "admin" {
						username = "boss"
					}
				}
				path := "acme/" + vis + "-" + level
				assert.Equal(t, strings.Join(want, ","), granted(t, in, username, secret, path),
					"%s on a %s project with the registry %s", r.name, vis, level)
			}
		}
	}
}

// The credentials decide too: a token allows what its scopes say (read_registry pulls,
// write_registry pushes, api everything), an account password everything.
func TestToken_credentials(t *testing.T) {
	in := servertest.Start(t)
	alice, _ := in.NewUser(t, "alice")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "private")
	_ = p
	for _, tc := range []struct {
		scopes []string
		want   string
	}{
		{[]string{"api"}, "pull,push,delete,*"},
		{[]string{"read_api"}, "pull"},
		{[]string{"read_registry"}, "pull"},
		{[]string{"write_registry"}, "push"},
		{[]string{"read_registry", "write_registry"}, "pull,push"},
	} {
		tok := in.NewToken(t, alice.ID, tc.scopes...)
		assert.Equal(t, tc.want, granted(t, in, "alice", tok, "alice/app"), "scopes %v", tc.scopes)
	}
	assert.Equal(t, "pull,push,delete,*", granted(t, in, "alice", servertest.UserPassword, "alice/app"))
	assert.Equal(t, "pull,push,delete,*", granted(t, in, "alice@example.com", servertest.UserPassword, "alice/app"),
		"the email signs in like the username")

	// Several scope parameters, and several scopes in one, are each decided.
	q := "/jwt/auth?service=container_registry&scope=" + url.QueryEscape("repository:alice/app:pull repository:alice/app/sub:push") +
		"&scope=repository:alice/other:pull&scope=repository:nobody/nothing:pull&scope=registry:catalog:*"
	req, _ := http.NewRequest("GET", in.URL+q, nil)
	req.SetBasicAuth("alice", servertest.UserPassword)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var body map[string]string
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	resp.Body.Close()
	assert.Equal(t, []string{"repository:alice/app:pull", "repository:alice/app/sub:push"}, grants(t, body["token"]),
		"unknown projects and the catalog (not an administrator) are left out")
}

// Refusals: wrong credentials 401, credentials that allow nothing in the registry 403, an
// anonymous request without a scope 403, another service 404.
func TestToken_refusals(t *testing.T) {
	in := servertest.Start(t)
	alice, _ := in.NewUser(t, "alice")
	status, body := tokenResponse(t, in, "alice", "wrong-password", "repository:alice/app:pull")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, map[string]any{"errors": []any{map[string]any{"code": "UNAUTHORIZED", "message": "HTTP Basic: Access denied. " +
		"If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. " +
		"If a token was provided, it was either incorrect, expired, or improperly scoped. See " + in.URL +
		"/help/user/profile/account/two_factor_authentication_troubleshooting.md#error-http-basic-access-denied-if-a-password-was-provided-for-git-authentication-"}}}, body)

	repoTok := in.NewToken(t, alice.ID, "read_repository")
	status, body = tokenResponse(t, in, "alice", repoTok, "repository:alice/app:pull")
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, map[string]any{"errors": []any{map[string]any{"code": "DENIED", "message": "access forbidden"}}}, body)

	status, body = tokenResponse(t, in, "", "")
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, map[string]any{"errors": []any{map[string]any{"code": "DENIED", "message": "access forbidden"}}}, body)

	resp, err := http.Get(in.URL + "/jwt/auth?service=other")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	// Signed in without a scope (docker login): a token granting nothing.
	status, body = tokenResponse(t, in, "alice", servertest.UserPassword)
	require.Equal(t, http.StatusOK, status)
	assert.Empty(t, grants(t, body["token"].(string)))
}

// container_registry_access_level changes take effect on the next token.
func TestToken_accessLevelChangeTakesEffect(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "public")
	assert.Equal(t, "pull", granted(t, in, "", "", "alice/app"))
	r := in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), tok, `{"container_registry_access_level":"private"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "", granted(t, in, "", "", "alice/app"))
	assert.Equal(t, "pull,push,delete,*", granted(t, in, "alice", tok, "alice/app"))
	r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), tok, `{"container_registry_access_level":"disabled"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "", granted(t, in, "alice", tok, "alice/app"))
}
