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
