package mergerequestapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// systemNotes are the bodies of the merge request's system notes, oldest first.
func (f *mrFixture) systemNotes(t *testing.T, iid string) []string {
	t.Helper()
	r := f.Do(t, "GET", f.base+"/"+iid+"/notes?sort=asc&order_by=created_at&per_page=100", "root", nil)
	require.Equal(t, 200, r.Status, r.String())
	var out []string
	for _, n := range servertest.List(t, r) {
		if n["system"] == true {
			out = append(out, n["body"].(string))
		}
	}
	return out
}

// todos are role's pending to-dos as "action_name target_iid author".
func (f *mrFixture) todos(t *testing.T, role string) []string {
	t.Helper()
	r := f.Do(t, "GET", "/todos?type=MergeRequest", role, nil)
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, td := range servertest.List(t, r) {
		assert.Equal(t, "MergeRequest", td["target_type"])
		out = append(out, td["action_name"].(string)+" !"+strconv.Itoa(int(td["target"].(map[string]any)["iid"].(float64)))+
			" "+td["author"].(map[string]any)["username"].(string))
	}
	return out
}

// TestMergeRequestSideEffects: opening, editing (labels, milestone, assignees, reviewers),
// closing, reopening and merging a merge request write GitLab's system notes (assignees,
// reviewers) and resource events (labels, milestone, state), the project's
// activity events (GET /projects/:id/events?target_type=merge_request: opened, closed,
// reopened, merged, named opened, closed, opened, accepted) and the to-dos of the people it concerns (assigned, review_requested, mentioned;
// only for those who may read it).
func TestMergeRequestSideEffects(t *testing.T) {
	f := newMRFixture(t, "private")
	ms := f.In.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/milestones", f.Tokens["maintainer"], `{"title":"v1"}`)
	require.Equal(t, 201, ms.Status, ms.String())
	msID := int(servertest.Object(t, ms)["id"].(float64))
	lb := f.In.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/labels", f.Tokens["maintainer"], `{"name":"bug","color":"#ff0000"}`)
	require.Equal(t, 201, lb.Status, lb.String())

	f.create(t, "developer", map[string]any{
		"source_branch": "feature", "target_branch": "main", "title": "Feature",
		"description":  "Please look, @root and @guest and @outsider",
		"assignee_ids": []int{f.Users["reporter"].ID}, "reviewer_ids": []int{f.Users["maintainer"].ID},
	})
	// Opening writes no system note of its own.
	assert.Empty(t, f.systemNotes(t, "1"))
	assert.Equal(t, []string{"assigned !1 developer"}, f.todos(t, "reporter"))
	assert.Equal(t, []string{"review_requested !1 developer"}, f.todos(t, "maintainer"))
	assert.Equal(t, []string{"mentioned !1 developer"}, f.todos(t, "root"))
	// The guest (no merge requests in a private project) and the outsider get nothing.
	assert.Empty(t, f.todos(t, "guest"))
	assert.Empty(t, f.todos(t, "outsider"))
	assert.Empty(t, f.todos(t, "developer"), "no to-do for one's own doing")

	put := func(role string, body map[string]any) map[string]any {
		t.Helper()
		r := f.Do(t, "PUT", f.base+"/1", role, js(t, body))
		require.Equal(t, 200, r.Status, r.String())
		return servertest.Object(t, r)
	}
	put("developer", map[string]any{"labels": "bug"})
	put("developer", map[string]any{"milestone_id": msID})
	put("developer", map[string]any{"assignee_ids": []int{f.Users["reporter"].ID, f.Users["maintainer"].ID}})
	put("developer", map[string]any{"reviewer_ids": []int{f.Root.ID}})
	put("developer", map[string]any{"remove_labels": "bug", "milestone_id": 0})
	// Labels and milestones are resource events, as GitLab records them, not system notes.
	assert.Equal(t, []string{
		"assigned to @maintainer",
		"requested review from @root and removed review request for @maintainer",
	}, f.systemNotes(t, "1"))
	events := func(kind, key string) []string {
		t.Helper()
		r := f.Do(t, "GET", f.base+"/1/resource_"+kind+"_events", "developer", nil)
		require.Equal(t, 200, r.Status, r.String())
		var out []string
		for _, e := range servertest.List(t, r) {
			s, _ := e["action"].(string)
			if key == "state" {
				s = e["state"].(string)
			} else {
				s += " " + e[key].(map[string]any)[map[string]string{"label": "name", "milestone": "title"}[key]].(string)
			}
			assert.Equal(t, "MergeRequest", e["resource_type"])
			out = append(out, s)
		}
		return out
	}
	assert.Equal(t, []string{"add bug", "remove bug"}, events("label", "label"))
	assert.Equal(t, []string{"add v1", "remove v1"}, events("milestone", "milestone"))
	// One pending to-do per user and merge request (GitLab's single to-do): the maintainer,
	// assigned while asked to review, keeps the one it had; root, asked to review after being
	// mentioned, too; the reporter, kept as assignee, gets none.
	assert.Equal(t, []string{"review_requested !1 developer"}, f.todos(t, "maintainer"))
	assert.Equal(t, []string{"assigned !1 developer"}, f.todos(t, "reporter"))
	assert.Equal(t, []string{"mentioned !1 developer"}, f.todos(t, "root"))

	// State changes: a note each, an event each, and the actor's own to-dos done.
	closed := put("maintainer", map[string]any{"state_event": "close"})
	assert.Equal(t, "closed", closed["state"])
	assert.Empty(t, f.todos(t, "maintainer"), "closing marks the closer's to-dos done")
	put("developer", map[string]any{"state_event": "reopen"})
	r := f.Do(t, "PUT", f.base+"/1/merge", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "merged", servertest.Object(t, r)["state"])
	assert.Equal(t, []string{"closed", "reopened", "merged"}, events("state", "state"))

	r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/events?target_type=merge_request&sort=asc", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	var got []string
	for _, e := range servertest.List(t, r) {
		assert.Equal(t, "MergeRequest", e["target_type"])
		assert.Equal(t, float64(1), e["target_iid"])
		assert.Equal(t, "Feature", e["target_title"])
		got = append(got, e["action_name"].(string)+" "+e["author"].(map[string]any)["username"].(string))
	}
	assert.Equal(t, []string{"opened developer", "closed maintainer", "opened developer", "accepted maintainer"}, got,
		"opened, closed, reopened (GitLab names it opened), merged (accepted)")
	r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/events?target_type=merge_request&action=reopened", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 1)
	// Other target types filter them out; a guest reads no merge request events here.
	r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/events?target_type=issue", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, servertest.List(t, r))
	r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/events?target_type=merge_request", "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, servertest.List(t, r))

	// Deleting it takes its events and to-dos with it.
	require.Equal(t, 204, f.Do(t, "DELETE", f.base+"/1", "root", nil).Status)
	assert.Empty(t, f.todos(t, "reporter"))
	r = f.Do(t, "GET", "/projects/"+strconv.Itoa(f.P.ID)+"/events?target_type=merge_request", "root", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, servertest.List(t, r))
}

// TestMergeRequestSubscriptions: POST .../subscribe and .../unsubscribe answer 201 with the
// merge request (subscribed as now) and 304 with no body when nothing changes; participants
// (author, assignees, reviewers, then commenters) are subscribed without asking. Both need a
// signed-in caller who reads the merge request. GET .../participants lists the participants.
func TestMergeRequestSubscriptions(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Feature",
		"reviewer_ids": []int{f.Users["reporter"].ID}})
	sub := func(role, what string) *servertest.Response { return f.Do(t, "POST", f.base+"/1/"+what, role, nil) }

	// The maintainer does not take part: subscribes, then again (304), unsubscribes, again.
	r := sub("maintainer", "subscribe")
	require.Equal(t, 201, r.Status, r.String())
	mr := servertest.Object(t, r)
	assert.Equal(t, true, mr["subscribed"])
	assert.Equal(t, float64(1), mr["iid"])
	assert.Equal(t, "Feature", mr["title"])
	r = sub("maintainer", "subscribe")
	assert.Equal(t, 304, r.Status, r.String())
	assert.Empty(t, r.Body)
	r = sub("maintainer", "unsubscribe")
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, false, servertest.Object(t, r)["subscribed"])
	r = sub("maintainer", "unsubscribe")
	assert.Equal(t, 304, r.Status, r.String())
	assert.Empty(t, r.Body)
	assert.Equal(t, false, servertest.Object(t, f.Do(t, "GET", f.base+"/1", "maintainer", nil))["subscribed"])

	// The author and the reviewer are subscribed as participants; unsubscribing sticks.
	assert.Equal(t, 304, sub("developer", "subscribe").Status)
	r = sub("reporter", "unsubscribe")
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, false, servertest.Object(t, r)["subscribed"])
	assert.Equal(t, false, servertest.Object(t, f.Do(t, "GET", f.base+"/1", "reporter", nil))["subscribed"])

	// Refusals.
	servertest.RequireError(t, sub("", "subscribe"), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, sub("guest", "subscribe"), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, sub("outsider", "unsubscribe"), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, f.Do(t, "POST", f.base+"/9/subscribe", "maintainer", nil), 404, "message", "404 Merge Request Not Found")

	// Participants: author, assignees, reviewers, then commenters in order, each once.
	r = f.Do(t, "PUT", f.base+"/1", "developer", js(t, map[string]any{"assignee_ids": []int{f.Users["maintainer"].ID}}))
	require.Equal(t, 200, r.Status, r.String())
	for _, role := range []string{"root", "developer", "root"} {
		r = f.Do(t, "POST", f.base+"/1/notes", role, js(t, map[string]any{"body": "A comment"}))
		require.Equal(t, 201, r.Status, r.String())
	}
	r = f.Do(t, "GET", f.base+"/1/participants", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	people := servertest.List(t, r)
	var names []string
	for _, p := range people {
		names = append(names, p["username"].(string))
	}
	assert.Equal(t, []string{"developer", "maintainer", "reporter", "root"}, names)
	assert.ElementsMatch(t, []string{"id", "username", "name", "state", "locked", "avatar_url", "web_url"}, servertest.Keys(people[0]))
	// GitLab pages the participants (Kaminari.paginate_array): headers, and per_page cuts.
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "1", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "20", r.Header.Get("X-Per-Page"))
	r = f.Do(t, "GET", f.base+"/1/participants?per_page=3&page=2", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	people = servertest.List(t, r)
	require.Len(t, people, 1)
	assert.Equal(t, "root", people[0]["username"])
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
	// A commenter is subscribed by commenting.
	assert.Equal(t, true, servertest.Object(t, f.Do(t, "GET", f.base+"/1", "root", nil))["subscribed"])
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/1/participants", "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/1/participants", "", nil), 404, "message", "404 Project Not Found")
}

// TestMergeRequestReviewers: GET .../reviewers lists the review requests as GitLab's
// Entities::MergeRequestReviewer (the reviewer under user, state, created_at), one offset page
// with the paging headers; a caller who cannot read the merge request gets 404.
func TestMergeRequestReviewers(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Feature",
		"reviewer_ids": []int{f.Users["reporter"].ID, f.Users["maintainer"].ID}})

	r := f.Do(t, "GET", f.base+"/1/reviewers", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	assert.Equal(t, "1", r.Header.Get("X-Page"))
	list := servertest.List(t, r)
	require.Len(t, list, 2)
	assert.ElementsMatch(t, []string{"user", "state", "created_at"}, servertest.Keys(list[0]))
	user := list[0]["user"].(map[string]any)
	assert.Equal(t, "reporter", user["username"])
	assert.Equal(t, float64(f.Users["reporter"].ID), user["id"])
	assert.ElementsMatch(t, []string{"id", "username", "name", "state", "locked", "avatar_url", "web_url"}, servertest.Keys(user))
	assert.Equal(t, "unreviewed", list[0]["state"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, list[0]["created_at"])
	assert.Equal(t, "maintainer", list[1]["user"].(map[string]any)["username"])

	r = f.Do(t, "GET", f.base+"/1/reviewers?per_page=1&page=2", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list = servertest.List(t, r)
	require.Len(t, list, 1)
	assert.Equal(t, "maintainer", list[0]["user"].(map[string]any)["username"])
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))

	servertest.RequireError(t, f.Do(t, "GET", f.base+"/1/reviewers", "guest", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/1/reviewers", "", nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, f.Do(t, "GET", f.base+"/9/reviewers", "reporter", nil), 404, "message", "404 Merge Request Not Found")
}
