package mergerequestapi_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMerge_canMergeAgreesWithMerge checks user.can_merge of the single merge request against
// PUT .../merge under the target branch's protection, as GitLab's can_be_merged_by? decides
// both: push OR merge access to the target branch. A Developer only the merge rule admits may
// merge, and so may one only the push rule admits; one neither admits may not (401), nor may a
// Reporter; an unprotected target takes push access.
func TestMerge_canMergeAgreesWithMerge(t *testing.T) {
	w := newMergeWorld(t)
	ctx := context.Background()
	pid, _ := w.project(t, "canmerge", nil)
	p, err := w.in.DB.Client.Project.Get(ctx, pid)
	require.NoError(t, err)
	dev, devToken := w.in.NewUser(t, "dev")
	w.in.AddProjectMember(t, p, dev, 30)
	rep, repToken := w.in.NewUser(t, "rep")
	w.in.AddProjectMember(t, p, rep, 20)

	protect := func(push, merge int) {
		t.Helper()
		r, _ := w.do(t, "DELETE", fmt.Sprintf("/projects/%d/protected_branches/main", pid), root, nil)
		require.Contains(t, []int{204, 404}, r.Status, r.String())
		if push < 0 {
			return // unprotected
		}
		r, _ = w.do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", pid), root,
			map[string]any{"name": "main", "push_access_level": push, "merge_access_level": merge})
		require.Equal(t, 201, r.Status, r.String())
	}
	canMerge := func(iid int, token string) bool {
		t.Helper()
		r, m := w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d", pid, iid), token, nil)
		require.Equal(t, 200, r.Status, r.String())
		return m["user"].(map[string]any)["can_merge"].(bool)
	}

	cases := []struct {
		name        string
		push, merge int // -1: main unprotected
		dev         bool
	}{
		{"maintainers only", 40, 40, false},
		{"developers merge, no one pushes", 0, 30, true},
		{"developers push, maintainers merge", 30, 40, true},
		{"unprotected", -1, -1, true},
	}
	for i, c := range cases {
		branch := fmt.Sprintf("feature-%d", i)
		w.commit(t, pid, root, branch, "main", c.name, map[string]string{fmt.Sprintf("f%d.txt", i): "f\n"})
		iid := w.openMR(t, pid, root, branch, c.name, nil)
		protect(c.push, c.merge)

		require.Equal(t, c.dev, canMerge(iid, devToken), c.name)
		require.False(t, canMerge(iid, repToken), c.name)
		require.True(t, canMerge(iid, root), c.name)

		r, body := w.merge(t, pid, iid, repToken, nil)
		require.Equal(t, 401, r.Status, r.String())
		require.Equal(t, "401 Unauthorized", body["message"])
		r, body = w.merge(t, pid, iid, devToken, nil)
		if !c.dev {
			require.Equal(t, 401, r.Status, c.name+": "+r.String())
			require.Equal(t, "401 Unauthorized", body["message"])
			r, body = w.merge(t, pid, iid, root, nil)
		}
		require.Equal(t, 200, r.Status, c.name+": "+r.String())
		require.Equal(t, "merged", body["state"], c.name)
		// A merged merge request still answers can_merge as the branch rules decide.
		require.Equal(t, c.dev, canMerge(iid, devToken), c.name)
	}
}
