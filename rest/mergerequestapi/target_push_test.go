package mergerequestapi_test

import (
	"context"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/mergerequest"

	"github.com/stretchr/testify/require"
)

// TestVersions_targetBranchPushes: what a push to the target branch does to an open merge
// request, as GitLab's refresh does it. Every push sends the merge status back to unchecked;
// an ordinary push records no new version; a push that brings some of the merge request's
// commits into the target (merged by hand) and a force push each record one, with the new
// start and base.
func TestVersions_targetBranchPushes(t *testing.T) {
	w := newMergeWorld(t)
	pid, _ := w.project(t, "targetpush", nil)
	// main unprotected: root force-moves it through the commits API below.
	r, _ := w.do(t, "DELETE", fmt.Sprintf("/projects/%d/protected_branches/main", pid), root, nil)
	require.Equal(t, 204, r.Status, r.String())
	base := w.branchTip(t, pid, "main")
	first := w.commit(t, pid, root, "feature", "main", "First", map[string]string{"a.txt": "a\n"})
	second := w.commit(t, pid, root, "feature", "", "Second", map[string]string{"b.txt": "b\n"})
	iid := w.openMR(t, pid, root, "feature", "Feature", nil)
	w.in.WaitJobs(t)
	mrPath := fmt.Sprintf("/projects/%d/merge_requests/%d", pid, iid)
	versions := func() []map[string]any {
		t.Helper()
		r := w.in.Do(t, "GET", mrPath+"/versions", root, nil)
		require.Equal(t, 200, r.Status, r.String())
		return servertest.List(t, r)
	}
	status := func() string {
		t.Helper()
		r, m := w.do(t, "GET", mrPath, root, nil)
		require.Equal(t, 200, r.Status, r.String())
		return m["merge_status"].(string)
	}
	// moveMain points main at a new commit on top of start (a fast-forward or a force push,
	// depending on start).
	moveMain := func(start, file string) string {
		t.Helper()
		r, m := w.do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", pid), root, map[string]any{
			"branch": "main", "start_sha": start, "force": true, "commit_message": "Move main",
			"actions": []map[string]any{{"action": "create", "file_path": file, "content": file + "\n"}}})
		require.Equal(t, 201, r.Status, r.String())
		w.in.WaitJobs(t)
		return m["id"].(string)
	}
	vs := versions()
	require.Len(t, vs, 1)
	require.Equal(t, base, vs[0]["base_commit_sha"])
	require.Equal(t, "can_be_merged", status())

	// The first commit of the merge request brought into main by hand (a fast-forward onto it):
	// a new version whose base is that commit, with the second commit alone.
	handMerged := moveMain(first, "x.txt")
	vs = versions()
	require.Len(t, vs, 2)
	require.Equal(t, second, vs[0]["head_commit_sha"])
	require.Equal(t, first, vs[0]["base_commit_sha"])
	require.Equal(t, handMerged, vs[0]["start_commit_sha"])
	require.Equal(t, "1", vs[0]["real_size"])

	// An ordinary push to main: no version; the merge status is rechecked.
	require.Equal(t, "can_be_merged", status())
	w.commit(t, pid, root, "main", "", "Elsewhere", map[string]string{"c.txt": "c\n"})
	w.in.WaitJobs(t)
	require.Len(t, versions(), 2)
	stored, err := w.in.DB.Client.MergeRequest.Query().Where(mergerequest.ProjectID(pid), mergerequest.Iid(iid)).Only(context.Background())
	require.NoError(t, err)
	require.Equal(t, "unchecked", stored.MergeStatus)
	require.Equal(t, "can_be_merged", status())

	// A force push of main (rebuilt from the old base): another version.
	rewound := moveMain(base, "y.txt")
	vs = versions()
	require.Len(t, vs, 3)
	require.Equal(t, second, vs[0]["head_commit_sha"])
	require.Equal(t, base, vs[0]["base_commit_sha"])
	require.Equal(t, rewound, vs[0]["start_commit_sha"])
	require.Equal(t, "2", vs[0]["real_size"])
}
