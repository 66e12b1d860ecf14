package todoapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestTodos: POST .../merge_requests/:iid/todo (201 with the to-do and the merge
// request as its target, 304 while one is pending), mentions in merge request comments, and the
// to-do list hiding merge requests the caller may no longer read.
func TestMergeRequestTodos(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", "private")
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "f.txt", 1))
	r := f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/merge_requests", "developer",
		url.Values{"source_branch": {"feature"}, "target_branch": {"main"}, "title": {"Feature"}})
	require.Equal(t, 201, r.Status, r.String())
	mrPath := "/projects/" + strconv.Itoa(p.ID) + "/merge_requests/1"
	mr := servertest.Object(t, f.Do(t, "GET", mrPath, "reporter", nil))

	r = f.Do(t, "POST", mrPath+"/todo", "reporter", nil)
	require.Equal(t, 201, r.Status, r.String())
	td := servertest.Object(t, r)
	for k, want := range map[string]any{
		"action_name": "marked", "target_type": "MergeRequest", "state": "pending", "body": "Feature",
		"target_url": mr["web_url"],
	} {
		assert.Equal(t, want, td[k], k)
	}
	target := td["target"].(map[string]any)
	for _, k := range []string{"id", "iid", "title", "source_branch", "target_branch", "state", "web_url", "references", "diff_refs"} {
		assert.Equal(t, mr[k], target[k], k)
	}
	assert.Equal(t, "reporter", td["author"].(map[string]any)["username"])
	assert.Equal(t, float64(p.ID), td["project"].(map[string]any)["id"])

	r = f.Do(t, "POST", mrPath+"/todo", "reporter", nil)
	assert.Equal(t, 304, r.Status)
	assert.Empty(t, r.Body)
	servertest.RequireError(t, f.Do(t, "POST", mrPath+"/todo", "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "POST", mrPath+"/todo", "outsider", nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, f.Do(t, "POST", mrPath+"/todo", "", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/merge_requests/7/todo", "reporter", nil), 404, "message", "404 Merge Request Not Found")

	// Mentions in a comment on the merge request: the maintainer gets a to-do pointing at the
	// note; the guest, who may not read merge requests here, none; the commenter's own
	// pending to-dos on it are done.
	r = f.Do(t, "POST", mrPath+"/notes", "reporter", url.Values{"body": {"@maintainer @guest please look"}})
	require.Equal(t, 201, r.Status, r.String())
	note := servertest.Object(t, r)
	r = f.Do(t, "GET", "/todos?type=MergeRequest", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 1)
	assert.Equal(t, "directly_addressed", list[0]["action_name"])
	assert.Equal(t, "@maintainer @guest please look", list[0]["body"])
	assert.Equal(t, mr["web_url"].(string)+"#note_"+strconv.Itoa(int(note["id"].(float64))), list[0]["target_url"])
	assert.Equal(t, float64(1), list[0]["target"].(map[string]any)["iid"])
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/todos", "guest", nil)))
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/todos", "reporter", nil)), "commenting marks the commenter's to-dos done")
	assert.Len(t, servertest.List(t, f.Do(t, "GET", "/todos?state=done", "reporter", nil)), 1)

	// "@all" in a comment: the project's members who may read merge requests, the developer
	// among them; the guest (no merge requests in a private project) and the outsider none.
	r = f.Do(t, "POST", mrPath+"/notes", "maintainer", url.Values{"body": {"ship it, @all?"}})
	require.Equal(t, 201, r.Status, r.String())
	list = servertest.List(t, f.Do(t, "GET", "/todos?type=MergeRequest", "developer", nil))
	require.Len(t, list, 1)
	assert.Equal(t, "mentioned", list[0]["action_name"])
	assert.Equal(t, "ship it, @all?", list[0]["body"])
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/todos", "guest", nil)))
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/todos", "outsider", nil)))

	// Once the project turns merge requests off, their to-dos are hidden.
	r = f.Do(t, "PUT", "/projects/"+strconv.Itoa(p.ID), "root", url.Values{"merge_requests_access_level": {"disabled"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/todos", "maintainer", nil)))
}
