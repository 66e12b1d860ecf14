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
	pid, path := w.project(t, "targetpush", nil)
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
	require.Len(t, versions(), 1)
	require.Equal(t, "can_be_merged", status()) // checked now

	// An ordinary push to main: no version, the status is rechecked.
	w.commit(t, pid, root, "main", "", "Elsewhere", map[string]string{"c.txt": "c\n"})
	w.in.WaitJobs(t)
	require.Len(t, versions(), 1)
	stored, err := w.in.DB.Client.MergeRequest.Query().Where(mergerequest.ProjectID(pid), mergerequest.Iid(iid)).Only(context.Background())
	require.NoError(t, err)
	require.Equal(t, "unchecked", stored.MergeStatus)
	require.Equal(t, "can_be_merged", status())

	// The first commit of the merge request merged into main by hand: a new version whose base
	// is that commit, with the second commit alone.
	wc := w.clone(t, path)
	w.git(t, wc, "-c", "user.name=Root", "-c", "user.email=root@example.com", "merge", "-q", "--no-edit", "origin/feature~1")
	w.git(t, wc, "push", "-q", "origin", "main")
	mainTip := w.branchTip(t, pid, "main")
	w.in.WaitJobs(t)
	vs := versions()
	require.Len(t, vs, 2)
	require.Equal(t, second, vs[0]["head_commit_sha"])
	require.Equal(t, first, vs[0]["base_commit_sha"])
	require.Equal(t, mainTip, vs[0]["start_commit_sha"])
	require.Equal(t, "1", vs[0]["real_size"])

	// A force push of main (back one commit; main unprotected first): another version.
	r, _ := w.do(t, "DELETE", fmt.Sprintf("/projects/%d/protected_branches/main", pid), root, nil)
	require.Equal(t, 204, r.Status, r.String())
	w.git(t, wc, "reset", "-q", "--hard", "HEAD~1")
	w.git(t, wc, "push", "-q", "-f", "origin", "main")
	rewound := w.branchTip(t, pid, "main")
	require.NotEqual(t, mainTip, rewound)
	w.in.WaitJobs(t)
	vs = versions()
	require.Len(t, vs, 3)
	require.Equal(t, second, vs[0]["head_commit_sha"])
	require.Equal(t, rewound, vs[0]["start_commit_sha"])
	require.Equal(t, "2", vs[0]["real_size"])
}
