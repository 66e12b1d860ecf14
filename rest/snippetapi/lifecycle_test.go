package snippetapi_test

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git/storage"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoPath is where the server keeps snippet id's repository.
func repoPath(t *testing.T, in *servertest.Instance, id string) string {
	t.Helper()
	n, err := strconv.Atoi(id)
	require.NoError(t, err)
	p, err := in.Services.Repos.Storage.Path("default", storage.SnippetHashedPath(int64(n)))
	require.NoError(t, err)
	return p
}

// TestSnippetDeletionRemovesRepository: deleting a snippet answers 204 and its repository goes
// through the job queue; deleting a project takes its snippets and their repositories along.
func TestSnippetDeletionRemovesRepository(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "writer")
	sn := create(t, in, "/snippets", tok, url.Values{"title": {"t"}, "file_name": {"f"}, "content": {"c"}})
	path := repoPath(t, in, idOf(sn))
	require.DirExists(t, path)
	r := in.Do(t, "DELETE", "/snippets/"+idOf(sn), tok, nil)
	require.Equal(t, 204, r.Status, r.String())
	assert.Empty(t, r.Body)
	in.WaitJobs(t)
	assert.NoDirExists(t, path)
	assert.Equal(t, 404, in.Do(t, "GET", "/snippets/"+idOf(sn), tok, nil).Status)

	g := in.NewGroup(t, "grp", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	ps := create(t, in, base, servertest.RootToken, url.Values{"title": {"t"}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}})
	ppath := repoPath(t, in, idOf(ps))
	require.DirExists(t, ppath)
	r = in.Do(t, "DELETE", base+"/"+idOf(ps), servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	in.WaitJobs(t)
	assert.NoDirExists(t, ppath)

	ps = create(t, in, base, servertest.RootToken, url.Values{"title": {"t2"}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}})
	ppath = repoPath(t, in, idOf(ps))
	r = in.Do(t, "DELETE", "/projects/"+strconv.Itoa(p.ID), servertest.RootToken, nil)
	require.Equal(t, 202, r.Status, r.String())
	in.WaitJobs(t)
	_, err := os.Stat(ppath)
	assert.True(t, os.IsNotExist(err), "the project's snippet repository is removed")
	n, err := in.DB.Client.Snippet.Query().Count(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestSnippetsOfArchivedProject: an archived project's snippets are read but not changed.
func TestSnippetsOfArchivedProject(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "grp", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	u, tok := in.NewUser(t, "maint")
	in.AddProjectMember(t, p, u, 40)
	base := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	ps := create(t, in, base, tok, url.Values{"title": {"t"}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}})
	require.Equal(t, 201, in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/archive", servertest.RootToken, nil).Status)

	assert.Equal(t, 200, in.Do(t, "GET", base+"/"+idOf(ps), tok, nil).Status)
	assert.Equal(t, 200, in.Do(t, "GET", base, tok, nil).Status)
	for _, who := range []string{tok, servertest.RootToken} {
		servertest.RequireError(t, in.Do(t, "POST", base, who, url.Values{"title": {"t"}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}}),
			403, "message", "403 Forbidden")
		servertest.RequireError(t, in.Do(t, "PUT", base+"/"+idOf(ps), who, url.Values{"title": {"x"}}), 403, "message", "403 Forbidden")
		servertest.RequireError(t, in.Do(t, "DELETE", base+"/"+idOf(ps), who, nil), 403, "message", "403 Forbidden")
	}
}

// TestSnippetUserAgentDetail: administrators read how a snippet was created.
func TestSnippetUserAgentDetail(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "writer")
	g := in.NewGroup(t, "grp", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	sn := create(t, in, "/snippets", tok, url.Values{"title": {"t"}, "visibility": {"public"}, "file_name": {"f"}, "content": {"c"}})
	base := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	ps := create(t, in, base, servertest.RootToken, url.Values{"title": {"t"}, "visibility": {"public"}, "file_name": {"f"}, "content": {"c"}})

	for _, path := range []string{"/snippets/" + idOf(sn) + "/user_agent_detail", base + "/" + idOf(ps) + "/user_agent_detail"} {
		r := in.Do(t, "GET", path, servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, map[string]any{"user_agent": "Go-http-client/1.1", "ip_address": "127.0.0.1", "akismet_submitted": false},
			servertest.Object(t, r))
		servertest.RequireError(t, in.Do(t, "GET", path, tok, nil), 403, "message", "403 Forbidden")
		servertest.RequireError(t, in.Do(t, "GET", path, "", nil), 401, "message", "401 Unauthorized")
	}
	servertest.RequireError(t, in.Do(t, "GET", "/snippets/999/user_agent_detail", servertest.RootToken, nil), 404, "message", "404 Not found")
	servertest.RequireError(t, in.Do(t, "GET", base+"/"+idOf(sn)+"/user_agent_detail", servertest.RootToken, nil), 404, "message", "404 Not found")
}

// TestSnippetListPaging: lists are newest first and paged with GitLab's headers.
func TestSnippetListPaging(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "writer")
	var ids []string
	for i := 0; i < 3; i++ {
		ids = append(ids, idOf(create(t, in, "/snippets", tok, url.Values{"title": {"s" + strconv.Itoa(i)}, "visibility": {"public"}, "file_name": {"f"}, "content": {"c"}})))
	}
	for _, path := range []string{"/snippets", "/snippets/public", "/snippets/all"} {
		r := in.Do(t, "GET", path+"?per_page=2", tok, nil)
		require.Equal(t, 200, r.Status, r.String())
		list := servertest.List(t, r)
		require.Len(t, list, 2)
		assert.Equal(t, []string{ids[2], ids[1]}, []string{idOf(list[0]), idOf(list[1])}, path)
		assert.Equal(t, "3", r.Header.Get("X-Total"), path)
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"), path)
		assert.Equal(t, "2", r.Header.Get("X-Next-Page"), path)
		r = in.Do(t, "GET", path+"?per_page=2&page=2", tok, nil)
		require.Equal(t, 200, r.Status, r.String())
		list = servertest.List(t, r)
		require.Len(t, list, 1)
		assert.Equal(t, ids[0], idOf(list[0]))
	}
}

// TestSnippetsOfDeletedUser: a deleted account's snippets stay, handed over to the ghost user
// as GitLab does.
func TestSnippetsOfDeletedUser(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "leaving")
	sn := create(t, in, "/snippets", tok, url.Values{"title": {"t"}, "visibility": {"public"}, "file_name": {"f"}, "content": {"c"}})
	r := in.Do(t, "DELETE", "/users/"+strconv.Itoa(u.ID), servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	in.WaitJobs(t)
	r = in.Do(t, "GET", "/snippets/"+idOf(sn), servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "ghost", servertest.Object(t, r)["author"].(map[string]any)["username"])
	r = in.Do(t, "GET", "/snippets/"+idOf(sn)+"/raw", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "c", string(r.Body))
}
