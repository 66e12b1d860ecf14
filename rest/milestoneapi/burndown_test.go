package milestoneapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/resourcestateevent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMilestoneBurndownEvents: GitLab's burndown events from the milestone's issues and their
// recorded state events, for project and group milestones; confidential issues only for those
// who see them; nothing for a milestone without both dates.
func TestMilestoneBurndownEvents(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "burn", "public", nil)
	sub := in.NewGroup(t, "team", "public", g)
	p := in.NewProject(t, g, "app", "public")
	q := in.NewProject(t, sub, "lib", "public")
	guest, gtok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	reporter, rtok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)
	pid := "/projects/" + strconv.Itoa(p.ID)
	start := time.Now().UTC().AddDate(0, 0, -3).Format("2006-01-02")
	due := time.Now().UTC().AddDate(0, 0, 10).Format("2006-01-02")

	m := create(t, in, pid+"/milestones", url.Values{"title": {"1.0"}, "start_date": {start}, "due_date": {due}})
	mid := strconv.Itoa(int(m["id"].(float64)))
	issue := func(project string, extra url.Values) int {
		form := url.Values{"title": {"work"}}
		for k, v := range extra {
			form[k] = v
		}
		r := in.Do(t, "POST", project+"/issues", servertest.RootToken, form)
		require.Equal(t, 201, r.Status, r.String())
		return int(decode[map[string]any](t, r)["iid"].(float64))
	}
	state := func(project string, iid int, ev string) {
		r := in.Do(t, "PUT", project+"/issues/"+strconv.Itoa(iid), servertest.RootToken, url.Values{"state_event": {ev}})
		require.Equal(t, 200, r.Status, r.String())
	}
	a := issue(pid, url.Values{"milestone_id": {mid}})
	state(pid, a, "close")
	state(pid, a, "reopen")
	state(pid, a, "close")
	issue(pid, url.Values{"milestone_id": {mid}, "confidential": {"true"}})
	issue(pid, nil) // no milestone
	legacy := issue(pid, url.Values{"milestone_id": {mid}})
	state(pid, legacy, "close")
	// A closed issue without a recorded close counts as closed at the start date.
	ctx := context.Background()
	var legacyID int
	for _, is := range decode[[]map[string]any](t, in.Do(t, "GET", pid+"/issues?iids[]="+strconv.Itoa(legacy), servertest.RootToken, nil)) {
		legacyID = int(is["id"].(float64))
	}
	_, err := in.DB.Client.ResourceStateEvent.Delete().Where(resourcestateevent.IssueID(legacyID)).Exec(ctx)
	require.NoError(t, err)

	events := func(path, token string) []map[string]any {
		t.Helper()
		r := in.Do(t, "GET", path, token, nil)
		require.Equal(t, 200, r.Status, r.String())
		return decode[[]map[string]any](t, r)
	}
	actions := func(evs []map[string]any) []string {
		out := []string{}
		for _, e := range evs {
			out = append(out, e["action"].(string))
		}
		return out
	}
	path := pid + "/milestones/" + mid + "/burndown_events"
	got := events(path, rtok)
	assert.Equal(t, []string{"created", "closed", "reopened", "closed", "created", "created", "closed"}, actions(got))
	for _, e := range got {
		assert.Equal(t, []string{"action", "created_at", "weight"}, servertest.Keys(e))
		assert.Nil(t, e["weight"])
	}
	assert.Equal(t, start+"T00:00:00.000Z", got[6]["created_at"])
	// The guest does not see the confidential issue's creation.
	assert.Equal(t, []string{"created", "closed", "reopened", "closed", "created", "closed"}, actions(events(path, gtok)))
	assert.Equal(t, []string{"created", "closed", "reopened", "closed", "created", "closed"}, actions(events(path, "")))

	// Without a start date: nothing.
	undated := create(t, in, pid+"/milestones", url.Values{"title": {"undated"}, "due_date": {due}})
	assert.Equal(t, []map[string]any{}, events(pid+"/milestones/"+strconv.Itoa(int(undated["id"].(float64)))+"/burndown_events", rtok))

	// A group milestone counts the issues of its subgroups' projects.
	gm := create(t, in, "/groups/"+strconv.Itoa(g.ID)+"/milestones", url.Values{"title": {"g1"}, "start_date": {start}, "due_date": {due}})
	gmid := strconv.Itoa(int(gm["id"].(float64)))
	issue("/projects/"+strconv.Itoa(q.ID), url.Values{"milestone_id": {gmid}})
	assert.Equal(t, []string{"created"}, actions(events("/groups/"+strconv.Itoa(g.ID)+"/milestones/"+gmid+"/burndown_events", "")))

	// Unknown milestone and private owner: 404.
	assert.Equal(t, 404, in.Do(t, "GET", pid+"/milestones/999999/burndown_events", rtok, nil).Status)
	priv := in.NewProject(t, g, "private", "private")
	pm := create(t, in, "/projects/"+strconv.Itoa(priv.ID)+"/milestones", url.Values{"title": {"p"}})
	_, otok := in.NewUser(t, "outsider")
	assert.Equal(t, 404, in.Do(t, "GET", "/projects/"+strconv.Itoa(priv.ID)+"/milestones/"+strconv.Itoa(int(pm["id"].(float64)))+"/burndown_events", otok, nil).Status)
}
