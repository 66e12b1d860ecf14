package rest_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConventions_jsonAnswers checks that every JSON answer, success or error, carries exactly
// Content-Type: application/json (older python-gitlab compares it with ==) and the security
// headers GitLab puts on every API response.
func TestConventions_jsonAnswers(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	alice, aliceToken := in.NewUser(t, "alice")
	g := in.NewGroup(t, "hdr", "private", nil)
	p := in.NewProject(t, g, "p", "private")
	in.AddProjectMember(t, p, alice, 10)

	for _, tc := range []struct {
		method, path, token, body string
		status                    int
	}{
		{"GET", fmt.Sprintf("/projects/%d", p.ID), root, "", 200},
		{"GET", "/projects", root, "", 200},
		{"GET", "/users", root, "", 200},
		{"GET", "/groups/hdr", root, "", 200},
		{"GET", "/groups/hdr/members", root, "", 200},
		{"GET", "/personal_access_tokens", root, "", 200},
		{"GET", "/user", root, "", 200},
		{"GET", "/version", root, "", 200},
		{"GET", "/metadata", root, "", 200},
		{"POST", "/groups", root, `{"name":"New","path":"new-group"}`, 201},
		{"PUT", "/groups/new-group", root, `{"description":"d"}`, 200},
		{"DELETE", fmt.Sprintf("/projects/%d", p.ID), aliceToken, "", 403},
		{"GET", "/version", "", "", 401},
		{"GET", "/user", "glpat-unknown-token-value", "", 401},
		{"GET", fmt.Sprintf("/projects/%d", p.ID), "", "", 404},
		{"GET", "/projects?per_page=abc", root, "", 400},
		{"POST", "/groups", root, `{"name":`, 400},
		{"GET", "/no/such/route", root, "", 404},
		{"GET", "/no/such/route", "", "", 404},
		{"PATCH", fmt.Sprintf("/projects/%d", p.ID), root, "", 404},
		{"POST", "/users", aliceToken, `{}`, 403},
	} {
		desc := tc.method + " " + tc.path
		var body any
		if tc.body != "" {
			body = tc.body
		}
		r := in.Do(t, tc.method, tc.path, tc.token, body)
		require.Equal(t, tc.status, r.Status, "%s: %s", desc, r.String())
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"), desc)
		assert.Equal(t, "SAMEORIGIN", r.Header.Get("X-Frame-Options"), desc)
		assert.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"), desc)
		require.NotEmpty(t, r.Body, desc)
		assert.True(t, json.Valid(r.Body) && (r.Body[0] == '{' || r.Body[0] == '['), "%s: JSON body: %s", desc, r.Body)
	}
}

// TestConventions_routing checks the answers outside the route table: unknown routes and methods
// under /api/v4, the retired /api/v3, and HEAD on GET routes.
func TestConventions_routing(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	g := in.NewGroup(t, "rt", "public", nil)
	p := in.NewProject(t, g, "p", "public")

	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/v4/nope"},
		{"GET", "/api/v4/projects/1/nope"},
		{"POST", "/api/v4/nope/deeper/still"},
		{"PATCH", "/api/v4/users"},
		{"GET", "/api/v4"},
		{"GET", "/api/v4/"},
		{"GET", "/api/v4/projects/"},
	} {
		requireJSONError(t, in.Do(t, tc.method, tc.path, root, nil), 404, `{"error":"404 Not Found"}`)
	}
	for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
		requireJSONError(t, in.Do(t, method, "/api/v3/projects", root, nil), 410,
			`{"error":"API V3 is no longer supported. Use API V4 instead."}`)
	}

	t.Run("HEAD on GET routes", func(t *testing.T) {
		for _, path := range []string{fmt.Sprintf("/projects/%d", p.ID), "/projects?per_page=1", "/groups/rt", "/users/1"} {
			get := in.Do(t, "GET", path, root, nil)
			require.Equal(t, 200, get.Status, get.String())
			head := in.Do(t, "HEAD", path, root, nil)
			require.Equal(t, 200, head.Status, path)
			assert.Empty(t, head.Body, path)
			assert.Equal(t, "application/json", head.Header.Get("Content-Type"), path)
			for _, h := range []string{"X-Total", "X-Total-Pages", "X-Per-Page", "X-Page", "X-Next-Page", "X-Prev-Page", "Link"} {
				assert.Equal(t, get.Header.Values(h), head.Header.Values(h), "%s %s", path, h)
			}
		}
		missing := in.Do(t, "HEAD", "/projects/999999", root, nil)
		assert.Equal(t, 404, missing.Status)
		assert.Empty(t, missing.Body)
		assert.Equal(t, "application/json", missing.Header.Get("Content-Type"))
	})
}

// TestConventions_emptyJSONBodies checks the bodies real clients send where no parameters are
// expected: python-gitlab an empty body with a JSON content type on GET and DELETE, gitbeaker
// `{}` on DELETE, client-go a JSON content type on a POST without a body.
func TestConventions_emptyJSONBodies(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	alice, _ := in.NewUser(t, "alice")
	attr := fmt.Sprintf("/users/%d/custom_attributes/", alice.ID)
	for _, key := range []string{"a", "b", "c"} {
		r := in.Do(t, "PUT", attr+key, root, `{"value":"v"}`)
		require.Equal(t, 200, r.Status, r.String())
	}
	for _, tc := range []struct {
		desc   string
		req    request
		status int
	}{
		{"GET, JSON type, empty body", request{method: "GET", path: fmt.Sprintf("/users/%d", alice.ID), contentType: "application/json", body: stringsReader("")}, 200},
		{"GET, JSON type, {} body", request{method: "GET", path: "/users?per_page=1", contentType: "application/json", body: stringsReader("{}")}, 200},
		{"GET, JSON type, broken body ignored", request{method: "GET", path: "/users?per_page=1", contentType: "application/json", body: stringsReader("{")}, 200},
		{"DELETE, JSON type, empty body", request{method: "DELETE", path: attr + "a", contentType: "application/json", body: stringsReader("")}, 204},
		{"DELETE, JSON type, {} body", request{method: "DELETE", path: attr + "b", contentType: "application/json", body: stringsReader("{}")}, 204},
		{"DELETE, JSON type, whitespace body", request{method: "DELETE", path: attr + "c", contentType: "application/json", body: stringsReader(" \n")}, 204},
		{"POST, JSON type, no body", request{method: "POST", path: fmt.Sprintf("/users/%d/block", alice.ID), contentType: "application/json"}, 201},
		{"POST, JSON true body (python-gitlab)", request{method: "POST", path: fmt.Sprintf("/users/%d/unblock", alice.ID), contentType: "application/json", body: stringsReader("true")}, 201},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tc.req.token = root
			r := send(t, in, tc.req)
			require.Equal(t, tc.status, r.Status, r.String())
		})
	}
}
