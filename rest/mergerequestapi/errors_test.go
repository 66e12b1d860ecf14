package mergerequestapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreateAndUpdateErrors: GitLab's answers to every refused create and update.
func TestCreateAndUpdateErrors(t *testing.T) {
	f := newMRFixture(t, "private")
	addBranch(t, f.RepoFixture, f.P, "other", "other.txt")
	post := func(body map[string]any) *servertest.Response {
		return f.Do(t, "POST", f.base, "developer", js(t, body))
	}
	r := post(map[string]any{"title": "x"})
	servertest.RequireError(t, r, 400, "error", "source_branch is missing, target_branch is missing")
	r = post(map[string]any{"source_branch": "feature", "target_branch": "main", "title": " "})
	assert.Equal(t, 400, r.Status, r.String())
	assert.JSONEq(t, `{"message":{"title":["can't be blank"]}}`, string(r.Body))
	r = post(map[string]any{"source_branch": "feature", "target_branch": "feature", "title": "x"})
	assert.Equal(t, 422, r.Status, r.String())
	assert.JSONEq(t, `{"message":["You can't use same project/branch for source and target"]}`, string(r.Body))
	r = post(map[string]any{"source_branch": "nope", "target_branch": "gone", "title": "x"})
	assert.Equal(t, 400, r.Status, r.String())
	assert.JSONEq(t, `{"message":{"source_branch":["does not exist"],"target_branch":["does not exist"]}}`, string(r.Body))
	r = post(map[string]any{"source_branch": "feature", "target_branch": "main", "title": "first"})
	require.Equal(t, 201, r.Status, r.String())
	r = post(map[string]any{"source_branch": "feature", "target_branch": "main", "title": "again"})
	assert.Equal(t, 409, r.Status, r.String())
	assert.JSONEq(t, `{"message":["Another open merge request already exists for this source branch: !1"]}`, string(r.Body))
	// Another target is another merge request.
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "other", "title": "second"})

	put := func(iid string, body map[string]any) *servertest.Response {
		return f.Do(t, "PUT", f.base+"/"+iid, "developer", js(t, body))
	}
	r = put("1", map[string]any{})
	assert.Equal(t, 400, r.Status, r.String())
	assert.Contains(t, servertest.Object(t, r)["error"], "at least one parameter must be provided")
	r = put("1", map[string]any{"title": ""})
	assert.JSONEq(t, `{"message":{"title":["can't be blank"]}}`, string(r.Body))
	r = put("1", map[string]any{"target_branch": "feature"})
	assert.Equal(t, 422, r.Status, r.String())
	r = put("1", map[string]any{"target_branch": "gone"})
	assert.JSONEq(t, `{"message":{"target_branch":["does not exist"]}}`, string(r.Body))
	r = put("1", map[string]any{"target_branch": "other"})
	assert.Equal(t, 409, r.Status, r.String())
	assert.JSONEq(t, `{"message":["Another open merge request already exists for this source branch: !2"]}`, string(r.Body))
	r = put("1", map[string]any{"state_event": "merge"})
	assert.Equal(t, 400, r.Status, r.String())

	// Closing records who and when; reopening is refused while !3 has the same branches.
	r = put("1", map[string]any{"state_event": "close"})
	require.Equal(t, 200, r.Status, r.String())
	closed := servertest.Object(t, r)
	assert.Equal(t, "closed", closed["state"])
	assert.Equal(t, "developer", closed["closed_by"].(map[string]any)["username"])
	assert.NotNil(t, closed["closed_at"])
	assert.Equal(t, "not_open", closed["detailed_merge_status"])
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "third"})
	r = put("1", map[string]any{"state_event": "reopen"})
	assert.Equal(t, 409, r.Status, r.String())
	assert.JSONEq(t, `{"message":["Another open merge request already exists for this source branch: !3"]}`, string(r.Body))
	require.Equal(t, 200, put("3", map[string]any{"state_event": "close"}).Status)
	r = put("1", map[string]any{"state_event": "reopen"})
	require.Equal(t, 200, r.Status, r.String())
	reopened := servertest.Object(t, r)
	assert.Equal(t, "opened", reopened["state"])
	assert.Nil(t, reopened["closed_by"])
	assert.Nil(t, reopened["closed_at"])
}
