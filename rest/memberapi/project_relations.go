package memberapi

import (
	"slices"
	"strconv"

	"anvil/internal/authz"
	"anvil/internal/service/members"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// accessLevel reads an optional access level parameter, refused outside GitLab's levels.
func accessLevel(b *params.Binder, name string) int {
	v := b.Int(name)
	if v == nil {
		return 0
	}
	if !authz.ValidMemberLevel(*v) {
		b.Fail(name + " does not have a valid value")
		return 0
	}
	return *v
}

// projectUsers handles GET /projects/:id/users.
func (h *handlers) projectUsers(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := members.ProjectUsersParams{Search: b.StringDefault("search", ""), SkipUsers: b.Ints("skip_users")}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.ProjectUsers(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.UserBasics(r.Items))
}

// projectGroups handles GET /projects/:id/groups.
func (h *handlers) projectGroups(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := members.ProjectGroupsParams{
		Search: b.StringDefault("search", ""), SkipGroups: b.Ints("skip_groups"),
		WithShared:           b.BoolDefault("with_shared", false),
		SharedVisibleOnly:    b.BoolDefault("shared_visible_only", false),
		SharedMinAccessLevel: accessLevel(b, "shared_min_access_level"),
		CustomAttributes:     b.BoolDefault("with_custom_attributes", false),
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.ProjectGroups(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.PublicGroups(r.Items))
}

// invitedGroups handles GET /projects/:id/invited_groups.
func (h *handlers) invitedGroups(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := members.InvitedGroupsParams{
		Relations: b.Strings("relation"), Search: b.StringDefault("search", ""),
		MinAccessLevel:   accessLevel(b, "min_access_level"),
		CustomAttributes: b.BoolDefault("with_custom_attributes", false),
	}
	for _, r := range p.Relations {
		if !slices.Contains([]string{"direct", "inherited"}, r) {
			b.Fail("relation does not have a valid value")
			break
		}
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.InvitedGroups(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.PublicGroups(r.Items))
}

// userMemberships handles GET /users/:id/memberships (administrators): type is Project or
// Namespace.
func (h *handlers) userMemberships(c *gin.Context) error {
	id, convErr := strconv.Atoi(httpx.PathParam(c, "id"))
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	if convErr != nil {
		b.Fail("user_id is invalid")
	}
	typ := b.StringDefault("type", "")
	b.Enum("type", members.SourceProject, members.SourceNamespace)
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.members.UserMemberships(c.Request.Context(), httpx.Actor(c), id, typ, page)
	if err != nil {
		return err
	}
	pr := httpx.P(c)
	return httpx.Page(c, pr.BaseURL, r, pr.UserMemberships(r.Items))
}
