package snippetapi_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// create posts a snippet and returns its JSON.
func create(t *testing.T, in *servertest.Instance, path, token string, body any) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", path, token, body)
	require.Equal(t, 201, r.Status, r.String())
	return servertest.Object(t, r)
}

// idOf is a JSON object's id as a path segment.
func idOf(m map[string]any) string { return strconv.Itoa(int(m["id"].(float64))) }

// TestSnippetShape: a personal and a project snippet in GitLab's exact shape, with their files,
// URLs and repository (cloned content served raw).
func TestSnippetShape(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "writer")
	g := in.NewGroup(t, "grp", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	in.AddProjectMember(t, p, u, 30)

	sn := create(t, in, "/snippets", tok, `{"title":"Hello","description":"first","visibility":"public",
		"files":[{"file_path":"b.rb","content":"puts 2"},{"file_path":"dir/a.txt","content":"alpha\n"}]}`)
	id := idOf(sn)
	assert.Equal(t, []string{"author", "created_at", "description", "file_name", "files", "http_url_to_repo", "id",
		"imported", "imported_from", "project_id", "raw_url", "ssh_url_to_repo", "title", "updated_at", "visibility", "web_url"},
		servertest.Keys(sn))
	host := strings.TrimPrefix(in.URL, "http://")
	hostname := host[:strings.LastIndex(host, ":")]
	assert.Equal(t, "Hello", sn["title"])
	assert.Equal(t, "first", sn["description"])
	assert.Equal(t, "public", sn["visibility"])
	assert.Nil(t, sn["project_id"])
	assert.Equal(t, in.URL+"/-/snippets/"+id, sn["web_url"])
	assert.Equal(t, in.URL+"/-/snippets/"+id+"/raw", sn["raw_url"])
	assert.Equal(t, in.URL+"/snippets/"+id+".git", sn["http_url_to_repo"])
	assert.Equal(t, "git@"+hostname+":snippets/"+id+".git", sn["ssh_url_to_repo"])
	assert.Equal(t, "b.rb", sn["file_name"], "the first file in the repository's order")
	assert.Equal(t, []any{
		map[string]any{"path": "b.rb", "raw_url": in.URL + "/-/snippets/" + id + "/raw/main/b.rb"},
		map[string]any{"path": "dir/a.txt", "raw_url": in.URL + "/-/snippets/" + id + "/raw/main/dir/a.txt"},
	}, sn["files"])
	assert.Equal(t, false, sn["imported"])
	assert.Equal(t, "none", sn["imported_from"])
	author := sn["author"].(map[string]any)
	assert.Equal(t, "writer", author["username"])
	assert.Equal(t, float64(u.ID), author["id"])

	// Read back: the same object.
	r := in.Do(t, "GET", "/snippets/"+id, tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, sn, servertest.Object(t, r))

	// Raw: the first file; a file at a ref.
	r = in.Do(t, "GET", "/snippets/"+id+"/raw", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "puts 2", string(r.Body))
	assert.Equal(t, "text/plain; charset=utf-8", r.Header.Get("Content-Type"))
	assert.Contains(t, r.Header.Get("Content-Disposition"), `inline; filename="b.rb"`)
	r = in.Do(t, "GET", "/snippets/"+id+"/files/main/"+servertest.Esc("dir/a.txt")+"/raw", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "alpha\n", string(r.Body))
	servertest.RequireError(t, in.Do(t, "GET", "/snippets/"+id+"/files/nope/b.rb/raw", tok, nil), 404, "message", "404 Reference Not Found")
	servertest.RequireError(t, in.Do(t, "GET", "/snippets/"+id+"/files/main/c.rb/raw", tok, nil), 404, "message", "404 File Not Found")

	// A project snippet: project_id and the project's URLs; administrators see the storage.
	ps := create(t, in, "/projects/"+strconv.Itoa(p.ID)+"/snippets", tok, url.Values{
		"title": {"Legacy"}, "visibility": {"internal"}, "file_name": {"x.go"}, "content": {"package x"}})
	pid := idOf(ps)
	assert.Equal(t, float64(p.ID), ps["project_id"])
	assert.Equal(t, in.URL+"/grp/app/-/snippets/"+pid, ps["web_url"])
	assert.Equal(t, in.URL+"/grp/app/snippets/"+pid+".git", ps["http_url_to_repo"])
	assert.Equal(t, "git@"+hostname+":grp/app/snippets/"+pid+".git", ps["ssh_url_to_repo"])
	assert.Equal(t, "x.go", ps["file_name"])
	assert.Nil(t, ps["description"])
	assert.NotContains(t, ps, "repository_storage")
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/snippets/"+pid, servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "default", servertest.Object(t, r)["repository_storage"])
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/snippets/"+pid+"/raw", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "package x", string(r.Body))
}
