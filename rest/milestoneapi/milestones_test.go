package milestoneapi_test

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func decode[T any](t *testing.T, r *servertest.Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

// create posts a milestone and returns its JSON.
func create(t *testing.T, in *servertest.Instance, path string, form url.Values) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", path, servertest.RootToken, form)
	require.Equal(t, 201, r.Status, r.String())
	return decode[map[string]any](t, r)
}

// titles lists the titles of a milestone list answer, sorted.
func titles(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, m := range decode[[]map[string]any](t, r) {
		out = append(out, m["title"].(string))
	}
	sort.Strings(out)
	return out
}

// TestMilestoneShapeAndLifecycle: the milestone JSON of a project and a group, iids per owner,
// update with state_event, validation, deletion and the milestone's issues.
func TestMilestoneShapeAndLifecycle(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "ms", "public", nil)
	sub := in.NewGroup(t, "sub", "public", g)
	p := in.NewProject(t, g, "app", "public")
	subp := in.NewProject(t, sub, "lib", "public")
	pbase := "/projects/" + strconv.Itoa(p.ID) + "/milestones"
	gbase := "/groups/" + strconv.Itoa(g.ID) + "/milestones"

	m := create(t, in, pbase, url.Values{"title": {"v1"}, "description": {"first"}, "start_date": {"2020-01-01"}, "due_date": {"2020-02-01"}})
	assert.Equal(t, float64(1), m["iid"])
	assert.Equal(t, float64(p.ID), m["project_id"])
	assert.NotContains(t, m, "group_id")
	for k, v := range map[string]any{"title": "v1", "description": "first", "state": "active", "start_date": "2020-01-01",
		"due_date": "2020-02-01", "expired": true, "web_url": in.URL + "/ms/app/-/milestones/1"} {
		assert.Equal(t, v, m[k], k)
	}
	assert.Len(t, m, 12)
	m2 := create(t, in, pbase, url.Values{"title": {"v2"}})
	assert.Equal(t, float64(2), m2["iid"])
	assert.Nil(t, m2["due_date"])
	assert.Nil(t, m2["description"])
	assert.Equal(t, false, m2["expired"])

	gm := create(t, in, gbase, url.Values{"title": {"g1"}, "due_date": {time.Now().AddDate(0, 0, 10).Format("2006-01-02")}})
	assert.Equal(t, float64(1), gm["iid"], "groups count their own iids")
	assert.Equal(t, float64(g.ID), gm["group_id"])
	assert.NotContains(t, gm, "project_id")
	assert.Equal(t, in.URL+"/groups/ms/-/milestones/1", gm["web_url"])
	assert.Equal(t, false, gm["expired"])

	id := strconv.Itoa(int(m["id"].(float64)))
	r := in.Do(t, "PUT", pbase+"/"+id, servertest.RootToken, url.Values{"state_event": {"close"}, "title": {"v1.0"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "closed", decode[map[string]any](t, r)["state"])
	assert.Equal(t, "v1.0", decode[map[string]any](t, r)["title"])
	r = in.Do(t, "PUT", pbase+"/"+id, servertest.RootToken, url.Values{"state_event": {"activate"}})
	assert.Equal(t, "active", decode[map[string]any](t, r)["state"])

	for _, c := range []struct {
		method, path string
		form         url.Values
		status       int
		body         string
	}{
		{"POST", pbase, url.Values{"description": {"x"}}, 400, `{"error":"title is missing"}`},
		{"POST", pbase, url.Values{"title": {"v2"}}, 400, `{"message":"Failed to create milestone {:title=>[\"already being used for another group or project milestone.\"]}"}`},
		{"POST", pbase, url.Values{"title": {"v3"}, "start_date": {"2020-02-01"}, "due_date": {"2020-01-01"}}, 400, `{"message":"Failed to create milestone {:due_date=>[\"must be greater than start date\"]}"}`},
		{"PUT", pbase + "/" + id, url.Values{}, 400, `{"error":"title, description, start_date, due_date, state_event are missing, at least one parameter must be provided"}`},
		{"PUT", pbase + "/" + id, url.Values{"state_event": {"open"}}, 400, `{"error":"state_event does not have a valid value"}`},
		{"PUT", pbase + "/" + id, url.Values{"title": {"v2"}}, 400, `{"message":"Failed to update milestone {:title=>[\"already being used for another group or project milestone.\"]}"}`},
		{"GET", pbase + "/99999", nil, 404, `{"message":"404 Not found"}`},
		{"GET", gbase + "/" + id, nil, 404, `{"message":"404 Not found"}`},
		{"GET", pbase + "/x", nil, 400, `{"error":"milestone_id is invalid"}`},
		{"GET", "/projects/999/milestones", nil, 404, `{"message":"404 Project Not Found"}`},
		{"GET", gbase + "?start_date=2020-01-01", nil, 400, `{"error":"start_date, end_date provide all or none of parameters"}`},
		{"GET", pbase + "?state=open", nil, 400, `{"error":"state does not have a valid value"}`},
	} {
		r := in.Do(t, c.method, c.path, servertest.RootToken, c.form)
		assert.Equal(t, c.status, r.Status, c.method+" "+c.path+" "+r.String())
		assert.JSONEq(t, c.body, string(r.Body), c.method+" "+c.path)
	}

	// A milestone's issues: the project's; a group milestone's in the group's own projects only.
	issue := func(pid, msID int, title string) {
		r := in.Do(t, "POST", "/projects/"+strconv.Itoa(pid)+"/issues", servertest.RootToken,
			url.Values{"title": {title}, "milestone_id": {strconv.Itoa(msID)}})
		require.Equal(t, 201, r.Status, r.String())
	}
	issue(p.ID, int(m["id"].(float64)), "in v1")
	issue(p.ID, int(gm["id"].(float64)), "in g1")
	issue(subp.ID, int(gm["id"].(float64)), "sub in g1")
	r = in.Do(t, "GET", pbase+"/"+id+"/issues", "", nil)
	assert.Equal(t, []string{"in v1"}, titles(t, r))
	r = in.Do(t, "GET", gbase+"/"+strconv.Itoa(int(gm["id"].(float64)))+"/issues", "", nil)
	assert.Equal(t, []string{"in g1"}, titles(t, r))
	r = in.Do(t, "GET", pbase+"/"+id+"/merge_requests", "", nil)
	require.Equal(t, 200, r.Status)
	assert.JSONEq(t, `[]`, string(r.Body))

	// Deleting a milestone leaves its issues without one.
	r = in.Do(t, "DELETE", pbase+"/"+id, servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues?milestone=None", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status)
	assert.Len(t, decode[[]any](t, r), 1)
	assert.Equal(t, 404, in.Do(t, "GET", pbase+"/"+id, servertest.RootToken, nil).Status)
	// The iid of a deleted milestone is not reused.
	assert.Equal(t, float64(3), create(t, in, pbase, url.Values{"title": {"v3"}})["iid"])
}

// TestMilestoneListFilters: each list filter of project and group milestones.
func TestMilestoneListFilters(t *testing.T) {
	in := servertest.Start(t)
	top := in.NewGroup(t, "top", "public", nil)
	g := in.NewGroup(t, "mid", "public", top)
	sub := in.NewGroup(t, "leaf", "public", g)
	p := in.NewProject(t, g, "app", "public")
	subp := in.NewProject(t, sub, "lib", "public")
	hidden := in.NewProject(t, sub, "hidden", "private")
	pbase := "/projects/" + strconv.Itoa(p.ID) + "/milestones"
	gbase := "/groups/" + strconv.Itoa(g.ID) + "/milestones"

	create(t, in, pbase, url.Values{"title": {"Alpha release"}, "description": {"first cut"}, "start_date": {"2021-01-01"}, "due_date": {"2021-01-31"}})
	beta := create(t, in, pbase, url.Values{"title": {"Beta"}})
	in.Do(t, "PUT", pbase+"/"+strconv.Itoa(int(beta["id"].(float64))), servertest.RootToken, url.Values{"state_event": {"close"}})
	create(t, in, gbase, url.Values{"title": {"Group Plan"}, "start_date": {"2021-03-01"}, "due_date": {"2021-03-31"}})
	create(t, in, gbase, url.Values{"title": {"group release"}, "description": {"ALPHA quality"}})
	create(t, in, "/groups/"+strconv.Itoa(top.ID)+"/milestones", url.Values{"title": {"Top"}})
	create(t, in, "/groups/"+strconv.Itoa(sub.ID)+"/milestones", url.Values{"title": {"Leaf"}})
	create(t, in, "/projects/"+strconv.Itoa(subp.ID)+"/milestones", url.Values{"title": {"Lib"}})
	create(t, in, "/projects/"+strconv.Itoa(hidden.ID)+"/milestones", url.Values{"title": {"Hidden"}})

	for _, c := range []struct {
		path  string
		token string
		want  []string
	}{
		{pbase, "", []string{"Alpha release", "Beta"}},
		{pbase + "?state=active", "", []string{"Alpha release"}},
		{pbase + "?state=closed", "", []string{"Beta"}},
		{pbase + "?iids[]=2", "", []string{"Beta"}},
		{pbase + "?iids=1,2", "", []string{"Alpha release", "Beta"}},
		{pbase + "?title=Beta", "", []string{"Beta"}},
		{pbase + "?title=beta", "", []string{}},
		{pbase + "?search=FIRST", "", []string{"Alpha release"}},
		{pbase + "?include_ancestors=true", "", []string{"Alpha release", "Beta", "Group Plan", "Top", "group release"}},
		{pbase + "?include_parent_milestones=true", "", []string{"Alpha release", "Beta", "Group Plan", "Top", "group release"}},
		{pbase + "?include_ancestors=true&iids[]=2", "", []string{"Alpha release", "Beta", "Group Plan", "Top", "group release"}},
		{pbase + "?updated_after=2000-01-01T00:00:00Z", "", []string{"Alpha release", "Beta"}},
		{pbase + "?updated_before=2000-01-01T00:00:00Z", "", []string{}},
		{gbase, "", []string{"Group Plan", "group release"}},
		{gbase + "?search=alpha", "", []string{"group release"}},
		{gbase + "?search_title=group+REL", "", []string{"group release"}},
		{gbase + "?search_title=group", "", []string{"Group Plan", "group release"}},
		{gbase + "?include_ancestors=true", "", []string{"Group Plan", "Top", "group release"}},
		{gbase + "?include_descendants=true", "", []string{"Alpha release", "Beta", "Group Plan", "Leaf", "Lib", "group release"}},
		{gbase + "?include_descendants=true", servertest.RootToken, []string{"Alpha release", "Beta", "Group Plan", "Hidden", "Leaf", "Lib", "group release"}},
		{gbase + "?containing_date=2021-03-15", "", []string{"Group Plan"}},
		{gbase + "?containing_date=2021-04-15", "", []string{}},
		{gbase + "?start_date=2021-03-20&end_date=2021-05-01", "", []string{"Group Plan"}},
		{gbase + "?start_date=2020-01-01&end_date=2020-02-01", "", []string{}},
	} {
		assert.Equal(t, c.want, titles(t, in.Do(t, "GET", c.path, c.token, nil)), c.path)
	}
	// Due date first, undated last (then by title, in the database's collation).
	var order []string
	for _, m := range decode[[]map[string]any](t, in.Do(t, "GET", pbase+"?include_ancestors=true", "", nil)) {
		order = append(order, m["title"].(string))
	}
	require.Len(t, order, 5)
	assert.Equal(t, []string{"Alpha release", "Group Plan"}, order[:2])
}
