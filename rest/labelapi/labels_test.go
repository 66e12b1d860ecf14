package labelapi_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

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

func names(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, l := range decode[[]map[string]any](t, r) {
		out = append(out, l["name"].(string))
	}
	return out
}

// TestLabels: project and group labels, their shapes, colors, counts, inheritance,
// subscriptions, validation and promotion.
func TestLabels(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "lab", "public", nil)
	sub := in.NewGroup(t, "sub", "public", g)
	p := in.NewProject(t, sub, "app", "public")
	other := in.NewProject(t, g, "other", "public")
	pbase := "/projects/" + strconv.Itoa(p.ID) + "/labels"
	gbase := "/groups/" + strconv.Itoa(g.ID) + "/labels"
	root := servertest.RootToken

	r := in.Do(t, "POST", pbase, root, url.Values{"name": {"bug"}, "color": {"#d9534f"}, "description": {"Broken"}, "priority": {"2"}})
	require.Equal(t, 201, r.Status, r.String())
	bug := decode[map[string]any](t, r)
	assert.Equal(t, map[string]any{"id": bug["id"], "name": "bug", "description": "Broken",
		"description_html": `<p data-sourcepos="1:1-1:6" dir="auto">Broken</p>`, "text_color": "#FFFFFF",
		"color": "#d9534f", "subscribed": false, "priority": float64(2), "is_project_label": true}, bug)
	r = in.Do(t, "POST", gbase, root, url.Values{"name": {"team"}, "color": {"yellow"}})
	require.Equal(t, 201, r.Status, r.String())
	team := decode[map[string]any](t, r)
	assert.Equal(t, map[string]any{"id": team["id"], "name": "team", "description": nil, "description_html": "",
		"text_color": "#333333", "color": "#ffff00", "subscribed": false}, team)

	// Group labels apply in descendants: listed, and applied to issues by name.
	assert.Equal(t, []string{"bug", "team"}, names(t, in.Do(t, "GET", pbase, "", nil)))
	assert.Equal(t, []string{"bug"}, names(t, in.Do(t, "GET", pbase+"?include_ancestor_groups=false", "", nil)))
	assert.Equal(t, []string{"team"}, names(t, in.Do(t, "GET", "/groups/"+strconv.Itoa(sub.ID)+"/labels", "", nil)))
	assert.Equal(t, []string{}, names(t, in.Do(t, "GET", "/groups/"+strconv.Itoa(sub.ID)+"/labels?include_ancestor_groups=false", "", nil)))
	assert.Equal(t, []string{"team"}, names(t, in.Do(t, "GET", gbase+"?search=TEA", "", nil)))
	r = in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", root, url.Values{"title": {"x"}, "labels": {"team,bug,fresh"}})
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/issues", root, url.Values{"title": {"y"}, "labels": {"team"}})
	require.Equal(t, 201, r.Status, r.String())
	in.Do(t, "PUT", "/projects/"+strconv.Itoa(p.ID)+"/issues/2", root, url.Values{"state_event": {"close"}})
	assert.Equal(t, []string{"bug", "fresh", "team"}, names(t, in.Do(t, "GET", pbase, "", nil)), "a missing label is created")
	got := decode[[]map[string]any](t, in.Do(t, "GET", pbase+"?with_counts=true", "", nil))
	assert.Equal(t, float64(1), got[2]["open_issues_count"])
	assert.Equal(t, float64(1), got[2]["closed_issues_count"])
	assert.Equal(t, float64(0), got[2]["open_merge_requests_count"])
	assert.Equal(t, false, got[2]["is_project_label"])
	assert.NotContains(t, decode[[]map[string]any](t, in.Do(t, "GET", pbase, "", nil))[0], "open_issues_count")
	gl := decode[[]map[string]any](t, in.Do(t, "GET", gbase+"?with_counts=true", "", nil))
	assert.Equal(t, float64(1), gl[0]["open_issues_count"], "group counts include subgroups' projects")

	// Read by id or title; update; validation; conflicts.
	bugID := strconv.Itoa(int(bug["id"].(float64)))
	assert.Equal(t, "bug", decode[map[string]any](t, in.Do(t, "GET", pbase+"/"+bugID, "", nil))["name"])
	assert.Equal(t, "team", decode[map[string]any](t, in.Do(t, "GET", pbase+"/team", "", nil))["name"])
	r = in.Do(t, "PUT", pbase+"/bug", root, url.Values{"new_name": {"defect"}, "color": {"#FFF"}, "priority": {""}})
	require.Equal(t, 200, r.Status, r.String())
	upd := decode[map[string]any](t, r)
	assert.Equal(t, "defect", upd["name"])
	assert.Equal(t, "#FFF", upd["color"])
	assert.Equal(t, "#333333", upd["text_color"])
	assert.Nil(t, upd["priority"])
	for _, c := range []struct {
		method, path string
		form         url.Values
		status       int
		body         string
	}{
		{"POST", pbase, url.Values{"color": {"red"}}, 400, `{"error":"name is missing"}`},
		{"POST", pbase, url.Values{"name": {"x"}, "color": {"nocolor"}}, 400, `{"message":{"color":["must be a valid color code"]}}`},
		{"POST", pbase, url.Values{"name": {"a,b"}, "color": {"red"}}, 400, `{"message":{"title":["is invalid"]}}`},
		{"POST", pbase, url.Values{"name": {"defect"}, "color": {"red"}}, 409, `{"message":"Label already exists"}`},
		{"PUT", pbase + "/defect", url.Values{}, 400, `{"error":"new_name, color, description, priority are missing, at least one parameter must be provided"}`},
		{"PUT", pbase + "/team", url.Values{"color": {"red"}}, 404, `{"message":"404 Label Not Found"}`},
		{"GET", pbase + "/nope", nil, 404, `{"message":"404 Label Not Found"}`},
		{"DELETE", pbase + "/team", nil, 404, `{"message":"404 Label Not Found"}`},
	} {
		r := in.Do(t, c.method, c.path, root, c.form)
		assert.Equal(t, c.status, r.Status, c.method+" "+c.path+" "+r.String())
		assert.JSONEq(t, c.body, string(r.Body), c.method+" "+c.path)
	}

	// Subscriptions: 201 with subscribed true, 304 when unchanged.
	r = in.Do(t, "POST", pbase+"/team/subscribe", root, nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, true, decode[map[string]any](t, r)["subscribed"])
	assert.Equal(t, 304, in.Do(t, "POST", pbase+"/team/subscribe", root, nil).Status)
	assert.Equal(t, true, decode[map[string]any](t, in.Do(t, "GET", gbase+"/team", root, nil))["subscribed"])
	r = in.Do(t, "POST", gbase+"/team/unsubscribe", root, nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, false, decode[map[string]any](t, r)["subscribed"])
	assert.Equal(t, 304, in.Do(t, "POST", gbase+"/team/unsubscribe", root, nil).Status)

	// Promotion merges the title's project labels of the group's projects into a group label;
	// issues keep the label.
	r = in.Do(t, "POST", "/projects/"+strconv.Itoa(other.ID)+"/labels", root, url.Values{"name": {"fresh"}, "color": {"blue"}})
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "PUT", pbase+"/fresh/promote", root, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.NotContains(t, decode[map[string]any](t, r), "is_project_label")
	// p sits in lab/sub: the label becomes sub's; other (in lab, outside sub) keeps its own.
	subLabels := "/groups/" + strconv.Itoa(sub.ID) + "/labels"
	assert.Equal(t, []string{"fresh", "team"}, names(t, in.Do(t, "GET", subLabels, "", nil)))
	assert.Equal(t, []string{"fresh"}, names(t, in.Do(t, "GET", subLabels+"?include_ancestor_groups=false", "", nil)))
	assert.Equal(t, []string{}, names(t, in.Do(t, "GET", pbase+"?include_ancestor_groups=false&search=fresh", "", nil)))
	assert.Equal(t, []string{"fresh"}, names(t, in.Do(t, "GET", "/projects/"+strconv.Itoa(other.ID)+"/labels?include_ancestor_groups=false", "", nil)))
	assert.Equal(t, 200, in.Do(t, "PUT", "/projects/"+strconv.Itoa(other.ID)+"/labels/fresh/promote", root, nil).Status)
	assert.Equal(t, []string{"fresh", "team"}, names(t, in.Do(t, "GET", gbase, "", nil)))
	assert.Equal(t, 404, in.Do(t, "PUT", "/projects/"+strconv.Itoa(other.ID)+"/labels/"+bugID+"/promote", root, nil).Status,
		"another project's label")
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues?labels=fresh", root, nil)
	require.Equal(t, 200, r.Status)
	assert.Len(t, decode[[]any](t, r), 1)

	// Deleting a label takes it off its issues.
	require.Equal(t, 204, in.Do(t, "DELETE", pbase+"/defect", root, nil).Status)
	is := decode[map[string]any](t, in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/1", root, nil))
	assert.Equal(t, []any{"fresh", "team"}, is["labels"])
}

// TestLabelPermissions: readers list, Reporters manage; hidden owners are 404.
func TestLabelPermissions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "perm", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	guest, gtok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	reporter, rtok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)
	_, otok := in.NewUser(t, "outsider")
	for _, base := range []string{"/projects/" + strconv.Itoa(p.ID) + "/labels", "/groups/" + strconv.Itoa(g.ID) + "/labels"} {
		assert.Equal(t, 404, in.Do(t, "GET", base, "", nil).Status, base)
		assert.Equal(t, 404, in.Do(t, "GET", base, otok, nil).Status, base)
		assert.Equal(t, 200, in.Do(t, "GET", base, gtok, nil).Status, base)
		assert.Equal(t, 401, in.Do(t, "POST", base, "", url.Values{"name": {"a"}, "color": {"red"}}).Status, base)
		assert.Equal(t, 404, in.Do(t, "POST", base, otok, url.Values{"name": {"a"}, "color": {"red"}}).Status, base)
		assert.Equal(t, 403, in.Do(t, "POST", base, gtok, url.Values{"name": {"a"}, "color": {"red"}}).Status, base)
		assert.Equal(t, 201, in.Do(t, "POST", base, rtok, url.Values{"name": {"a"}, "color": {"red"}}).Status, base)
		assert.Equal(t, 403, in.Do(t, "PUT", base+"/a", gtok, url.Values{"color": {"blue"}}).Status, base)
		assert.Equal(t, 200, in.Do(t, "PUT", base+"/a", rtok, url.Values{"color": {"blue"}}).Status, base)
		assert.Equal(t, 201, in.Do(t, "POST", base+"/a/subscribe", gtok, nil).Status, base)
		assert.Equal(t, 403, in.Do(t, "DELETE", base+"/a", gtok, nil).Status, base)
		assert.Equal(t, 204, in.Do(t, "DELETE", base+"/a", rtok, nil).Status, base)
	}
}

// TestLabels_updateAndDeleteByParameter: GitLab's older PUT and DELETE .../labels name the
// label with exactly one of label_id and name; python-gitlab's label.save() sends
// PUT .../labels with name.
func TestLabels_updateAndDeleteByParameter(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "lab", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	pbase := "/projects/" + strconv.Itoa(p.ID) + "/labels"
	gbase := "/groups/" + strconv.Itoa(g.ID) + "/labels"
	root := servertest.RootToken

	r := in.Do(t, "POST", pbase, root, url.Values{"name": {"bug"}, "color": {"#d9534f"}})
	require.Equal(t, 201, r.Status, r.String())
	id := strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64)))
	require.Equal(t, 201, in.Do(t, "POST", gbase, root, url.Values{"name": {"team"}, "color": {"yellow"}}).Status)

	r = in.Do(t, "PUT", pbase, root, `{"name":"bug","description":"Broken"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	got := decode[map[string]any](t, r)
	assert.Equal(t, "bug", got["name"])
	assert.Equal(t, "Broken", got["description"])
	r = in.Do(t, "PUT", pbase, root, url.Values{"label_id": {id}, "new_name": {"defect"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "defect", decode[map[string]any](t, r)["name"])
	r = in.Do(t, "PUT", gbase, root, `{"name":"team","color":"#FF0000"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "#FF0000", decode[map[string]any](t, r)["color"])

	for _, c := range []struct {
		method string
		body   any
		status int
		want   string
	}{
		{"PUT", url.Values{"color": {"red"}}, 400, `{"error":"label_id, name are missing, exactly one parameter must be provided"}`},
		{"PUT", url.Values{"name": {"defect"}, "label_id": {id}, "color": {"red"}}, 400, `{"error":"label_id, name are mutually exclusive"}`},
		{"PUT", url.Values{"name": {"nope"}, "color": {"red"}}, 404, `{"message":"404 Label Not Found"}`},
		{"DELETE", nil, 400, `{"error":"label_id, name are missing, exactly one parameter must be provided"}`},
	} {
		r := in.Do(t, c.method, pbase, root, c.body)
		assert.Equal(t, c.status, r.Status, r.String())
		assert.JSONEq(t, c.want, string(r.Body))
	}
	anon := in.Do(t, "PUT", pbase, "", url.Values{"name": {"defect"}, "color": {"red"}})
	assert.Equal(t, 401, anon.Status, anon.String())

	assert.Equal(t, 204, in.Do(t, "DELETE", pbase+"?name=defect", root, nil).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", gbase, root, url.Values{"name": {"team"}}).Status)
	assert.Equal(t, []string{}, names(t, in.Do(t, "GET", pbase, "", nil)))
}
