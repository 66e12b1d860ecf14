package registryapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func names(list []map[string]any) string {
	var out []string
	for _, m := range list {
		out = append(out, m["name"].(string))
	}
	return strings.Join(out, ",")
}

// Tag lists page by offset (X-Total ...) and by keyset (pagination=keyset, Link rel="next").
func TestListTags_pagination(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	p := in.NewProject(t, in.PersonalNamespace(t, alice), "app", "public")
	img := image(t, time.Now())
	for _, tag := range []string{"a", "b", "c", "d", "e"} {
		push(t, in, img, "alice/app:"+tag, creds("alice", tok)...)
	}
	id := waitRepository(t, in, "alice/app")
	base := fmt.Sprintf("/projects/%d/registry/repositories/%d/tags", p.ID, id)

	r := in.Do(t, "GET", base+"?per_page=2&page=2", "", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "c,d", names(servertest.Decode[[]map[string]any](t, r)))
	assert.Equal(t, "5", r.Header.Get("X-Total"))
	assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "3", r.Header.Get("X-Next-Page"))

	var seen []string
	next := in.URL + "/api/v4" + base + "?pagination=keyset&per_page=2"
	for next != "" {
		r = in.Do(t, "GET", next, "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		seen = append(seen, names(servertest.Decode[[]map[string]any](t, r)))
		next = ""
		if l := r.Header.Get("Link"); l != "" {
			next = strings.TrimSuffix(strings.TrimPrefix(l, "<"), `>; rel="next"`)
			assert.Contains(t, next, "last=")
		}
	}
	assert.Equal(t, []string{"a,b", "c,d", "e"}, seen)
	r = in.Do(t, "GET", base+"?pagination=keyset&per_page=3&sort=desc", "", nil)
	assert.Equal(t, "e,d,c", names(servertest.Decode[[]map[string]any](t, r)))
}

// Who reads repositories: anyone on a public project with an enabled registry; members with
// Reporter and above when it is private; no one when it is disabled (403 for those who see the
// project, 404 for those who do not). The group listing shows the repositories of the group's
// projects (subgroups included) that the caller may read, without tags.
func TestReadPermissions(t *testing.T) {
	in := servertest.Start(t)
	_, rootTok := in.NewUser(t, "boss", servertest.Admin)
	g := in.NewGroup(t, "acme", "public", nil)
	sub := in.NewGroup(t, "tools", "public", g)
	guest, guestTok := in.NewUser(t, "guest")
	_, strangerTok := in.NewUser(t, "stranger")
	open := in.NewProject(t, g, "open", "public")
	closed := in.NewProject(t, sub, "closed", "public")
	hidden := in.NewProject(t, g, "hidden", "private")
	require.NoError(t, in.DB.Client.Project.UpdateOne(closed).SetContainerRegistryAccessLevel("private").Exec(t.Context()))
	in.AddProjectMember(t, closed, guest, 10)
	img := image(t, time.Now())
	for _, path := range []string{"acme/open", "acme/tools/closed", "acme/hidden"} {
		push(t, in, img, path+":v1", creds("boss", rootTok)...)
	}
	openID := waitRepository(t, in, "acme/open")
	closedID := waitRepository(t, in, "acme/tools/closed")
	hiddenID := waitRepository(t, in, "acme/hidden")

	for _, tc := range []struct {
		token  string
		id     int
		status int
		body   string
	}{
		{"", openID, 200, ""},
		{strangerTok, openID, 200, ""},
		{guestTok, closedID, 403, `{"message":"403 Forbidden"}`},
		{"", closedID, 401, `{"message":"401 Unauthorized"}`},
		{strangerTok, hiddenID, 404, `{"message":"404 Not found"}`},
		{rootTok, hiddenID, 200, ""},
		{rootTok, 987654, 404, `{"message":"404 Not found"}`},
	} {
		r := in.Do(t, "GET", fmt.Sprintf("/registry/repositories/%d", tc.id), tc.token, nil)
		assert.Equal(t, tc.status, r.Status, "%+v: %s", tc, r)
		if tc.body != "" {
			assert.JSONEq(t, tc.body, string(r.Body))
		}
	}
	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories", closed.ID), guestTok, nil)
	assert.Equal(t, http.StatusForbidden, r.Status)
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories", hidden.ID), strangerTok, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(r.Body))
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/registry/repositories", open.ID), "", nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.NotContains(t, servertest.Decode[[]map[string]any](t, r)[0], "delete_api_path", "only those who may delete see it")

	r = in.Do(t, "GET", "/groups/acme/registry/repositories?tags=true&tags_count=true", strangerTok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	list := servertest.Decode[[]map[string]any](t, r)
	require.Len(t, list, 1)
	assert.Equal(t, "acme/open", list[0]["path"])
	assert.NotContains(t, list[0], "tags")
	assert.NotContains(t, list[0], "tags_count")
	r = in.Do(t, "GET", "/groups/acme/registry/repositories", rootTok, nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, "3", r.Header.Get("X-Total"))
	r = in.Do(t, "GET", fmt.Sprintf("/groups/%d/registry/repositories", sub.ID), rootTok, nil)
	assert.Equal(t, []any{"acme/tools/closed"}, []any{servertest.Decode[[]map[string]any](t, r)[0]["path"]})
}
