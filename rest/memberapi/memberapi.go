// Package memberapi serves the member endpoints of groups and projects: /groups/:id/members,
// /projects/:id/members (direct and /all), adding, editing and removing members, and the
// billable members of top-level groups, which need a signed-in user as in GitLab; and the users
// and groups of a project and a user's memberships.
package memberapi

import (
	"strconv"

	"anvil/internal/apperr"
	"anvil/internal/service/members"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	members *members.Service
	kind    members.Kind
}

// Register adds the member routes.
func Register(t *route.Table) {
	for _, r := range []struct {
		prefix string
		kind   members.Kind
	}{{"/groups", members.GroupKind}, {"/projects", members.ProjectKind}} {
		h := &handlers{members: t.S.Members, kind: r.kind}
		t.GET(r.prefix+"/:id/members", h.list, route.SignedIn)
		t.GET(r.prefix+"/:id/members/all", h.listAll, route.SignedIn)
		t.GET(r.prefix+"/:id/members/:user_id", h.get, route.SignedIn)
		t.GET(r.prefix+"/:id/members/all/:user_id", h.getAll, route.SignedIn)
		t.POST(r.prefix+"/:id/members", h.add, route.SignedIn)
		t.PUT(r.prefix+"/:id/members/:user_id", h.update, route.SignedIn)
		t.DELETE(r.prefix+"/:id/members/:user_id", h.remove, route.SignedIn)
	}
	h := &handlers{members: t.S.Members, kind: members.GroupKind}
	// The users and groups of a project are readable by anyone who may read the project.
	t.GET("/projects/:id/users", h.projectUsers)
	t.GET("/projects/:id/groups", h.projectGroups)
	t.GET("/projects/:id/invited_groups", h.invitedGroups)
	t.GET("/users/:id/memberships", h.userMemberships, route.AdminOnly)
	t.GET("/groups/:id/billable_members", h.billable, route.SignedIn)
	t.GET("/groups/:id/billable_members/:user_id/memberships", h.billableMemberships, route.SignedIn)
	t.DELETE("/groups/:id/billable_members/:user_id", h.removeBillable, route.SignedIn)
}

// ref is the route's group or project.
func (h *handlers) ref(c *gin.Context) members.Ref {
	return members.Ref{Kind: h.kind, ID: httpx.PathParam(c, "id")}
}

// userID reads the :user_id path parameter, an integer as Grape declares it: 400
// {"error":"user_id is invalid"} otherwise.
func userID(c *gin.Context) (int, error) {
	n, err := strconv.Atoi(httpx.PathParam(c, "user_id"))
	if err != nil {
		return 0, apperr.Invalid("user_id")
	}
	return n, nil
}
