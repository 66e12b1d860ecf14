package eventapi_test

import (
	"fmt"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// milestoneEvents is "action_name target_iid target_title" of a feed's milestone events, in
// order.
func (f *issueFeed) milestoneEvents(t *testing.T, path, who string) []string {
	t.Helper()
	list := servertest.Decode[[]map[string]any](t, f.do(t, "GET", path, who, nil, 200))
	out := []string{}
	for _, e := range list {
		if e["target_type"] == "Milestone" {
			out = append(out, fmt.Sprint(e["action_name"], " ", e["target_iid"], " ", e["target_title"]))
		}
	}
	return out
}

// TestMilestoneEvents: a project milestone's creation, closing, reopening and deletion are
// recorded as GitLab does (a deleted milestone's events lose their target); group milestones
// record none; the events are shown to those who read the project's issues or merge requests.
func TestMilestoneEvents(t *testing.T) {
	f := newIssueFeed(t)
	ms := fmt.Sprintf("/projects/%d/milestones", f.pub.ID)
	feed := fmt.Sprintf("/projects/%d/events?sort=asc&target_type=milestone", f.pub.ID)
	m := servertest.Object(t, f.do(t, "POST", ms, "reporter", url.Values{"title": {"v1"}}, 201))
	one := fmt.Sprintf("%s/%v", ms, m["id"])
	f.do(t, "PUT", one, "reporter", url.Values{"state_event": {"close"}}, 200)
	f.do(t, "PUT", one, "reporter", url.Values{"state_event": {"close"}}, 200) // already closed: nothing
	f.do(t, "PUT", one, "reporter", url.Values{"title": {"v1.0"}}, 200)        // an edit: no event, the title follows
	f.do(t, "PUT", one, "reporter", url.Values{"state_event": {"activate"}}, 200)
	f.do(t, "POST", fmt.Sprintf("/groups/%d/milestones", f.group.ID), "owner", url.Values{"title": {"g1"}}, 201)

	assert.Equal(t, []string{"opened 1 v1.0", "closed 1 v1.0", "opened 1 v1.0"}, f.milestoneEvents(t, feed, "anonymous"))
	list := servertest.Decode[[]map[string]any](t, f.do(t, "GET", feed, "reporter", nil, 200))
	require.Len(t, list, 3)
	assert.Equal(t, "reporter", list[0]["author_username"])
	assert.Equal(t, m["id"], list[0]["target_id"])
	assert.Equal(t, "Milestone", list[0]["target_type"])
	assert.Equal(t, []string{"closed"}, actionNames(servertest.Decode[[]map[string]any](t,
		f.do(t, "GET", fmt.Sprintf("/projects/%d/events?action=closed&target_type=milestone", f.pub.ID), "reporter", nil, 200))))

	// Issues off, merge requests on: still shown; both off: hidden.
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"issues_access_level": {"disabled"}}, 200)
	assert.Len(t, f.milestoneEvents(t, feed, "reporter"), 3)
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"merge_requests_access_level": {"disabled"}}, 200)
	assert.Empty(t, f.milestoneEvents(t, feed, "reporter"))
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner",
		url.Values{"merge_requests_access_level": {"enabled"}, "issues_access_level": {"enabled"}}, 200)

	// Deleting: a "destroyed" event, and every event of the milestone loses its target.
	f.do(t, "DELETE", one, "reporter", nil, 204)
	assert.Equal(t, []string{"opened <nil> <nil>", "closed <nil> <nil>", "opened <nil> <nil>", "destroyed <nil> <nil>"},
		f.milestoneEvents(t, feed, "outsider"))
	for _, e := range servertest.Decode[[]map[string]any](t, f.do(t, "GET", feed, "reporter", nil, 200)) {
		assert.Nil(t, e["target_id"])
		assert.Equal(t, "Milestone", e["target_type"])
	}
	n, err := f.in.DB.Client.Event.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 5+4, n, "five issue events, four of the project milestone, none of the group's")
}

func actionNames(list []map[string]any) []string {
	out := []string{}
	for _, e := range list {
		out = append(out, e["action_name"].(string))
	}
	return out
}
