package memberapi_test

import (
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMembers_permissionMatrix checks every member route for anonymous callers, non-members,
// Guest to Owner members, and administrators, on private, internal and public groups and
// projects: 401 without a user, 404 where the source is invisible, 403 for visible callers who
// do not manage members (Owner for groups, Maintainer for projects).
func TestMembers_permissionMatrix(t *testing.T) {
	in := servertest.Start(t)
	type source struct {
		kind, vis string
		path      string // ".../members"
		notFound  string
		group     *ent.Namespace
		project   *ent.Project
	}
	var sources []source
	var groups []*ent.Namespace
	for _, vis := range []string{"private", "internal", "public"} {
		g := in.NewGroup(t, "mx-"+vis, vis, nil)
		p := in.NewProject(t, g, "proj", vis)
		groups = append(groups, g)
		sources = append(sources,
			source{kind: "group", vis: vis, path: gpath(g), notFound: `{"message":"404 Group Not Found"}`, group: g},
			source{kind: "project", vis: vis, path: ppath(p), notFound: `{"message":"404 Project Not Found"}`, project: p})
	}
	callers := servertest.Roles(t, in, "mx", groups...)
	target, _ := in.NewUser(t, "mx-target")
	newcomer, _ := in.NewUser(t, "mx-newcomer")
	reset := func(s source) {
		dropMembers(t, in, target)
		dropMembers(t, in, newcomer)
		if s.group != nil {
			in.AddGroupMember(t, s.group, target, 20)
		} else {
			in.AddProjectMember(t, s.project, target, 20)
		}
	}
	for _, s := range sources {
		for _, c := range callers {
			visible := c.Token != "" && (s.vis != "private" || c.Level > 0 || c.Name == "admin")
			manager := c.Name == "admin" || c.Level == 50 || (s.kind == "project" && c.Level == 40)
			status := func(method string, ok int) int {
				switch {
				case c.Token == "":
					return http.StatusUnauthorized
				case !visible:
					return http.StatusNotFound
				case method != "GET" && !manager:
					return http.StatusForbidden
				}
				return ok
			}
			t.Run(s.kind+"/"+s.vis+"/"+c.Name, func(t *testing.T) {
				reset(s)
				for _, op := range []struct {
					method, path, body string
					ok                 int
				}{
					{"GET", s.path, "", 200},
					{"GET", s.path + "/all", "", 200},
					{"GET", s.path + "/" + itoa(target.ID), "", 200},
					{"GET", s.path + "/all/" + itoa(target.ID), "", 200},
					{"POST", s.path, `{"user_id":` + itoa(newcomer.ID) + `,"access_level":30}`, 201},
					{"PUT", s.path + "/" + itoa(target.ID), `{"access_level":30}`, 200},
					{"DELETE", s.path + "/" + itoa(target.ID), "", 204},
				} {
					var body any
					if op.body != "" {
						body = op.body
					}
					r := in.Do(t, op.method, op.path, c.Token, body)
					want := status(op.method, op.ok)
					require.Equal(t, want, r.Status, "%s %s: %s", op.method, op.path, r.String())
					switch want {
					case http.StatusUnauthorized:
						assert.JSONEq(t, `{"message":"401 Unauthorized"}`, string(r.Body))
					case http.StatusNotFound:
						assert.JSONEq(t, s.notFound, string(r.Body))
					case http.StatusForbidden:
						assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
					case http.StatusOK:
						if op.method == "GET" && (op.path == s.path || op.path == s.path+"/all") {
							assert.Contains(t, levels(t, r), target.ID)
						}
					}
				}
			})
		}
	}
}
