package graph_test

import (
	"context"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestCreate: mergeRequestCreate opens a merge request through the merge request
// service and answers it as project.mergeRequest(iid:) shows it; refusals are payload errors.
func TestMergeRequestCreate(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", "public")
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "feature.txt", 1))
	full := p.Edges.Namespace.FullPath + "/app"
	q := `mutation($in: MergeRequestCreateInput!) { mergeRequestCreate(input: $in) {
		clientMutationId errors mergeRequest { iid title state sourceBranch targetBranch description author { username } } } }`
	d := data(t, f.In, servertest.RootToken, q, map[string]any{"in": map[string]any{"projectPath": full, "clientMutationId": "m1",
		"title": "Add feature", "sourceBranch": "feature", "targetBranch": "main", "description": "why"}})
	assert.Equal(t, "m1", path(d, "mergeRequestCreate", "clientMutationId"))
	assert.Equal(t, []any{}, path(d, "mergeRequestCreate", "errors"))
	assert.Equal(t, map[string]any{"iid": "1", "title": "Add feature", "state": "opened", "sourceBranch": "feature",
		"targetBranch": "main", "description": "why", "author": map[string]any{"username": "root"}}, path(d, "mergeRequestCreate", "mergeRequest"))
	// A second one for the same branches is refused in the payload.
	d = data(t, f.In, servertest.RootToken, q, map[string]any{"in": map[string]any{"projectPath": full,
		"title": "Again", "sourceBranch": "feature", "targetBranch": "main"}})
	assert.Nil(t, path(d, "mergeRequestCreate", "mergeRequest"))
	assert.NotEmpty(t, path(d, "mergeRequestCreate", "errors"))
}
