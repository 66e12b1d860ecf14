package mergerequestapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestFromFork: a user who is no member of a public project forks it and opens a
// merge request from the fork's branch with target_project_id: it belongs to the target
// project (its iid, its list), not to the fork's list; allow_collaboration shows. The target
// must be in the fork network (422, GitLab's validate_fork), visible (404) and open to the
// caller's merge requests; the source needs Developer rights in the fork.
func TestMergeRequestFromFork(t *testing.T) {
	f := newMRFixture(t, "public")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Upstream"})
	forkerToken := f.Tokens["outsider"]
	r := f.In.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/fork", forkerToken, nil)
	require.Equal(t, 201, r.Status, r.String())
	f.In.WaitJobs(t)
	fork := servertest.Object(t, r)
	fid := strconv.Itoa(int(fork["id"].(float64)))
	r = f.In.Do(t, "POST", "/projects/"+fid+"/repository/commits", forkerToken, js(t, map[string]any{
		"branch": "from-fork", "start_branch": "main", "commit_message": "Fork work",
		"actions": []map[string]any{{"action": "create", "file_path": "fork.txt", "content": "fork\n"}},
	}))
	require.Equal(t, 201, r.Status, r.String())
	open := func(token string, body map[string]any) *servertest.Response {
		return f.In.Do(t, "POST", "/projects/"+fid+"/merge_requests", token, js(t, body))
	}

	// Refusals first: another project outside the network, an invisible one, a caller who
	// may not push to the fork.
	other := f.ProjectWithReadme(t, "other", "public")
	r = open(forkerToken, map[string]any{"source_branch": "from-fork", "target_branch": "main", "title": "x", "target_project_id": other.ID})
	assert.Equal(t, 422, r.Status, r.String())
	assert.JSONEq(t, `{"message":["Source project is not a fork of the target project"]}`, string(r.Body))
	hidden := f.ProjectWithReadme(t, "hidden", "private")
	r = open(forkerToken, map[string]any{"source_branch": "from-fork", "target_branch": "main", "title": "x", "target_project_id": hidden.ID})
	servertest.RequireError(t, r, 404, "message", "404 Project Not Found")
	r = open(f.Tokens["developer"], map[string]any{"source_branch": "from-fork", "target_branch": "main", "title": "x", "target_project_id": f.P.ID})
	servertest.RequireError(t, r, 403, "message", "403 Forbidden")
	r = open(forkerToken, map[string]any{"source_branch": "nope", "target_branch": "main", "title": "x", "target_project_id": f.P.ID})
	assert.Equal(t, 400, r.Status, r.String())
	assert.JSONEq(t, `{"message":{"source_branch":["does not exist"]}}`, string(r.Body))

	r = open(forkerToken, map[string]any{"source_branch": "from-fork", "target_branch": "main", "title": "From the fork",
		"target_project_id": f.P.ID, "allow_collaboration": true})
	require.Equal(t, 201, r.Status, r.String())
	mr := servertest.Object(t, r)
	assert.Equal(t, float64(2), mr["iid"], "the target project's next iid")
	assert.Equal(t, float64(f.P.ID), mr["project_id"])
	assert.Equal(t, float64(f.P.ID), mr["target_project_id"])
	assert.Equal(t, fork["id"], mr["source_project_id"])
	assert.Equal(t, "outsider", mr["author"].(map[string]any)["username"])
	assert.Equal(t, true, mr["allow_collaboration"])
	assert.Equal(t, true, mr["allow_maintainer_to_push"])
	assert.Equal(t, f.In.URL+"/g/app/-/merge_requests/2", mr["web_url"])

	// The target's list has it; the fork's has none.
	assert.Equal(t, []string{"From the fork", "Upstream"}, listTitles(t, f.Do(t, "GET", f.base, "", nil)))
	r = f.In.Do(t, "GET", "/projects/"+fid+"/merge_requests", forkerToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "[]", string(r.Body))
	assert.Equal(t, []string{"From the fork"}, listTitles(t, f.Do(t, "GET", f.base+"?source_project_id="+fid, "", nil)))
	r = f.Do(t, "GET", f.base+"/2", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, fork["id"], servertest.Object(t, r)["source_project_id"])
	// A second one from the same branch into the same target is refused.
	r = open(forkerToken, map[string]any{"source_branch": "from-fork", "target_branch": "main", "title": "Again", "target_project_id": f.P.ID})
	assert.Equal(t, 409, r.Status, r.String())
	assert.JSONEq(t, `{"message":["Another open merge request already exists for this source branch: !2"]}`, string(r.Body))

	// The forker, who authored it, may edit it in the target project though not a member there.
	r = f.In.Do(t, "PUT", f.base+"/2", forkerToken, js(t, map[string]any{"title": "From the fork, edited"}))
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "From the fork, edited", servertest.Object(t, r)["title"])
}
