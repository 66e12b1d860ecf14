package timetrackingapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/note"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestTimeTracking: the same operations on a merge request: admin_merge_request
// (Developer+) writes, read_merge_request reads, the merge request shows its time stats and
// its system notes.
func TestMergeRequestTimeTracking(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "app", "public")
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "feature.txt", 1))
	mrs := "/projects/" + strconv.Itoa(p.ID) + "/merge_requests"
	r := f.Do(t, "POST", mrs, "developer", url.Values{"source_branch": {"feature"}, "target_branch": {"main"}, "title": {"Feature"}})
	require.Equal(t, 201, r.Status, r.String())
	base := mrs + "/1"

	r = f.Do(t, "POST", base+"/time_estimate", "developer", url.Values{"duration": {"1w 2d"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(201600, 0, "1w 2d", ""), servertest.Object(t, r))
	r = f.Do(t, "POST", base+"/add_spent_time", "maintainer", url.Values{"duration": {"2h"}, "summary": {"review"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, stats(201600, 7200, "1w 2d", "2h"), servertest.Object(t, r))

	// Reporters read but may not write (admin_merge_request is Developer+); anonymous callers
	// read a public project's merge request and are 401 on writes.
	for _, path := range []string{"/time_estimate", "/reset_time_estimate", "/add_spent_time", "/reset_spent_time"} {
		servertest.RequireError(t, f.Do(t, "POST", base+path, "reporter", url.Values{"duration": {"1h"}}), 403, "message", "403 Forbidden")
		servertest.RequireError(t, f.Do(t, "POST", base+path, "", url.Values{"duration": {"1h"}}), 401, "message", "401 Unauthorized")
	}
	r = f.Do(t, "GET", base+"/time_stats", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(201600, 7200, "1w 2d", "2h"), servertest.Object(t, r))
	servertest.RequireError(t, f.Do(t, "GET", mrs+"/9/time_stats", "developer", nil), 404, "message", "404 Merge Request Not Found")

	r = f.Do(t, "GET", base, "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(201600, 7200, "1w 2d", "2h"), servertest.Object(t, r)["time_stats"])

	r = f.Do(t, "POST", base+"/reset_spent_time", "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(201600, 0, "1w 2d", ""), servertest.Object(t, r))
	r = f.Do(t, "POST", base+"/reset_time_estimate", "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, stats(0, 0, "", ""), servertest.Object(t, r))

	// The system notes, read from the table (the merge request notes API is another part's).
	bodies, err := f.In.DB.Client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.System(true)).
		Order(note.ByID()).Select(note.FieldBody).Strings(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{"changed time estimate to 1w 2d", "added 2h of time spent", "removed time spent",
		"removed time estimate"}, bodies)
}
