package issueapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueResourceEvents: state, label and milestone changes are recorded with the change and
// listed oldest first; a confidential issue's events are as hidden as the issue.
func TestIssueResourceEvents(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "ev", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	ms := in.DB.Client.Milestone.Create().SetTitle("v1").SetIid(1).SetProjectID(p.ID).SaveX(context.Background())
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues/1"
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"t"}, "labels": {"a,b"}, "milestone_id": {strconv.Itoa(ms.ID)}})
	for _, form := range []url.Values{
		{"remove_labels": {"a"}, "add_labels": {"c"}},
		{"state_event": {"close"}},
		{"state_event": {"reopen"}},
		{"milestone_id": {"0"}},
		{"labels": {""}},
	} {
		r := in.Do(t, "PUT", base, servertest.RootToken, form)
		require.Equal(t, 200, r.Status, r.String())
	}

	r := in.Do(t, "GET", base+"/resource_state_events", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	states := decode[[]map[string]any](t, r)
	require.Len(t, states, 2)
	assert.Equal(t, "closed", states[0]["state"])
	assert.Equal(t, "reopened", states[1]["state"])
	assert.Equal(t, "Issue", states[0]["resource_type"])
	assert.Equal(t, "root", states[0]["user"].(map[string]any)["username"])
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	assert.Len(t, states[0], 8)
	assert.Nil(t, states[0]["source_commit"])
	assert.Nil(t, states[0]["source_merge_request_id"])

	var labels []string
	for _, e := range decode[[]map[string]any](t, in.Do(t, "GET", base+"/resource_label_events", servertest.RootToken, nil)) {
		labels = append(labels, e["action"].(string)+" "+e["label"].(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"add a", "add b", "add c", "remove a", "remove b", "remove c"}, labels)
	// One label event by its id (the issue's only): the list's item, 404 Not found otherwise.
	first := decode[[]map[string]any](t, in.Do(t, "GET", base+"/resource_label_events", servertest.RootToken, nil))[0]
	eventID := strconv.Itoa(int(first["id"].(float64)))
	r = in.Do(t, "GET", base+"/resource_label_events/"+eventID, servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, first, decode[map[string]any](t, r))
	r = in.Do(t, "GET", base+"/resource_label_events/999999", servertest.RootToken, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))

	events := decode[[]map[string]any](t, in.Do(t, "GET", base+"/resource_milestone_events", servertest.RootToken, nil))
	require.Len(t, events, 2)
	assert.Equal(t, "add", events[0]["action"])
	assert.Equal(t, "remove", events[1]["action"])
	assert.Equal(t, "v1", events[0]["milestone"].(map[string]any)["title"])
	assert.Equal(t, "opened", events[0]["state"])
	assert.Equal(t, in.URL+"/ev/app/-/milestones/1", events[0]["milestone"].(map[string]any)["web_url"])

	// The events of an issue the caller cannot see are not found.
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"secret"}, "confidential": {"true"}})
	_, tok := in.NewUser(t, "outsider")
	for _, kind := range []string{"state", "label", "milestone"} {
		r := in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/2/resource_"+kind+"_events", tok, nil)
		assert.Equal(t, 404, r.Status, kind)
	}
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/2/resource_label_events/"+eventID, tok, nil)
	assert.Equal(t, 404, r.Status, r.String())
}
