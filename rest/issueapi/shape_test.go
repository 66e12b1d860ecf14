package issueapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueShape: an issue's JSON as GitLab's Entities::Issue, on create, read and update.
func TestIssueShape(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "shape", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 20)
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"

	r := in.Do(t, "POST", base, tok, url.Values{
		"title": {"Crash on start"}, "description": {"Steps"}, "labels": {"bug,ui"},
		"assignee_ids[]": {strconv.Itoa(alice.ID)}, "due_date": {"2030-01-02"},
	})
	require.Equal(t, 201, r.Status, r.String())
	is := decode[map[string]any](t, r)
	web := in.URL + "/shape/app/-/issues/1"
	api := in.URL + "/api/v4/projects/" + strconv.Itoa(p.ID)
	user := map[string]any{"id": float64(alice.ID), "username": "alice", "name": alice.Name, "state": "active",
		"locked": false, "avatar_url": is["author"].(map[string]any)["avatar_url"], "web_url": in.URL + "/alice"}
	assert.Contains(t, user["avatar_url"], "gravatar")
	for k, want := range map[string]any{
		"iid": float64(1), "project_id": float64(p.ID), "title": "Crash on start", "description": "Steps",
		"state": "opened", "closed_at": nil, "closed_by": nil, "labels": []any{"bug", "ui"}, "milestone": nil,
		"assignees": []any{user}, "author": user, "assignee": user, "type": "ISSUE", "user_notes_count": float64(0),
		"merge_requests_count": float64(0), "upvotes": float64(0), "downvotes": float64(0), "due_date": "2030-01-02", "weight": nil,
		"confidential": false, "discussion_locked": nil, "issue_type": "issue", "web_url": web,
		"time_stats":             map[string]any{"time_estimate": float64(0), "total_time_spent": float64(0), "human_time_estimate": nil, "human_total_time_spent": nil},
		"task_completion_status": map[string]any{"count": float64(0), "completed_count": float64(0)},
		"has_tasks":              false, "severity": "UNKNOWN", "moved_to_id": nil, "service_desk_reply_to": nil,
		"_links": map[string]any{"self": api + "/issues/1", "notes": api + "/issues/1/notes",
			"award_emoji": api + "/issues/1/award_emoji", "project": api, "closed_as_duplicate_of": nil},
		"references": map[string]any{"short": "#1", "relative": "#1", "full": "shape/app#1"},
	} {
		assert.Equal(t, want, is[k], k)
	}
	assert.Len(t, is, 34, "no field beyond GitLab's")
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, is["created_at"])

	// with_labels_details renders the labels as objects with their derived text color.
	r = in.Do(t, "GET", base+"/1?with_labels_details=true", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	ls := decode[map[string]any](t, r)["labels"].([]any)
	require.Len(t, ls, 2)
	assert.Equal(t, map[string]any{"id": ls[0].(map[string]any)["id"], "name": "bug", "color": "#6699cc",
		"description": nil, "description_html": "", "text_color": "#FFFFFF"}, ls[0])

	// Closing records the closer and the time; reopening clears them.
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"state_event": {"close"}})
	require.Equal(t, 200, r.Status, r.String())
	is = decode[map[string]any](t, r)
	assert.Equal(t, "closed", is["state"])
	assert.Equal(t, user, is["closed_by"])
	assert.NotNil(t, is["closed_at"])
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"state_event": {"reopen"}, "due_date": {""}})
	is = decode[map[string]any](t, r)
	assert.Equal(t, "opened", is["state"])
	assert.Nil(t, is["closed_by"])
	assert.Nil(t, is["due_date"])

	// Several assignees (Premium's multiple issue assignees): each existing user once, in the
	// order given; the first is also "assignee".
	bob, _ := in.NewUser(t, "bob")
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"assignee_ids[]": {strconv.Itoa(bob.ID), "999999",
		strconv.Itoa(alice.ID), strconv.Itoa(bob.ID)}})
	require.Equal(t, 200, r.Status, r.String())
	is = decode[map[string]any](t, r)
	var names []any
	for _, a := range is["assignees"].([]any) {
		names = append(names, a.(map[string]any)["username"])
	}
	assert.Equal(t, []any{"bob", "alice"}, names)
	assert.Equal(t, "bob", is["assignee"].(map[string]any)["username"])
	r = in.Do(t, "GET", base+"?assignee_id="+strconv.Itoa(alice.ID), "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, decode[[]any](t, r), 1, "each assignee finds the issue")

	// Bad input names the parameter.
	r = in.Do(t, "POST", base, tok, url.Values{"description": {"no title"}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"error":"title is missing"}`, string(r.Body))
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"state_event": {"shut"}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"error":"state_event does not have a valid value"}`, string(r.Body))
	r = in.Do(t, "PUT", base+"/1", tok, url.Values{"title": {""}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"message":{"title":["can't be blank"]}}`, string(r.Body))
	r = in.Do(t, "GET", base+"?labels[]=a&not[iids]=x", tok, nil)
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"error":"not is invalid"}`, string(r.Body))
	r = in.Do(t, "GET", base+"/abc", tok, nil)
	assert.Equal(t, 404, r.Status)

	// GET /issues/:id is for administrators.
	id := strconv.Itoa(int(is["id"].(float64)))
	r = in.Do(t, "GET", "/issues/"+id, servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, float64(1), decode[map[string]any](t, r)["iid"])
	assert.Equal(t, 403, in.Do(t, "GET", "/issues/"+id, tok, nil).Status)
	assert.Equal(t, 401, in.Do(t, "GET", "/issues/"+id, "", nil).Status)
	r = in.Do(t, "GET", "/issues/9999", servertest.RootToken, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
}
