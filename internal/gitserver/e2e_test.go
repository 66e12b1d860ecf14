package gitserver_test

import (
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestGit_EndToEnd is the round trip a developer makes: clone over HTTP with the real git
// client, push a branch, try to force-push the protected default branch (refused), and find the
// pushed commit through the REST API with client-go.
func TestGit_EndToEnd(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	p := f.project(t, "e2e", "private", true)
	g := newGitClient(t, in)

	dir, out, err := g.clone("g/e2e", "developer", f.tokens["developer"])
	require.NoError(t, err, out)
	g.must(dir, "checkout", "-q", "-b", "topic")
	sha := g.commit(dir, "topic.txt", "hello\n", "Add topic file")
	g.must(dir, "push", "-q", "origin", "topic")

	api := in.Client(t, f.tokens["developer"])
	c, resp, err := api.Commits.GetCommit(p.ID, sha, nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, sha, c.ID)
	assert.Equal(t, "Add topic file", c.Title)
	list, _, err := api.Commits.ListCommits(p.ID, &gitlab.ListCommitsOptions{RefName: gitlab.Ptr("topic")})
	require.NoError(t, err)
	require.NotEmpty(t, list)
	assert.Equal(t, sha, list[0].ID, "the branch's history starts with the pushed commit")

	// main is protected at creation (no force push); rewriting it is refused even for its owner.
	odir, out, err := g.clone("g/e2e", "owner", f.tokens["owner"])
	require.NoError(t, err, out)
	before := branchTip(t, in, p, "main")
	g.must(odir, "commit", "-q", "--amend", "-m", "Rewritten history")
	out, err = g.run(odir, "push", "--force", "origin", "main")
	require.Error(t, err)
	assert.Contains(t, out, "You are not allowed to force push code to a protected branch on this project.")
	assert.Equal(t, before, branchTip(t, in, p, "main"), "a refused force push leaves the branch as it was")

	// Anonymous clone of a private project asks for credentials rather than revealing it.
	_, out, err = g.clone("g/e2e", "", "")
	require.Error(t, err)
	assert.NotContains(t, out, "Add topic file")
}
