package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
)

// TestEpicPermissions: per role and group visibility, who reads, creates, updates and deletes
// epics, who reads confidential ones, and who changes the tree (GitLab's EpicPolicy and group
// policy: read with the group, write as Planner or Reporter and up, delete as Planner or
// Owner, confidential epics for Planner or Reporter and up, the tree for members).
func TestEpicPermissions(t *testing.T) {
	in := servertest.Start(t)
	type want struct{ read, readConfidential, create, update, del, tree int }
	for _, vis := range []string{"public", "private"} {
		g := in.NewGroup(t, "perm-"+vis, vis, nil)
		roles := servertest.Roles(t, in, vis, g)
		planner, ptok := in.NewUser(t, vis+"-planner")
		in.AddGroupMember(t, g, planner, 15)
		roles = append(roles, servertest.Role{Name: "planner", Token: ptok, User: planner, Level: 15})
		reader := map[string]want{
			"anonymous":  {200, 404, 401, 401, 401, 401},
			"non-member": {200, 404, 403, 403, 403, 403},
			"guest":      {200, 404, 403, 403, 403, 201},
			"planner":    {200, 200, 201, 200, 204, 201},
			"reporter":   {200, 200, 201, 200, 403, 201},
			"developer":  {200, 200, 201, 200, 403, 201},
			"maintainer": {200, 200, 201, 200, 403, 201},
			"owner":      {200, 200, 201, 200, 204, 201},
			"admin":      {200, 200, 201, 200, 204, 201},
		}
		if vis == "private" {
			reader["anonymous"] = want{404, 404, 401, 401, 401, 401}
			reader["non-member"] = want{404, 404, 404, 404, 404, 404}
		}
		base := "/groups/" + strconv.Itoa(g.ID) + "/epics"
		for _, c := range roles {
			w := reader[c.Name]
			label := vis + " " + c.Name
			open := newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"open for " + c.Name}})
			secret := newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"secret for " + c.Name}, "confidential": {"true"}})
			child := newEpic(t, in, g.ID, servertest.RootToken, url.Values{"title": {"child for " + c.Name}})
			path := base + "/" + strconv.Itoa(num(open["iid"]))
			assert.Equal(t, w.read, in.Do(t, "GET", base, c.Token, nil).Status, label+" list")
			assert.Equal(t, w.read, in.Do(t, "GET", path, c.Token, nil).Status, label+" read")
			assert.Equal(t, w.readConfidential, in.Do(t, "GET", base+"/"+strconv.Itoa(num(secret["iid"])), c.Token, nil).Status, label+" read confidential")
			assert.Equal(t, w.create, in.Do(t, "POST", base, c.Token, url.Values{"title": {"by " + c.Name}}).Status, label+" create")
			assert.Equal(t, w.update, in.Do(t, "PUT", path, c.Token, url.Values{"title": {"changed"}}).Status, label+" update")
			assert.Equal(t, w.tree, in.Do(t, "POST", path+"/epics/"+strconv.Itoa(num(child["id"])), c.Token, nil).Status, label+" assign child")
			assert.Equal(t, w.del, in.Do(t, "DELETE", path, c.Token, nil).Status, label+" delete")

			// Confidential epics never show in lists of those who may not read them.
			r := in.Do(t, "GET", base+"?search=secret+for+"+url.QueryEscape(c.Name), c.Token, nil)
			if r.Status == 200 {
				n := len(servertest.List(t, r))
				if w.readConfidential == 200 {
					assert.Equal(t, 1, n, label+" confidential in list")
				} else {
					assert.Equal(t, 0, n, label+" confidential hidden from list")
				}
			}
		}
	}
}
