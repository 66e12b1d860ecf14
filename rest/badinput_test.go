package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/rest/params"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapshot is a fingerprint of everything a failed write must leave untouched, one line per
// row: row counts of every table and the contents of the rows requests could change (users
// without their activity timestamps, which reads legitimately bump).
func snapshot(t testing.TB, in *servertest.Instance) []string {
	t.Helper()
	ctx := context.Background()
	c := in.DB.Client
	var lines []string
	add := func(kind string) func(v any, err error) {
		return func(v any, err error) {
			require.NoError(t, err)
			b, err := json.Marshal(v)
			require.NoError(t, err)
			var rows []json.RawMessage
			if json.Unmarshal(b, &rows) != nil {
				lines = append(lines, kind+" "+string(b))
				return
			}
			for _, r := range rows {
				lines = append(lines, kind+" "+string(r))
			}
		}
	}
	count := func(kind string) func(int, error) {
		return func(n int, err error) { add(kind+" count")(n, err) }
	}
	count("users")(c.User.Query().Count(ctx))
	count("tokens")(c.PersonalAccessToken.Query().Count(ctx))
	count("identities")(c.Identity.Query().Count(ctx))
	count("settings")(c.Setting.Query().Count(ctx))
	count("push_events")(c.PushEvent.Query().Count(ctx))
	users, err := c.User.Query().Order(ent.Asc("id")).All(ctx)
	require.NoError(t, err)
	for _, u := range users {
		lines = append(lines, fmt.Sprintf("user %d %s %q %s %s admin=%v", u.ID, u.Username, u.Name, u.Email, u.State, u.Admin))
	}
	add("namespace")(c.Namespace.Query().Order(ent.Asc("id")).All(ctx))
	add("project")(c.Project.Query().Order(ent.Asc("id")).All(ctx))
	add("member")(c.Member.Query().Order(ent.Asc("id")).All(ctx))
	add("attribute")(c.UserCustomAttribute.Query().Order(ent.Asc("id")).All(ctx))
	add("protected_branch")(c.ProtectedBranch.Query().Order(ent.Asc("id")).All(ctx))
	add("group_link")(c.GroupGroupLink.Query().Order(ent.Asc("id")).All(ctx))
	add("project_link")(c.ProjectGroupLink.Query().Order(ent.Asc("id")).All(ctx))
	return lines
}

// requireUnchanged fails with the rows that differ between two snapshots.
func requireUnchanged(t testing.TB, before, after []string) {
	t.Helper()
	in := func(set []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range set {
			m[s] = true
		}
		return m
	}
	b, a := in(before), in(after)
	var diff []string
	for _, s := range before {
		if !a[s] {
			diff = append(diff, "- "+s)
		}
	}
	for _, s := range after {
		if !b[s] {
			diff = append(diff, "+ "+s)
		}
	}
	if len(diff) > 0 {
		t.Errorf("a refused request changed the database:\n%s", strings.Join(diff, "\n"))
	}
}

// badCase is one request that must be refused with a 4xx JSON error.
type badCase struct {
	desc, method, path string
	ct, body           string // body sent with ct; empty ct means no body
	status             int    // expected status; 0 means any 4xx
	want               string // exact JSON body, or "" to check only that it is a JSON object
	token              string // defaults to root's
	skip               bool   // not a bad request for this route (built by a loop)
}

// TestBadInput_answers4xxAndWritesNothing sends malformed, mistyped, invalid, overlong and
// unknown input to the routes of every resource and expects a 4xx JSON error (never a 5xx),
// with the database exactly as it was before each refused request.
func TestBadInput_answers4xxAndWritesNothing(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	g := in.NewGroup(t, "bad", "private", nil)
	p := in.NewProject(t, g, "p", "private")
	in.AddGroupMember(t, g, alice, 50)
	other := in.NewGroup(t, "other", "private", nil)
	in.AddGroupMember(t, other, alice, 50)
	long := strings.Repeat("n", 10000)
	const (
		js   = "application/json"
		form = "application/x-www-form-urlencoded"
	)
	projectID := fmt.Sprint(p.ID)
	userPath := fmt.Sprintf("/users/%d", alice.ID)

	writes := []struct{ method, path string }{
		{"POST", "/groups"}, {"PUT", "/groups/bad"}, {"POST", "/groups/bad/share"},
		{"POST", "/projects"}, {"PUT", "/projects/" + projectID}, {"POST", "/projects/" + projectID + "/share"},
		{"POST", "/projects/" + projectID + "/members"}, {"POST", "/groups/bad/members"},
		{"PUT", "/groups/bad/members/" + fmt.Sprint(alice.ID)},
		{"POST", "/users"}, {"PUT", userPath}, {"PUT", userPath + "/custom_attributes/k"},
		{"POST", userPath + "/personal_access_tokens"}, {"POST", "/user/personal_access_tokens"},
		{"POST", "/projects/" + projectID + "/access_tokens"}, {"POST", "/groups/bad/access_tokens"},
		{"POST", userPath + "/impersonation_tokens"},
		{"POST", "/projects/" + projectID + "/protected_branches"},
		{"POST", "/projects/user/" + fmt.Sprint(alice.ID)},
	}
	var cases []badCase
	for _, w := range writes {
		cases = append(cases,
			badCase{desc: "malformed JSON", method: w.method, path: w.path, ct: js, body: `{"name":`, status: 400},
			badCase{desc: "JSON with trailing garbage", method: w.method, path: w.path, ct: js, body: `{"name":"x"} {"name":"y"}`, status: 400},
			badCase{desc: "invalid UTF-8 in JSON", method: w.method, path: w.path, ct: js, body: "{\"name\":\"\xff\xfe\",\"path\":\"utf\",\"value\":\"\xff\"}", status: 400},
			badCase{desc: "JSON nested too deep", method: w.method, path: w.path, ct: js, body: `{"name":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, status: 400},
			badCase{desc: "broken multipart", method: w.method, path: w.path, ct: "multipart/form-data; boundary=xyz", body: "--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nno end", status: 400},
			badCase{desc: "multipart without boundary", method: w.method, path: w.path, ct: "multipart/form-data", body: "name=x", status: 400},
			badCase{desc: "unsupported type", method: w.method, path: w.path, ct: "text/plain", body: "name=x&path=x&value=x", skip: w.method != "POST"},
			badCase{desc: "wrong types in JSON", method: w.method, path: w.path, ct: js,
				body: `{"name":{"a":1},"path":["x"],"value":[],"username":1.5,"email":{},"scopes":{"a":"b"},"access_level":"x","user_id":"x","group_id":"x","group_access":"x","visibility":7,"description":{"x":1},"expires_at":"never","namespace_id":"x","parent_id":[1],"password":{}}`},
			badCase{desc: "NUL bytes", method: w.method, path: w.path, ct: form,
				body: url.Values{"name": {"a\x00b"}, "path": {"nul\x00"}, "username": {"u\x00"}, "email": {"e\x00@example.com"}, "value": {"v\x00"}, "description": {"\x00"}, "scopes[]": {"api\x00"}}.Encode()},
			badCase{desc: "invalid UTF-8 in form", method: w.method, path: w.path, ct: form,
				body: "name=%ff&path=p%fe&username=%ff&email=%ff%40example.com&value=%ff&description=%c3%28&scopes[]=%ff"},
		)
	}

	cases = append(cases, []badCase{
		// Wrong types and unknown enum values name the parameter.
		{desc: "per_page=abc", method: "GET", path: "/projects?per_page=abc", status: 400, want: `{"error":"per_page is invalid"}`},
		{desc: "page=abc", method: "GET", path: "/groups?page=abc", status: 400, want: `{"error":"page is invalid"}`},
		{desc: "per_page=0", method: "GET", path: "/users?per_page=0", status: 400, want: `{"error":"per_page does not have a valid value"}`},
		{desc: "per_page=1e3", method: "GET", path: "/users?per_page=1e3", status: 400, want: `{"error":"per_page is invalid"}`},
		{desc: "per_page overflows int", method: "GET", path: "/users?per_page=99999999999999999999999", status: 400, want: `{"error":"per_page is invalid"}`},
		{desc: "page overflows", method: "GET", path: "/projects?page=9223372036854775807", status: 0},
		{desc: "visibility=secret list", method: "GET", path: "/projects?visibility=secret", status: 400, want: `{"error":"visibility does not have a valid value"}`},
		{desc: "visibility=secret create group", method: "POST", path: "/groups", ct: js, body: `{"name":"v","path":"v","visibility":"secret"}`, status: 400, want: `{"error":"visibility does not have a valid value"}`},
		{desc: "visibility=secret create project", method: "POST", path: "/projects", ct: js, body: `{"name":"v","visibility":"secret"}`, status: 400, want: `{"error":"visibility does not have a valid value"}`},
		{desc: "visibility=secret update project", method: "PUT", path: "/projects/" + projectID, ct: js, body: `{"visibility":"secret","description":"half"}`, status: 400, want: `{"error":"visibility does not have a valid value"}`},
		{desc: "parent_id=x", method: "POST", path: "/groups", ct: form, body: "name=x&path=x&parent_id=x", status: 400, want: `{"error":"parent_id is invalid"}`},
		{desc: "namespace_id=x", method: "POST", path: "/projects", ct: form, body: "name=x&namespace_id=x", status: 400, want: `{"error":"namespace_id is invalid"}`},
		{desc: "access_level=x", method: "POST", path: "/groups/bad/members", ct: js, body: fmt.Sprintf(`{"user_id":%d,"access_level":"x"}`, alice.ID), status: 400},
		{desc: "access_level=99", method: "POST", path: "/projects/" + projectID + "/members", ct: js, body: fmt.Sprintf(`{"user_id":%d,"access_level":99}`, alice.ID), status: 400},
		{desc: "group_access=x", method: "POST", path: "/projects/" + projectID + "/share", ct: js, body: fmt.Sprintf(`{"group_id":%d,"group_access":"x"}`, other.ID), status: 400},
		{desc: "order_by=nonsense", method: "GET", path: "/projects?order_by=nonsense", status: 400, want: `{"error":"order_by does not have a valid value"}`},
		{desc: "sort=sideways", method: "GET", path: "/groups?sort=sideways", status: 400},
		{desc: "min_access_level=7", method: "GET", path: "/groups?min_access_level=7", status: 400},
		{desc: "scopes unknown", method: "POST", path: userPath + "/personal_access_tokens", ct: js, body: `{"name":"x","scopes":["root_everything"]}`, status: 400},
		{desc: "invalid email", method: "POST", path: "/users", ct: js, body: `{"name":"x","username":"newuser","email":"not-an-email","password":"Secret-pass-123"}`, status: 400},
		{desc: "JSON array body on create", method: "POST", path: "/groups", ct: js, body: `[{"name":"x","path":"x"}]`, status: 400},
		// Invalid UTF-8 and NUL bytes in query strings and path segments.
		{desc: "search=%ff", method: "GET", path: "/projects?search=%ff", status: 400, want: `{"error":"search is invalid"}`},
		{desc: "search=%00", method: "GET", path: "/users?search=%00", status: 400, want: `{"error":"search is invalid"}`},
		{desc: "groups search NUL", method: "GET", path: "/groups?search=a%00b", status: 400, want: `{"error":"search is invalid"}`},
		{desc: "username NUL", method: "GET", path: "/users?username=a%00", status: 400, want: `{"error":"username is invalid"}`},
		{desc: "project path NUL", method: "GET", path: "/projects/bad%2F%00", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "project path %ff", method: "GET", path: "/projects/bad%2F%ff", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "project path NUL on write", method: "PUT", path: "/projects/bad%2F%00", ct: js, body: `{"description":"x"}`, status: 400, want: `{"error":"id is invalid"}`},
		{desc: "group path NUL", method: "GET", path: "/groups/%00", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "group path %ff members", method: "GET", path: "/groups/%ff/members", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "user ref NUL", method: "GET", path: "/users/%00/projects", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "user id %ff", method: "GET", path: "/users/%ff", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "sudo NUL", method: "GET", path: "/user?sudo=a%00", status: 400, want: `{"error":"sudo is invalid"}`},
		{desc: "sudo %ff", method: "POST", path: "/groups?sudo=%ff", ct: js, body: `{"name":"sudo","path":"sudo"}`, status: 400, want: `{"error":"sudo is invalid"}`},
		{desc: "attribute key %ff", method: "PUT", path: userPath + "/custom_attributes/%ff", ct: js, body: `{"value":"v"}`, status: 400, want: `{"error":"key is invalid"}`},
		{desc: "token id NUL", method: "GET", path: "/personal_access_tokens/%00", status: 400, want: `{"error":"id is invalid"}`},
		{desc: "hash value NUL", method: "GET", path: "/users?custom_attributes[k]=%00", status: 400, want: `{"error":"custom_attributes is invalid"}`},
		{desc: "hash key NUL", method: "GET", path: "/users?custom_attributes[%00]=v", status: 400, want: `{"error":"custom_attributes is invalid"}`},
		{desc: "array element NUL", method: "GET", path: "/projects?topic=a%00", status: 400, want: `{"error":"topic is invalid"}`},
		{desc: "array element NUL in JSON", method: "PUT", path: "/projects/" + projectID, ct: js, body: `{"topics":["ok","a\u0000"]}`, status: 400, want: `{"error":"topics is invalid"}`},
		{desc: "string NUL in JSON", method: "PUT", path: "/projects/" + projectID, ct: js, body: `{"description":"a\u0000b"}`, status: 400, want: `{"error":"description is invalid"}`},
		{desc: "member id x", method: "GET", path: "/groups/bad/members/x", status: 400, want: `{"error":"user_id is invalid"}`},
		// Overlong strings.
		{desc: "10k group name", method: "POST", path: "/groups", ct: js, body: fmt.Sprintf(`{"name":%q,"path":"long-group"}`, long), status: 400},
		{desc: "10k group path", method: "POST", path: "/groups", ct: js, body: fmt.Sprintf(`{"name":"long","path":%q}`, long), status: 400},
		{desc: "10k project name", method: "POST", path: "/projects", ct: js, body: fmt.Sprintf(`{"name":%q}`, long), status: 400},
		{desc: "10k project name update", method: "PUT", path: "/projects/" + projectID, ct: js, body: fmt.Sprintf(`{"name":%q}`, long), status: 400},
		{desc: "100k project description", method: "PUT", path: "/projects/" + projectID, ct: js, body: fmt.Sprintf(`{"description":%q}`, strings.Repeat("d", 100000)), status: 400},
		{desc: "10k group name update", method: "PUT", path: "/groups/bad", ct: js, body: fmt.Sprintf(`{"name":%q}`, long), status: 400},
		{desc: "10k user name", method: "POST", path: "/users", ct: js, body: fmt.Sprintf(`{"name":%q,"username":"longname","email":"l@example.com","password":"Secret-pass-123"}`, long), status: 400},
		{desc: "10k username", method: "POST", path: "/users", ct: js, body: fmt.Sprintf(`{"name":"x","username":%q,"email":"l@example.com","password":"Secret-pass-123"}`, long), status: 400},
		{desc: "10k user name update", method: "PUT", path: userPath, ct: js, body: fmt.Sprintf(`{"name":%q}`, long), status: 400},
		{desc: "10k token name", method: "POST", path: userPath + "/personal_access_tokens", ct: js, body: fmt.Sprintf(`{"name":%q,"scopes":["api"]}`, long), status: 422},
		{desc: "empty protected branch name", method: "POST", path: "/projects/" + projectID + "/protected_branches", ct: js, body: `{"name":""}`},
		{desc: "10k protected branch name", method: "POST", path: "/projects/" + projectID + "/protected_branches", ct: js, body: fmt.Sprintf(`{"name":%q}`, long), status: 422},
		{desc: "10k path segment", method: "GET", path: "/projects/" + long, status: 404, want: `{"message":"404 Project Not Found"}`},
		// Unknown ids and paths.
		{desc: "update unknown project", method: "PUT", path: "/projects/999999", ct: js, body: `{"description":"x"}`, status: 404, want: `{"message":"404 Project Not Found"}`},
		{desc: "delete unknown group", method: "DELETE", path: "/groups/999999", status: 404, want: `{"message":"404 Group Not Found"}`},
		{desc: "member of unknown project", method: "POST", path: "/projects/999999/members", ct: js, body: fmt.Sprintf(`{"user_id":%d,"access_level":30}`, alice.ID), status: 404, want: `{"message":"404 Project Not Found"}`},
		{desc: "unknown user as member", method: "POST", path: "/groups/bad/members", ct: js, body: `{"user_id":999999,"access_level":30}`, status: 404},
		{desc: "update unknown user", method: "PUT", path: "/users/999999", ct: js, body: `{"name":"x"}`, status: 404, want: `{"message":"404 User Not Found"}`},
		{desc: "token for unknown user", method: "POST", path: "/users/999999/personal_access_tokens", ct: js, body: `{"name":"x","scopes":["api"]}`, status: 404, want: `{"message":"404 User Not Found"}`},
		{desc: "project in unknown namespace", method: "POST", path: "/projects", ct: js, body: `{"name":"x","namespace_id":999999}`, status: 0},
		{desc: "subgroup of unknown parent", method: "POST", path: "/groups", ct: js, body: `{"name":"x","path":"x","parent_id":999999}`, status: 404},
		{desc: "share with unknown group", method: "POST", path: "/projects/" + projectID + "/share", ct: js, body: `{"group_id":999999,"group_access":30}`, status: 404},
		{desc: "revoke unknown token", method: "DELETE", path: "/personal_access_tokens/999999", status: 404},
		// Deeply nested brackets are kept as a literal name, not a deep tree.
		{desc: "deep brackets in query", method: "POST", path: "/groups?name" + strings.Repeat("[a]", 5000) + "=1", ct: js, body: `{}`, status: 400},
		{desc: "deep brackets in form", method: "POST", path: "/groups", ct: form, body: "name" + strings.Repeat("[]", 5000) + "=1&path" + strings.Repeat("[x]", 40) + "=1", status: 400},
		{desc: "many array entries", method: "POST", path: userPath + "/personal_access_tokens", ct: form, body: "name=x&" + strings.Repeat("scopes[]=nope&", 50000), status: 400},
		// Permission refusals on writes are 4xx too (and write nothing).
		{desc: "non-admin creates a user", method: "POST", path: "/users", ct: js, body: `{"name":"x","username":"x1","email":"x1@example.com","password":"Secret-pass-123"}`, status: 403, token: aliceToken},
	}...)

	for _, tc := range cases {
		if tc.skip {
			continue
		}
		t.Run(tc.method+" "+shorten(tc.path)+" "+tc.desc, func(t *testing.T) {
			before := snapshot(t, in)
			token := tc.token
			if token == "" {
				token = servertest.RootToken
			}
			req := request{method: tc.method, path: tc.path, token: token, contentType: tc.ct}
			if tc.ct != "" {
				req.body = stringsReader(tc.body)
			}
			r := send(t, in, req)
			assert.Less(t, r.Status, 500, r.String())
			assert.GreaterOrEqual(t, r.Status, 400, r.String())
			if tc.status != 0 {
				assert.Equal(t, tc.status, r.Status, r.String())
			}
			assert.Equal(t, "application/json", r.Header.Get("Content-Type"), r.String())
			var body map[string]any
			assert.NoError(t, json.Unmarshal(r.Body, &body), "JSON object body: %s", r.String())
			assert.True(t, body["error"] != nil || body["message"] != nil, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
			requireUnchanged(t, before, snapshot(t, in))
		})
	}
}

// shorten keeps subtest names readable.
func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// TestBadInput_hugeBodies checks that a body over 40 MB is refused with 413 in every encoding
// without creating anything.
func TestBadInput_hugeBodies(t *testing.T) {
	in := servertest.Start(t)
	big := strings.Repeat("x", params.MaxBodyBytes+1024)
	for _, tc := range []struct{ desc, ct, body string }{
		{"json", "application/json", `{"name":"huge","path":"huge","description":"` + big + `"}`},
		{"form", "application/x-www-form-urlencoded", "name=huge&path=huge&description=" + big},
		{"multipart", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nhuge\r\n--b\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\n" + big + "\r\n--b--\r\n"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			before := snapshot(t, in)
			r := send(t, in, request{method: "POST", path: "/groups", token: servertest.RootToken, contentType: tc.ct, body: strings.NewReader(tc.body)})
			requireJSONError(t, r, 413, `{"message":"413 Request Entity Too Large"}`)
			requireUnchanged(t, before, snapshot(t, in))
		})
	}
	t.Run("just under the limit is read", func(t *testing.T) {
		// An ignored parameter pads the body to just under the limit.
		body := "name=fits&path=fits&padding=" + strings.Repeat("x", params.MaxBodyBytes-100)
		r := send(t, in, request{method: "POST", path: "/groups", token: servertest.RootToken, contentType: "application/x-www-form-urlencoded", body: strings.NewReader(body)})
		require.Equal(t, 201, r.Status, "%.200s", r.Body)
		assert.Equal(t, "fits", servertest.Object(t, r)["path"])
	})
	t.Run("slow body is bounded by the limit, not buffered whole", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			_, _ = pw.Write([]byte(`{"name":"`))
			chunk := []byte(strings.Repeat("y", 1<<20))
			for i := 0; i < 64; i++ {
				if _, err := pw.Write(chunk); err != nil {
					return
				}
			}
			_ = pw.Close()
		}()
		start := time.Now()
		r := send(t, in, request{method: "POST", path: "/groups", token: servertest.RootToken, contentType: "application/json", body: pr})
		_ = pr.Close()
		assert.Equal(t, 413, r.Status, "%.200s", r.Body)
		assert.Less(t, time.Since(start), 30*time.Second)
	})
}
