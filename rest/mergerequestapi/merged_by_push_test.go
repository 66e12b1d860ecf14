package mergerequestapi_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// mergedByPushWorld is a project with an issue, two open merge requests into main (feature
// closes the issue; other is never merged) and a maintainer who pushes to main.
type mergedByPushWorld struct {
	*mergeWorld
	pid                    int
	path                   string
	pusher                 string // the maintainer's token
	featureIID, otherIID   int
	featureHead, otherHead string
	issueIID               int
}

func newMergedByPushWorld(t *testing.T, name string) *mergedByPushWorld {
	t.Helper()
	w := &mergedByPushWorld{mergeWorld: newMergeWorld(t)}
	w.pid, w.path = w.project(t, name, nil)
	p, err := w.in.DB.Client.Project.Get(context.Background(), w.pid)
	require.NoError(t, err)
	u, token := w.in.NewUser(t, "pusher")
	w.in.AddProjectMember(t, p, u, 40)
	w.pusher = token
	r, is := w.do(t, "POST", fmt.Sprintf("/projects/%d/issues", w.pid), root, map[string]any{"title": "Broken"})
	require.Equal(t, 201, r.Status, r.String())
	w.issueIID = int(is["iid"].(float64))
	w.commit(t, w.pid, root, "feature", "main", "Feature one", map[string]string{"one.txt": "1\n"})
	w.featureHead = w.commit(t, w.pid, root, "feature", "", "Feature two", map[string]string{"two.txt": "2\n"})
	w.otherHead = w.commit(t, w.pid, root, "other", "main", "Other", map[string]string{"other.txt": "o\n"})
	w.featureIID = w.openMR(t, w.pid, root, "feature", "Feature", map[string]any{"description": fmt.Sprintf("Closes #%d", w.issueIID)})
	w.otherIID = w.openMR(t, w.pid, root, "other", "Other", nil)
	// The pusher has a pending to-do on the feature merge request, which the merge marks done.
	r, _ = w.do(t, "POST", fmt.Sprintf("/projects/%d/merge_requests/%d/todo", w.pid, w.featureIID), w.pusher, nil)
	require.Equal(t, 201, r.Status, r.String())
	w.in.WaitJobs(t)
	return w
}

// mr reads a merge request as root.
func (w *mergedByPushWorld) mr(t *testing.T, iid int) map[string]any {
	t.Helper()
	r, m := w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d", w.pid, iid), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	return m
}

// requireMergedByPush checks the feature merge request merged by the pusher through commit,
// with its state event, activity event, to-do and closed issue, and the other one still open.
func (w *mergedByPushWorld) requireMergedByPush(t *testing.T, commit string) {
	t.Helper()
	mr := w.mr(t, w.featureIID)
	require.Equal(t, "merged", mr["state"])
	require.NotNil(t, mr["merged_at"])
	require.Equal(t, "pusher", mr["merged_by"].(map[string]any)["username"])
	require.Equal(t, "pusher", mr["merge_user"].(map[string]any)["username"])
	require.Equal(t, commit, mr["merge_commit_sha"])
	require.Nil(t, mr["squash_commit_sha"])
	require.Nil(t, mr["closed_by"])
	require.Nil(t, mr["closed_at"])
	require.Equal(t, "not_open", mr["detailed_merge_status"])

	// The state event names the commit (GitLab shows it as "merged manually").
	r := w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d/resource_state_events", w.pid, w.featureIID), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	evs := servertest.List(t, r)
	require.Len(t, evs, 1)
	require.Equal(t, "merged", evs[0]["state"])
	require.Equal(t, commit, evs[0]["source_commit"])
	require.Nil(t, evs[0]["source_merge_request_id"])
	require.Equal(t, "MergeRequest", evs[0]["resource_type"])
	require.Equal(t, "pusher", evs[0]["user"].(map[string]any)["username"])

	// The activity feed has the merge ("accepted") by the pusher.
	r = w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/events?target_type=merge_request&action=merged", w.pid), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	feed := servertest.List(t, r)
	require.Len(t, feed, 1)
	require.Equal(t, "accepted", feed[0]["action_name"])
	require.Equal(t, "pusher", feed[0]["author_username"])
	require.Equal(t, float64(w.featureIID), feed[0]["target_iid"])

	// The pusher's to-do on it is done.
	r = w.in.Do(t, "GET", "/todos?type=MergeRequest", w.pusher, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Empty(t, servertest.List(t, r))
	r = w.in.Do(t, "GET", "/todos?type=MergeRequest&state=done", w.pusher, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Len(t, servertest.List(t, r), 1)

	// The issue it closes is closed by the pusher, through the merge request.
	r, is := w.do(t, "GET", fmt.Sprintf("/projects/%d/issues/%d", w.pid, w.issueIID), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "closed", is["state"])
	require.Equal(t, "pusher", is["closed_by"].(map[string]any)["username"])

	// The merge request whose head is not in main stays open.
	other := w.mr(t, w.otherIID)
	require.Equal(t, "opened", other["state"])
	require.Nil(t, other["merged_at"])
	require.Nil(t, other["merged_by"])
	require.Nil(t, other["merge_commit_sha"])
}

// pusherClone clones the project over smart HTTP as the pusher.
func (w *mergedByPushWorld) pusherClone(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wc")
	url := strings.Replace(w.in.URL, "http://", "http://pusher:"+w.pusher+"@", 1) + "/" + w.path + ".git"
	w.git(t, w.home, "clone", "-q", url, dir)
	return dir
}

// TestMergedByPush_gitMergeCommit: a maintainer merges the source branch into main by hand
// with a merge commit and pushes main over HTTP; the merge request is merged by the pusher
// through that merge commit (GitLab's post_merge_manually_merged).
func TestMergedByPush_gitMergeCommit(t *testing.T) {
	w := newMergedByPushWorld(t, "manual-git")
	w.commit(t, w.pid, root, "main", "", "Touch main", map[string]string{"main.txt": "m\n"})
	w.in.WaitJobs(t)
	require.Equal(t, "opened", w.mr(t, w.featureIID)["state"])

	dir := w.pusherClone(t)
	w.git(t, dir, "-c", "user.name=Pusher", "-c", "user.email=pusher@example.com",
		"merge", "--no-ff", "-m", "Merge feature by hand", "origin/feature")
	mergeSHA := w.git(t, dir, "rev-parse", "HEAD")
	require.Equal(t, w.featureHead, w.git(t, dir, "rev-parse", "HEAD^2"))
	w.git(t, dir, "push", "-q", "origin", "main")
	w.in.WaitJobs(t)

	w.requireMergedByPush(t, mergeSHA)
	// The merged merge request keeps its version: no empty one was recorded by the push.
	r := w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d/versions", w.pid, w.featureIID), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	vs := servertest.List(t, r)
	require.Len(t, vs, 1)
	require.Equal(t, w.featureHead, vs[0]["head_commit_sha"])

	// Another push to main later changes nothing.
	w.commit(t, w.pid, root, "main", "", "Later", map[string]string{"later.txt": "l\n"})
	w.in.WaitJobs(t)
	require.Equal(t, mergeSHA, w.mr(t, w.featureIID)["merge_commit_sha"])
	require.Equal(t, "opened", w.mr(t, w.otherIID)["state"])
}

// TestMergedByPush_gitFastForward: the source branch pushed to main as it is (a fast-forward);
// the merge commit is the source head itself.
func TestMergedByPush_gitFastForward(t *testing.T) {
	w := newMergedByPushWorld(t, "manual-ff")
	dir := w.pusherClone(t)
	w.git(t, dir, "push", "-q", "origin", "origin/feature:refs/heads/main")
	w.in.WaitJobs(t)
	require.Equal(t, w.featureHead, w.branchTip(t, w.pid, "main"))
	w.requireMergedByPush(t, w.featureHead)
}

// TestMergedByPush_api: the API moves main onto the source head (a commit on top of it, through
// POST .../repository/commits); the merge commit is the source head, on main's first-parent
// line. A commit that brings in only the first of the source's two commits merges nothing.
func TestMergedByPush_api(t *testing.T) {
	w := newMergedByPushWorld(t, "manual-api")
	// main unprotected: the second move below is not a fast-forward.
	r, _ := w.do(t, "DELETE", fmt.Sprintf("/projects/%d/protected_branches/main", w.pid), root, nil)
	require.Equal(t, 204, r.Status, r.String())
	commitOnto := func(start string) string {
		t.Helper()
		r, m := w.do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", w.pid), w.pusher, map[string]any{
			"branch": "main", "start_sha": start, "force": true, "commit_message": "Onto " + start[:8],
			"actions": []map[string]any{{"action": "create", "file_path": "onto-" + start[:8], "content": "x\n"}}})
		require.Equal(t, 201, r.Status, r.String())
		w.in.WaitJobs(t)
		return m["id"].(string)
	}
	r = w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/commits/%s", w.pid, w.featureHead), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	first := servertest.Object(t, r)["parent_ids"].([]any)[0].(string)

	commitOnto(first)
	require.Equal(t, "opened", w.mr(t, w.featureIID)["state"])
	require.Nil(t, w.mr(t, w.featureIID)["merge_commit_sha"])

	commitOnto(w.featureHead)
	w.requireMergedByPush(t, w.featureHead)
}
