package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpicShapeAndLifecycle: an epic's exact fields on create, read, update (state, labels,
// dates, color), the -/ path alias, and delete.
func TestEpicShapeAndLifecycle(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "plan", "public", nil)
	sub := in.NewGroup(t, "team", "public", g)
	gid := strconv.Itoa(g.ID)
	in.Do(t, "POST", "/groups/"+gid+"/labels", servertest.RootToken, url.Values{"name": {"bug"}, "color": {"#ff0000"}})

	e := newEpic(t, in, g.ID, servertest.RootToken, url.Values{
		"title": {"Roadmap"}, "description": {"the plan"}, "labels": {"bug,new"},
		"start_date_fixed": {"2030-01-02"}, "start_date_is_fixed": {"true"}, "end_date": {"2030-03-04"},
		"color": {"red"},
	})
	base := in.URL
	self := base + "/api/v4/groups/" + gid + "/epics/1"
	assert.Equal(t, []string{"_links", "author", "closed_at", "color", "confidential", "created_at", "description",
		"downvotes", "due_date", "due_date_fixed", "due_date_from_inherited_source", "due_date_from_milestones",
		"due_date_is_fixed", "end_date", "group_id", "id", "iid", "imported", "imported_from", "labels", "parent_id",
		"parent_iid", "references", "start_date", "start_date_fixed", "start_date_from_inherited_source",
		"start_date_from_milestones", "start_date_is_fixed", "state", "text_color", "title", "updated_at", "upvotes",
		"web_edit_url", "web_url", "work_item_id"}, servertest.Keys(e))
	assert.Equal(t, 1, num(e["iid"]))
	assert.Equal(t, g.ID, num(e["group_id"]))
	assert.Equal(t, "Roadmap", e["title"])
	assert.Equal(t, "the plan", e["description"])
	assert.Equal(t, "opened", e["state"])
	assert.Equal(t, "#ff0000", e["color"])
	assert.Equal(t, "#FFFFFF", e["text_color"])
	assert.Equal(t, false, e["confidential"])
	assert.Equal(t, false, e["imported"])
	assert.Equal(t, "none", e["imported_from"])
	assert.Nil(t, e["parent_id"])
	assert.Nil(t, e["parent_iid"])
	assert.Nil(t, e["closed_at"])
	assert.Nil(t, e["work_item_id"])
	assert.Equal(t, "2030-01-02", e["start_date"])
	assert.Equal(t, "2030-01-02", e["start_date_fixed"])
	assert.Equal(t, true, e["start_date_is_fixed"])
	assert.Nil(t, e["start_date_from_milestones"])
	// end_date fills due_date_fixed, but the due date is not fixed: the shown date is inherited.
	assert.Equal(t, "2030-03-04", e["due_date_fixed"])
	assert.Equal(t, false, e["due_date_is_fixed"])
	assert.Nil(t, e["due_date"])
	assert.Nil(t, e["end_date"])
	assert.Equal(t, []any{"bug", "new"}, e["labels"])
	assert.Equal(t, float64(0), e["upvotes"])
	assert.Equal(t, float64(0), e["downvotes"])
	assert.Equal(t, base+"/groups/plan/-/epics/1", e["web_url"])
	assert.Equal(t, "/groups/plan/-/epics/1", e["web_edit_url"])
	assert.Equal(t, map[string]any{"short": "&1", "relative": "&1", "full": "plan&1"}, e["references"])
	assert.Equal(t, map[string]any{"self": self, "epic_issues": self + "/issues",
		"group": base + "/api/v4/groups/" + gid, "parent": nil}, e["_links"])
	assert.Equal(t, "root", e["author"].(map[string]any)["username"])
	assert.NotContains(t, e, "subscribed")

	// The missing label was created in the group.
	ls := servertest.List(t, in.Do(t, "GET", "/groups/"+gid+"/labels", servertest.RootToken, nil))
	assert.Equal(t, []string{"bug", "new"}, servertest.Names(ls))

	// The single read adds subscribed; the -/ spelling is the same route.
	r := in.Do(t, "GET", "/groups/"+gid+"/-/epics/1", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, true, got["subscribed"])
	r = in.Do(t, "GET", "/groups/plan/epics/1?with_labels_details=true", "", nil)
	assert.Equal(t, false, servertest.Object(t, r)["subscribed"])

	// A child in a subgroup: references relative to the requested group, parent fields.
	child := newEpic(t, in, sub.ID, servertest.RootToken, url.Values{"title": {"Part"}, "parent_id": {strconv.Itoa(num(e["id"]))}})
	assert.Equal(t, num(e["id"]), num(child["parent_id"]))
	assert.Equal(t, 1, num(child["parent_iid"]))
	assert.Equal(t, self, child["_links"].(map[string]any)["parent"])
	assert.Equal(t, "&1", child["references"].(map[string]any)["relative"])
	list := servertest.List(t, in.Do(t, "GET", "/groups/"+gid+"/epics?order_by=title&sort=desc", "", nil))
	require.Len(t, list, 2)
	assert.Equal(t, "plan/team&1", list[1]["references"].(map[string]any)["relative"])
	assert.Equal(t, "plan/team&1", list[1]["references"].(map[string]any)["full"])

	// with_labels_details renders label objects.
	list = servertest.List(t, in.Do(t, "GET", "/groups/"+gid+"/epics?with_labels_details=true&labels=bug", "", nil))
	require.Len(t, list, 1)
	bug := list[0]["labels"].([]any)[0].(map[string]any)
	assert.Equal(t, []string{"color", "description", "description_html", "id", "name", "text_color"}, servertest.Keys(bug))
	assert.Equal(t, "bug", bug["name"])

	// Update: state, labels, dates, color, description cleared.
	r = in.Do(t, "PUT", "/groups/"+gid+"/epics/1", servertest.RootToken, `{"state_event":"close","add_labels":"x","remove_labels":"new","due_date_is_fixed":true,"color":"#1068bf","description":null,"title":"Roadmap 2"}`)
	require.Equal(t, 200, r.Status, r.String())
	up := servertest.Object(t, r)
	assert.Equal(t, "closed", up["state"])
	assert.NotNil(t, up["closed_at"])
	assert.Equal(t, []any{"bug", "x"}, up["labels"])
	assert.Equal(t, "2030-03-04", up["due_date"])
	assert.Equal(t, "2030-03-04", up["end_date"])
	assert.Equal(t, "#1068bf", up["color"])
	assert.Nil(t, up["description"])
	assert.Equal(t, "Roadmap 2", up["title"])
	r = in.Do(t, "PUT", "/groups/"+gid+"/epics/1", servertest.RootToken, url.Values{"state_event": {"reopen"}, "labels": {""}})
	require.Equal(t, 200, r.Status, r.String())
	up = servertest.Object(t, r)
	assert.Equal(t, "opened", up["state"])
	assert.Nil(t, up["closed_at"])
	assert.Equal(t, []any{}, up["labels"])

	// Bad input is a 400 naming the parameter.
	servertest.RequireError(t, in.Do(t, "POST", "/groups/"+gid+"/epics", servertest.RootToken, url.Values{"description": {"x"}}), 400, "error", "title is missing")
	servertest.RequireError(t, in.Do(t, "PUT", "/groups/"+gid+"/epics/1", servertest.RootToken, url.Values{"state_event": {"open"}}), 400, "error", "state_event does not have a valid value")
	r = in.Do(t, "PUT", "/groups/"+gid+"/epics/1", servertest.RootToken, url.Values{})
	assert.Equal(t, 400, r.Status, r.String())
	assert.Contains(t, r.String(), "at least one parameter must be provided")
	r = in.Do(t, "POST", "/groups/"+gid+"/epics", servertest.RootToken, url.Values{"title": {"x"}, "color": {"nope"}})
	assert.Equal(t, 400, r.Status, r.String())
	servertest.RequireError(t, in.Do(t, "GET", "/groups/"+gid+"/epics/99", servertest.RootToken, nil), 404, "message", "404 Epic Not Found")
	servertest.RequireError(t, in.Do(t, "GET", "/groups/"+gid+"/epics/x", servertest.RootToken, nil), 400, "error", "epic_iid is invalid")

	// Delete takes the epic's descendants with it; iids are not reused.
	r = in.Do(t, "DELETE", "/groups/"+gid+"/epics/1", servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	assert.Equal(t, []int{}, iids(t, in.Do(t, "GET", "/groups/"+gid+"/epics", "", nil)))
	again := newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"Again"}})
	assert.Equal(t, 2, num(again["iid"]))
}
