package graph_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vmihailenco/msgpack/v5"
)

// TestGraphQL_badCursorsAreClientErrors sends cursors that do not decode, and cursors that
// decode to values the connection's order cannot use, to every connection: each is GitLab's
// "Please provide a valid cursor" as a BAD_USER_INPUT error, never an internal error.
func TestGraphQL_badCursorsAreClientErrors(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "g", "public", nil)
	in.NewProject(t, g, "p", "public")
	enc := func(v any) string {
		b, err := msgpack.Marshal(v)
		require.NoError(t, err)
		return base64.RawStdEncoding.EncodeToString(b)
	}
	cursors := map[string]string{
		"not base64":           `"zzz"`,
		"a number":             `5`,
		"base64 of garbage":    `"!!"`,
		"an array":             `"` + enc([]any{1, 2, 3}) + `"`,
		"a string id":          `"` + enc(map[string]any{"i": "x", "v": 5}) + `"`,
		"a map value":          `"` + enc(map[string]any{"i": 1, "v": map[string]any{"x": 1}}) + `"`,
		"a string for an id":   `"` + enc(map[string]any{"i": 1, "v": "zzz"}) + `"`,
		"a list value":         `"` + enc(map[string]any{"i": 1, "v": []any{1}}) + `"`,
		"an unsigned overflow": `"` + enc(map[string]any{"i": 1, "v": uint64(1) << 63}) + `"`,
	}
	fields := []struct{ name, query string }{
		{"projects", `{projects(sort:"id_desc",%s){nodes{id}}}`},
		{"projects by name", `{projects(sort:"name_asc",%s){nodes{id}}}`},
		{"groups", `{groups(sort:"id_asc",%s){nodes{id}}}`},
		{"users", `{users(sort:CREATED_DESC,%s){nodes{id}}}`},
		{"group projects", `{group(fullPath:"g"){projects(%s){nodes{id}}}}`},
		{"group members", `{group(fullPath:"g"){groupMembers(%s){nodes{id}}}}`},
		{"starred projects", `{currentUser{starredProjects(%s){nodes{id}}}}`},
	}
	for _, f := range fields {
		for desc, c := range cursors {
			for _, arg := range []string{"after", "before"} {
				t.Run(f.name+" "+arg+" "+desc, func(t *testing.T) {
					r := gql(t, in, servertest.RootToken, fmt.Sprintf(f.query, arg+":"+c), nil)
					require.Equal(t, 200, r.Status, r.String())
					if f.name == "projects by name" && desc == "a string for an id" {
						// a name is a string: the cursor is usable there
						assert.JSONEq(t, `{"data":{"projects":{"nodes":[]}}}`, string(r.Body))
						return
					}
					assert.Contains(t, string(r.Body), `"message":"Please provide a valid cursor"`)
					assert.Contains(t, string(r.Body), `"extensions":{"code":"BAD_USER_INPUT"}`)
					assert.NotContains(t, string(r.Body), "INTERNAL_SERVER_ERROR")
				})
			}
		}
	}
	// A cursor the server gave out still pages.
	body := data(t, in, servertest.RootToken, `{projects(first:1){nodes{id} pageInfo{endCursor}}}`, nil)
	end, ok := path(body, "projects", "pageInfo", "endCursor").(string)
	require.True(t, ok, "%v", body)
	r := gql(t, in, servertest.RootToken, `query($c:Cursor){projects(after:$c){nodes{id}}}`, map[string]any{"c": end})
	require.Equal(t, 200, r.Status)
	assert.JSONEq(t, `{"data":{"projects":{"nodes":[]}}}`, string(r.Body))
}

// TestGraphQL_batchesAreBounded checks GitLab's limit on a batch: the query texts of all its
// operations count together against the 10,000-character limit, so a batch of 1,000 operations
// is refused before any runs, while a batch within the limit runs every operation.
func TestGraphQL_batchesAreBounded(t *testing.T) {
	in := servertest.Start(t)
	batch := func(n int, query string) string {
		ops := make([]string, n)
		for i := range ops {
			ops[i] = fmt.Sprintf(`{"query":%q}`, query)
		}
		return "[" + strings.Join(ops, ",") + "]"
	}
	r := in.Do(t, "POST", "/api/graphql", servertest.RootToken, batch(1000, "{__typename}"))
	assertJSON(t, r, 422, `{"errors":[{"message":"Query too large"}]}`)
	r = in.Do(t, "POST", "/api/graphql", servertest.RootToken, batch(1000, "{currentUser{username}}"))
	assertJSON(t, r, 422, `{"errors":[{"message":"Query too large"}]}`)
	r = in.Do(t, "POST", "/api/graphql", servertest.RootToken, batch(2, strings.Repeat(" ", 5000)+"{__typename}"))
	assertJSON(t, r, 422, `{"errors":[{"message":"Query too large"}]}`)

	r = in.Do(t, "POST", "/api/graphql", servertest.RootToken, batch(10, "{currentUser{username}}"))
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, "["+strings.TrimSuffix(strings.Repeat(`{"data":{"currentUser":{"username":"root"}}},`, 10), ",")+"]", string(r.Body))
}

// TestGraphQL_unusableTextIsBadInput sends NUL bytes and invalid UTF-8 in literal arguments and
// in variables: each is a BAD_USER_INPUT error naming the argument, before any resolver runs
// (PostgreSQL cannot compare such text).
func TestGraphQL_unusableTextIsBadInput(t *testing.T) {
	in := servertest.Start(t)
	for _, tc := range []struct {
		query string
		vars  map[string]any
		name  string
	}{
		{`{groups(search:"a\u0000b"){nodes{id}}}`, nil, "search"},
		{`{namespace(fullPath:"\u0000"){id}}`, nil, "fullPath"},
		{`{project(fullPath:"g/p"){id} users(usernames:["ok","x\u0000"]){nodes{id}}}`, nil, "usernames"},
		{`query($s:String){groups(search:$s){nodes{id}}}`, map[string]any{"s": "a\x00"}, "$s"},
		{`query($u:[String!]){users(usernames:$u){nodes{id}}}`, map[string]any{"u": []any{"a", "b\x00"}}, "$u"},
	} {
		r := gql(t, in, servertest.RootToken, tc.query, tc.vars)
		require.Equal(t, 200, r.Status, r.String())
		assert.JSONEq(t, `{"errors":[{"message":"`+tc.name+` is invalid: text must be valid UTF-8 without NUL bytes","extensions":{"code":"BAD_USER_INPUT"}}]}`, string(r.Body), tc.query)
	}
	assert.Empty(t, in.Logs.Errors())
}
