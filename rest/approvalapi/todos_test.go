package approvalapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApprovalTodos: the approvers that a merge request's rules name get "approval_required"
// to-dos by its author when it is created, and when an update (a new target branch) brings
// rules that name new ones; approving marks the approver's to-dos done, not the others'. A merge
// request created through the API gets no copies of the project's rules: it lists none of its
// own and follows the project's (approval_rules_overwritten false).
func TestApprovalTodos(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	pid := strconv.Itoa(f.P.ID)
	repo := f.Repo(t, f.P)
	main, err := repo.Branch(ctx, "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature2", servertest.Commit(t, repo, main.Commit.ID, "feature2.txt", 2))
	servertest.SetBranch(t, repo, "other", main.Commit.ID)

	r := f.Do(t, "GET", "/projects/"+pid+"/protected_branches/main", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	mainRule := servertest.Object(t, r)["id"]
	r = f.Do(t, "POST", "/projects/"+pid+"/approval_rules", "maintainer", js(t, map[string]any{
		"name": "everywhere", "approvals_required": 1, "user_ids": []int{f.Users["maintainer"].ID}}))
	require.Equal(t, 201, r.Status, r.String())
	everywhere := servertest.Object(t, r)
	r = f.Do(t, "POST", "/projects/"+pid+"/approval_rules", "maintainer", js(t, map[string]any{
		"name": "main only", "approvals_required": 1, "user_ids": []int{f.Users["reporter"].ID},
		"protected_branch_ids": []any{mainRule}}))
	require.Equal(t, 201, r.Status, r.String())
	mainOnly := servertest.Object(t, r)

	r = f.Do(t, "POST", "/projects/"+pid+"/merge_requests", "developer", url.Values{"source_branch": {"feature2"},
		"target_branch": {"other"}, "title": {"Second"}})
	require.Equal(t, 201, r.Status, r.String())
	mr := servertest.Object(t, r)
	mrPath := "/projects/" + pid + "/merge_requests/2"

	todos := func(role, state string) []map[string]any {
		t.Helper()
		r := f.Do(t, "GET", "/todos?type=MergeRequest&state="+state, role, nil)
		require.Equal(t, 200, r.Status, r.String())
		return servertest.List(t, r)
	}
	// Created: the approver of the rule for every branch; not the reporter (its rule is for
	// main only), nor the author.
	got := todos("maintainer", "pending")
	require.Len(t, got, 1)
	td := got[0]
	for k, want := range map[string]any{"action_name": "approval_required", "target_type": "MergeRequest",
		"state": "pending", "body": "Second", "target_url": mr["web_url"]} {
		assert.Equal(t, want, td[k], k)
	}
	assert.Equal(t, "developer", td["author"].(map[string]any)["username"])
	target := td["target"].(map[string]any)
	for _, k := range []string{"id", "iid", "title", "source_branch", "target_branch", "state", "web_url"} {
		assert.Equal(t, mr[k], target[k], k)
	}
	assert.Empty(t, todos("reporter", "pending"))
	assert.Empty(t, todos("developer", "pending"))

	// Retargeted to main: the reporter becomes an approver and gets a to-do; the maintainer
	// keeps the one it has.
	r = f.Do(t, "PUT", mrPath, "developer", url.Values{"target_branch": {"main"}})
	require.Equal(t, 200, r.Status, r.String())
	got = todos("reporter", "pending")
	require.Len(t, got, 1)
	assert.Equal(t, "approval_required", got[0]["action_name"])
	assert.Equal(t, "developer", got[0]["author"].(map[string]any)["username"])
	assert.Len(t, todos("maintainer", "pending"), 1)

	// The maintainer approves: its to-do is done, the reporter's stays.
	r = f.Do(t, "POST", mrPath+"/approve", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Empty(t, todos("maintainer", "pending"))
	done := todos("maintainer", "done")
	require.Len(t, done, 1)
	assert.Equal(t, td["id"], done[0]["id"])
	assert.Len(t, todos("reporter", "pending"), 1)

	// No copies of the project's rules: none of its own, the project's apply.
	r = f.Do(t, "GET", mrPath+"/approval_rules", "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []any{}, servertest.Decode[[]any](t, r))
	r = f.Do(t, "GET", mrPath+"/approval_state", "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	st := servertest.Object(t, r)
	assert.Equal(t, false, st["approval_rules_overwritten"])
	var ids []any
	for _, rule := range st["rules"].([]any) {
		ids = append(ids, rule.(map[string]any)["id"])
	}
	assert.ElementsMatch(t, []any{everywhere["id"], mainOnly["id"]}, ids)
}
