package mergerequestapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueClosedBy: GET /projects/:id/issues/:issue_iid/closed_by lists the open merge
// requests whose closing phrases name the issue, in the merge request list shape, paginated;
// none once the issue is closed; a hidden issue is 404.
func TestIssueClosedBy(t *testing.T) {
	f := newMRFixture(t, "private")
	addBranch(t, f.RepoFixture, f.P, "second", "second.txt")
	addBranch(t, f.RepoFixture, f.P, "third", "third.txt")
	issues := "/projects/" + strconv.Itoa(f.P.ID) + "/issues"
	for _, title := range []string{"one", "two"} {
		r := f.Do(t, "POST", issues, "developer", url.Values{"title": {title}})
		require.Equal(t, 201, r.Status, r.String())
	}
	fixes := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Fix", "description": "Closes #1"})
	f.create(t, "developer", map[string]any{"source_branch": "second", "target_branch": "main", "title": "Mention", "description": "See #1, fixes #2"})
	also := f.create(t, "developer", map[string]any{"source_branch": "third", "target_branch": "main", "title": "Resolves #1"})

	r := f.Do(t, "GET", issues+"/1/closed_by", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	got := servertest.List(t, r)
	require.Len(t, got, 2)
	assert.Equal(t, fixes["id"], got[0]["id"])
	assert.Equal(t, also["id"], got[1]["id"])
	assert.Equal(t, "Fix", got[0]["title"])
	assert.Equal(t, "opened", got[0]["state"])
	assert.Contains(t, got[0], "source_branch")
	r = f.Do(t, "GET", issues+"/1/closed_by?per_page=1&page=2", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []any{also["id"]}, []any{servertest.List(t, r)[0]["id"]})
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))

	r = f.Do(t, "GET", issues+"/2/closed_by", "reporter", nil)
	require.Len(t, servertest.List(t, r), 1)

	// A merge request no longer open, or an issue already closed, has none.
	require.Equal(t, 200, f.Do(t, "PUT", f.base+"/3", "developer", url.Values{"state_event": {"close"}}).Status)
	assert.Len(t, servertest.List(t, f.Do(t, "GET", issues+"/1/closed_by", "reporter", nil)), 1)
	require.Equal(t, 200, f.Do(t, "PUT", issues+"/1", "developer", url.Values{"state_event": {"close"}}).Status)
	assert.Equal(t, "[]", string(f.Do(t, "GET", issues+"/1/closed_by", "reporter", nil).Body))

	servertest.RequireError(t, f.Do(t, "GET", issues+"/9/closed_by", "reporter", nil), 404, "message", "404 Issue Not Found")
	servertest.RequireError(t, f.Do(t, "GET", issues+"/2/closed_by", "outsider", nil), 404, "message", "404 Project Not Found")
}
