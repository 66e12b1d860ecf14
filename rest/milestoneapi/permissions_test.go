package milestoneapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
)

// TestMilestonePermissions: readers read; Reporters create and update; deletion needs Reporter
// in a project and Developer in a group (the spec's roles); private owners are 404 to others.
func TestMilestonePermissions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "perm", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	type caller struct{ name, token string }
	callers := []caller{{"anonymous", ""}}
	_, tok := in.NewUser(t, "nonmember")
	callers = append(callers, caller{"non-member", tok})
	for _, l := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}} {
		u, tok := in.NewUser(t, l.name)
		in.AddGroupMember(t, g, u, l.level)
		callers = append(callers, caller{l.name, tok})
	}
	type want struct{ read, create, update, del int }
	project := map[string]want{
		"anonymous":  {404, 401, 401, 401},
		"non-member": {404, 404, 404, 404},
		"guest":      {200, 403, 403, 403},
		"reporter":   {200, 201, 200, 204},
		"developer":  {200, 201, 200, 204},
		"maintainer": {200, 201, 200, 204},
		"owner":      {200, 201, 200, 204},
	}
	group := map[string]want{
		"anonymous":  {404, 401, 401, 401},
		"non-member": {404, 404, 404, 404},
		"guest":      {200, 403, 403, 403},
		"reporter":   {200, 201, 200, 403},
		"developer":  {200, 201, 200, 204},
		"maintainer": {200, 201, 200, 204},
		"owner":      {200, 201, 200, 204},
	}
	for _, owner := range []struct {
		base string
		want map[string]want
	}{
		{"/projects/" + strconv.Itoa(p.ID) + "/milestones", project},
		{"/groups/" + strconv.Itoa(g.ID) + "/milestones", group},
	} {
		for _, c := range callers {
			w := owner.want[c.name]
			m := create(t, in, owner.base, url.Values{"title": {owner.base + " for " + c.name}})
			path := owner.base + "/" + strconv.Itoa(int(m["id"].(float64)))
			label := owner.base + " " + c.name
			assert.Equal(t, w.read, in.Do(t, "GET", owner.base, c.token, nil).Status, label+" list")
			assert.Equal(t, w.read, in.Do(t, "GET", path, c.token, nil).Status, label+" read")
			assert.Equal(t, w.read, in.Do(t, "GET", path+"/issues", c.token, nil).Status, label+" issues")
			assert.Equal(t, w.create, in.Do(t, "POST", owner.base, c.token, url.Values{"title": {"new by " + c.name}}).Status, label+" create")
			assert.Equal(t, w.update, in.Do(t, "PUT", path, c.token, url.Values{"state_event": {"close"}}).Status, label+" update")
			assert.Equal(t, w.del, in.Do(t, "DELETE", path, c.token, nil).Status, label+" delete")
		}
	}
}

// TestMilestonePromote: a project milestone becomes a group milestone, taking the issues of
// same-titled milestones in the group's projects; Guests of the group may not.
func TestMilestonePromote(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "promo", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	q := in.NewProject(t, g, "lib", "public")
	solo, _ := in.NewUser(t, "solo")
	user := in.NewProject(t, in.PersonalNamespace(t, solo), "mine", "public")
	guest, gtok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	reporter, rtok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)

	m := create(t, in, "/projects/"+strconv.Itoa(p.ID)+"/milestones", url.Values{"title": {"1.0"}, "due_date": {"2030-01-01"}})
	mq := create(t, in, "/projects/"+strconv.Itoa(q.ID)+"/milestones", url.Values{"title": {"1.0"}})
	for _, pair := range [][2]int{{p.ID, int(m["id"].(float64))}, {q.ID, int(mq["id"].(float64))}} {
		r := in.Do(t, "POST", "/projects/"+strconv.Itoa(pair[0])+"/issues", servertest.RootToken,
			url.Values{"title": {"work"}, "milestone_id": {strconv.Itoa(pair[1])}})
		assert.Equal(t, 201, r.Status, r.String())
	}
	path := "/projects/" + strconv.Itoa(p.ID) + "/milestones/" + strconv.Itoa(int(m["id"].(float64))) + "/promote"
	assert.Equal(t, 403, in.Do(t, "POST", path, gtok, nil).Status)
	r := in.Do(t, "POST", path, rtok, nil)
	assert.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, r.Body)

	got := decode[[]map[string]any](t, in.Do(t, "GET", "/groups/"+strconv.Itoa(g.ID)+"/milestones", "", nil))
	if assert.Len(t, got, 1) {
		assert.Equal(t, "1.0", got[0]["title"])
		assert.Equal(t, "2030-01-01", got[0]["due_date"])
		assert.Equal(t, float64(g.ID), got[0]["group_id"])
	}
	assert.Equal(t, []string{}, titles(t, in.Do(t, "GET", "/projects/"+strconv.Itoa(q.ID)+"/milestones", "", nil)))
	for _, pid := range []int{p.ID, q.ID} {
		is := decode[[]map[string]any](t, in.Do(t, "GET", "/projects/"+strconv.Itoa(pid)+"/issues", "", nil))
		assert.Equal(t, "1.0", is[0]["milestone"].(map[string]any)["title"])
		assert.Equal(t, float64(g.ID), is[0]["milestone"].(map[string]any)["group_id"])
	}
	// A personal project has no group to promote to.
	pm := create(t, in, "/projects/"+strconv.Itoa(user.ID)+"/milestones", url.Values{"title": {"solo"}})
	r = in.Do(t, "POST", "/projects/"+strconv.Itoa(user.ID)+"/milestones/"+strconv.Itoa(int(pm["id"].(float64)))+"/promote", servertest.RootToken, nil)
	assert.Equal(t, 403, r.Status, r.String())
}
