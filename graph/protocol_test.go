package graph_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/user"

	"github.com/stretchr/testify/require"
)

func TestProtocol(t *testing.T) {
	in := servertest.Start(t)
	u, _ := in.NewUser(t, "alice")
	readUser := in.NewToken(t, u.ID, "read_user")
	readAPI := in.NewToken(t, u.ID, "read_api")
	blocked, blockedToken := in.NewUser(t, "bob")
	require.NoError(t, in.DB.Client.User.UpdateOneID(blocked.ID).SetState(user.StateBlocked).Exec(context.Background()))
	const me = `{"data":{"currentUser":{"username":"alice"}}}`
	json := "application/json"

	for _, tc := range []struct {
		desc        string
		method      string
		path        string
		contentType string
		body        string
		header      http.Header
		status      int
		want        string
	}{
		{"POST JSON, anonymous", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`, nil,
			200, `{"data":{"currentUser":null}}`},
		{"POST JSON with a Bearer token", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`,
			http.Header{"Authorization": {"Bearer " + readAPI}}, 200, me},
		{"private_token parameter", "POST", "/api/graphql?private_token=" + readAPI, json, `{"query":"{ currentUser { username } }"}`, nil,
			200, me},
		{"GET query", "GET", "/api/graphql?" + url.Values{"query": {"{ currentUser { username } }"}}.Encode(), "", "",
			http.Header{"Private-Token": {readAPI}}, 200, me},
		{"GET mutation is refused", "GET", "/api/graphql?" + url.Values{"query": {`mutation { groupCreate(input: {name: "x", path: "x"}) { errors } }`}}.Encode(), "", "",
			http.Header{"Private-Token": {servertest.RootToken}}, 422, `{"errors":[{"message":"Mutations are forbidden in GET requests"}]}`},
		{"form-encoded POST", "POST", "/api/graphql", "application/x-www-form-urlencoded",
			url.Values{"query": {"query Me { currentUser { username } }"}, "operationName": {"Me"}}.Encode(),
			http.Header{"Private-Token": {readAPI}}, 200, me},
		{"variables as a JSON string", "POST", "/api/graphql", json,
			`{"query":"query($u: String) { user(username: $u) { username } }","variables":"{\"u\":\"alice\"}"}`, nil,
			200, `{"data":{"user":{"username":"alice"}}}`},
		{"variables that are not JSON", "POST", "/api/graphql", json,
			`{"query":"query($u: String) { user(username: $u) { username } }","variables":"{nope"}`, nil,
			422, `{"errors":[{"message":"Unexpected variables: invalid character 'n' looking for beginning of object key string"}]}`},
		{"body that is not JSON", "POST", "/api/graphql", json, `{"query":`, nil,
			400, `{"errors":[{"message":"Invalid JSON body"}]}`},
		{"batch", "POST", "/api/graphql", json,
			`[{"query":"{ currentUser { username } }"},{"query":"query($u: String) { user(username: $u) { username } }","variables":{"u":"alice"}}]`,
			http.Header{"Private-Token": {readAPI}}, 200, `[` + me + `,{"data":{"user":{"username":"alice"}}}]`},
		{"query too large", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }` + strings.Repeat(" ", 10000) + `"}`, nil,
			422, `{"errors":[{"message":"Query too large"}]}`},
		{"syntax error", "POST", "/api/graphql", json, `{"query":"{ currentUser { username }"}`, nil,
			200, `{"errors":[{"message":"Expected Name, found <EOF>","locations":[{"line":1,"column":27}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}`},
		{"unknown field", "POST", "/api/graphql", json, `{"query":"{ nothing }"}`, nil,
			200, `{"errors":[{"message":"Cannot query field \"nothing\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`},
		{"invalid token", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`,
			http.Header{"Private-Token": {"glpat-not-a-token"}}, 401, `{"errors":[{"message":"Invalid token"}]}`},
		{"token without an API scope", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`,
			http.Header{"Private-Token": {readUser}}, 401, `{"errors":[{"message":"Invalid token"}]}`},
		{"sudo is ignored", "POST", "/api/graphql?sudo=alice", json, `{"query":"{ currentUser { username } }"}`,
			http.Header{"Private-Token": {servertest.RootToken}, "Sudo": {"alice"}}, 200, `{"data":{"currentUser":{"username":"root"}}}`},
		{"blocked user", "POST", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`,
			http.Header{"Private-Token": {blockedToken}}, 403, `{"errors":[{"message":"API not accessible for user"}]}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := raw(t, in, tc.method, tc.path, tc.contentType, tc.body, tc.header)
			assertJSON(t, r, tc.status, tc.want)
		})
	}

	t.Run("HEAD answers like GET without a body", func(t *testing.T) {
		r := raw(t, in, "HEAD", "/api/graphql?"+url.Values{"query": {"{ currentUser { username } }"}}.Encode(), "", "", nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.Empty(t, r.Body)
	})
	t.Run("other methods are not routed", func(t *testing.T) {
		r := raw(t, in, "PUT", "/api/graphql", json, `{"query":"{ currentUser { username } }"}`, nil)
		require.Equal(t, http.StatusNotFound, r.Status)
	})
}
