package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestApproveMutations: mergeRequestApprove and mergeRequestUnapprove record and
// withdraw the caller's approval through the approvals service REST's POST .../approve and
// .../unapprove use: the merge request answers with its approvers; a stale sha, a second
// approval, the author's own and a withdrawal never given are payload errors; a caller
// without the ability, or who cannot see the merge request, gets the resource access error.
func TestMergeRequestApproveMutations(t *testing.T) {
	w := newMRMutWorld(t)
	const sel = "approvedBy { nodes { username } }"
	approvers := func(d map[string]any) []string {
		t.Helper()
		return usernames(path(d, "mergeRequest", "approvedBy", "nodes"))
	}

	// Access: a reporter may read !1 but not approve it; the outsider cannot see the secret one.
	assert.Equal(t, accessMsg, w.refused(t, "reporter", "mergeRequestApprove", w.app, nil))
	assert.Equal(t, accessMsg, w.refused(t, "reporter", "mergeRequestUnapprove", w.app, nil))
	assert.Equal(t, accessMsg, w.refused(t, "outsider", "mergeRequestApprove", w.secret, nil))
	assert.Equal(t, accessMsg, w.refused(t, "maintainer", "mergeRequestApprove", w.app, map[string]any{"iid": "99"}))

	// A sha that is not the source head.
	d := w.mutate(t, "maintainer", "mergeRequestApprove", w.app, map[string]any{"sha": string(w.mainHead)}, sel)
	assert.Equal(t, []any{"SHA does not match HEAD of source branch: " + string(w.featureHead)}, d["errors"])
	assert.Empty(t, approvers(d))

	d = w.mutate(t, "maintainer", "mergeRequestApprove", w.app, map[string]any{"clientMutationId": "a1",
		"sha": string(w.featureHead)}, sel)
	assert.Equal(t, "a1", d["clientMutationId"])
	assert.Equal(t, []any{}, d["errors"])
	assert.Equal(t, []string{"maintainer"}, approvers(d))
	// REST sees the same approval.
	r := w.f.Do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/1/approvals", w.appID), "maintainer", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, true, got["user_has_approved"])
	require.Len(t, got["approved_by"], 1)

	// Twice, and the author (authors may not approve by default): payload errors.
	d = w.mutate(t, "maintainer", "mergeRequestApprove", w.app, nil, sel)
	assert.Equal(t, []any{"You cannot approve this merge request"}, d["errors"])
	d = w.mutate(t, "developer", "mergeRequestApprove", w.app, nil, sel)
	assert.Equal(t, []any{"You cannot approve this merge request"}, d["errors"])
	assert.Equal(t, []string{"maintainer"}, approvers(d))

	// Withdrawn, then withdrawn again.
	d = w.mutate(t, "maintainer", "mergeRequestUnapprove", w.app, map[string]any{"clientMutationId": "u1"}, sel)
	assert.Equal(t, "u1", d["clientMutationId"])
	assert.Equal(t, []any{}, d["errors"])
	assert.Empty(t, approvers(d))
	d = w.mutate(t, "maintainer", "mergeRequestUnapprove", w.app, nil, sel)
	assert.Equal(t, []any{"You have not approved this merge request"}, d["errors"])

	// The system notes of both, as REST writes them.
	r = w.f.Do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/1/notes?sort=asc", w.appID), "maintainer", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var bodies []string
	for _, n := range servertest.List(t, r) {
		bodies = append(bodies, n["body"].(string))
	}
	assert.Equal(t, []string{"approved this merge request", "unapproved this merge request"}, bodies)
}
