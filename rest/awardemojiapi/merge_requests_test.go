package awardemojiapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestAwards: emoji on a merge request and on its notes; thumbsup and thumbsdown are
// its upvotes and downvotes; merge requests hidden from the caller are 404.
func TestMergeRequestAwards(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", "private")
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "f.txt", 1))
	r := f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/merge_requests", "developer",
		url.Values{"source_branch": {"feature"}, "target_branch": {"main"}, "title": {"Feature"}})
	require.Equal(t, 201, r.Status, r.String())
	mr := decode[map[string]any](t, r)
	mrPath := "/projects/" + strconv.Itoa(p.ID) + "/merge_requests/1"
	base := mrPath + "/award_emoji"

	r = f.Do(t, "POST", base, "reporter", url.Values{"name": {"thumbsup"}})
	require.Equal(t, 201, r.Status, r.String())
	aw := decode[map[string]any](t, r)
	assert.Equal(t, "MergeRequest", aw["awardable_type"])
	assert.Equal(t, mr["id"], aw["awardable_id"])
	assert.Equal(t, "thumbsup", aw["name"])
	for _, role := range []string{"developer", "maintainer"} {
		require.Equal(t, 201, f.Do(t, "POST", base, role, url.Values{"name": {"thumbsdown"}}).Status)
	}
	got := decode[map[string]any](t, f.Do(t, "GET", mrPath, "reporter", nil))
	assert.Equal(t, float64(1), got["upvotes"])
	assert.Equal(t, float64(2), got["downvotes"])
	list := decode[[]map[string]any](t, f.Do(t, "GET", base, "reporter", nil))
	require.Len(t, list, 3)
	r = f.Do(t, "GET", base+"/"+strconv.Itoa(int(aw["id"].(float64))), "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, aw, decode[map[string]any](t, r))
	assert.Equal(t, 204, f.Do(t, "DELETE", base+"/"+strconv.Itoa(int(aw["id"].(float64))), "reporter", nil).Status)
	assert.Equal(t, float64(0), decode[map[string]any](t, f.Do(t, "GET", mrPath, "reporter", nil))["upvotes"])

	// Guests of a private project read no merge requests; outsiders see no project.
	servertest.RequireError(t, f.Do(t, "GET", base, "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "POST", base, "guest", url.Values{"name": {"8ball"}}), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "GET", base, "outsider", nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, f.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/merge_requests/2/award_emoji", "reporter", nil), 404, "message", "404 Merge Request Not Found")

	// A note on the merge request.
	r = f.Do(t, "POST", mrPath+"/notes", "developer", url.Values{"body": {"LGTM"}})
	require.Equal(t, 201, r.Status, r.String())
	noteID := strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64)))
	r = f.Do(t, "POST", mrPath+"/notes/"+noteID+"/award_emoji", "reporter", url.Values{"name": {"tada"}})
	require.Equal(t, 201, r.Status, r.String())
	naw := decode[map[string]any](t, r)
	assert.Equal(t, "Note", naw["awardable_type"])
	assert.Equal(t, "tada", naw["name"])
	assert.Len(t, decode[[]map[string]any](t, f.Do(t, "GET", mrPath+"/notes/"+noteID+"/award_emoji", "developer", nil)), 1)
	servertest.RequireError(t, f.Do(t, "GET", mrPath+"/notes/999/award_emoji", "developer", nil), 404, "message", "404 Not found")
	servertest.RequireError(t, f.Do(t, "GET", mrPath+"/notes/"+noteID+"/award_emoji", "guest", nil), 404, "message", "404 Merge Request Not Found")
}
