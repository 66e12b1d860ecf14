package mergerequestapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlocks: merge request dependencies: add (blocking_merge_request_id, the blocker's global
// id), list both ways, read, remove, with GitLab's errors and permissions.
func TestBlocks(t *testing.T) {
	f := newMRFixture(t, "private")
	addBranch(t, f.RepoFixture, f.P, "second", "second.txt")
	addBranch(t, f.RepoFixture, f.P, "third", "third.txt")
	one := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "One"})
	two := f.create(t, "developer", map[string]any{"source_branch": "second", "target_branch": "main", "title": "Two"})
	three := f.create(t, "developer", map[string]any{"source_branch": "third", "target_branch": "main", "title": "Three"})
	blocks := f.base + "/1/blocks"

	r := f.Do(t, "GET", blocks, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "[]", string(r.Body))
	assert.Equal(t, "0", r.Header.Get("X-Total"))

	// !2 blocks !1.
	r = f.Do(t, "POST", blocks, "developer", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(two["id"].(float64)))}})
	require.Equal(t, 201, r.Status, r.String())
	b := servertest.Object(t, r)
	assert.ElementsMatch(t, []string{"id", "blocking_merge_request", "blocked_merge_request", "project_id"}, servertest.Keys(b))
	assert.Equal(t, two["id"], b["blocking_merge_request"].(map[string]any)["id"])
	assert.Equal(t, "Two", b["blocking_merge_request"].(map[string]any)["title"])
	assert.Equal(t, one["id"], b["blocked_merge_request"].(map[string]any)["id"])
	assert.Equal(t, float64(f.P.ID), b["project_id"])
	bid := strconv.Itoa(int(b["id"].(float64)))

	// Reading: the block, the list, the blockees of !2.
	r = f.Do(t, "GET", blocks+"/"+bid, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, b, servertest.Object(t, r))
	assert.Equal(t, []map[string]any{b}, servertest.List(t, f.Do(t, "GET", blocks, "reporter", nil)))
	assert.Equal(t, []map[string]any{b}, servertest.List(t, f.Do(t, "GET", f.base+"/2/blockees", "reporter", nil)))
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", f.base+"/1/blockees", "reporter", nil)))
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/2/blocks/"+bid, "reporter", nil), 404, "message", "404 Not found")

	// Errors: twice, self, chains, an unknown or unreadable blocker, no parameter, callers who
	// may not update the blocked merge request.
	servertest.RequireError(t, f.Do(t, "POST", blocks, "developer", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(two["id"].(float64)))}}),
		409, "message", "Block already exists")
	servertest.RequireError(t, f.Do(t, "POST", blocks, "developer", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(one["id"].(float64)))}}),
		400, "message", "This block is self-referential")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/3/blocks", "developer", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(one["id"].(float64)))}}),
		400, "message", "Dependency chains are not supported")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/2/blocks", "developer", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(three["id"].(float64)))}}),
		400, "message", "Dependency chains are not supported")
	servertest.RequireError(t, f.Do(t, "POST", blocks, "developer", url.Values{"blocking_merge_request_id": {"99999"}}),
		403, "message", "Lacking permissions to the blocking merge request")
	servertest.RequireError(t, f.Do(t, "POST", blocks, "developer", nil), 400, "error", "blocking_merge_request_id is missing")
	servertest.RequireError(t, f.Do(t, "POST", blocks, "reporter", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(three["id"].(float64)))}}),
		403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "POST", blocks, "guest", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(three["id"].(float64)))}}),
		404, "message", "404 Not found")
	servertest.RequireError(t, f.Do(t, "GET", blocks, "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "GET", blocks, "outsider", nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/9/blocks", "reporter", nil), 404, "message", "404 Merge Request Not Found")

	// A blocker in a project the caller cannot read is left out of the block.
	ns := f.In.NewGroup(t, "elsewhere", "private", nil)
	path, vis := "hidden", "private"
	other, _, err := f.In.Services.Projects.Create(context.Background(), authz.System(f.Root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path, Visibility: &vis}, NamespaceID: &ns.ID, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	addBranch(t, f.RepoFixture, other, "x", "x.txt")
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(other.ID)+"/merge_requests", "root",
		js(t, map[string]any{"source_branch": "x", "target_branch": "main", "title": "Hidden"}))
	require.Equal(t, 201, r.Status, r.String())
	hidden := servertest.Object(t, r)
	r = f.Do(t, "POST", f.base+"/3/blocks", "root", url.Values{"blocking_merge_request_id": {strconv.Itoa(int(hidden["id"].(float64)))}})
	require.Equal(t, 201, r.Status, r.String())
	hb := servertest.Object(t, r)
	assert.Contains(t, hb, "blocking_merge_request")
	r = f.Do(t, "GET", f.base+"/3/blocks/"+strconv.Itoa(int(hb["id"].(float64))), "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.NotContains(t, got, "blocking_merge_request")
	assert.Equal(t, three["id"], got["blocked_merge_request"].(map[string]any)["id"])
	servertest.RequireError(t, f.Do(t, "DELETE", f.base+"/3/blocks/"+strconv.Itoa(int(hb["id"].(float64))), "developer", nil), 403, "message", "403 Forbidden")

	// Removing.
	servertest.RequireError(t, f.Do(t, "DELETE", blocks+"/"+bid, "reporter", nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "DELETE", blocks+"/0", "developer", nil), 404, "message", "404 Not found")
	assert.Equal(t, 204, f.Do(t, "DELETE", blocks+"/"+bid, "developer", nil).Status)
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", blocks, "reporter", nil)))
}

// TestPipelines: a merge request's pipelines: an empty page until CI exists; creating one is
// GitLab's answer for a project without CI configuration.
func TestPipelines(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "One"})
	path := f.base + "/1/pipelines"
	r := f.Do(t, "GET", path, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "[]", string(r.Body))
	assert.Equal(t, "0", r.Header.Get("X-Total"))
	assert.Equal(t, "1", r.Header.Get("X-Page"))
	r = f.Do(t, "POST", path, "developer", nil)
	require.Equal(t, 400, r.Status, r.String())
	assert.JSONEq(t, `{"message":{"base":["Missing CI config file"]}}`, string(r.Body))
	servertest.RequireError(t, f.Do(t, "POST", path, "reporter", nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "POST", path, "", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "GET", path, "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/5/pipelines", "reporter", nil), 404, "message", "404 Merge Request Not Found")
}
