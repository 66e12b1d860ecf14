// Package groupapi serves the group endpoints: /groups, one group, its subgroups and
// descendants, and sharing a group with another group.
package groupapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/statistics"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	groups   *groups.Service
	projects *projects.Service
	stats    *statistics.Service
}

// Register adds the group routes.
func Register(t *route.Table) {
	h := &handlers{groups: t.S.Groups, projects: t.S.Projects, stats: t.S.Statistics}
	t.GET("/groups", h.list)
	t.POST("/groups", h.create, route.SignedIn)
	t.GET("/groups/:id", h.get)
	t.PUT("/groups/:id", h.update, route.SignedIn)
	t.DELETE("/groups/:id", h.delete, route.SignedIn)
	t.GET("/groups/:id/subgroups", h.subgroups)
	t.GET("/groups/:id/descendant_groups", h.descendants)
	t.POST("/groups/:id/transfer", h.transfer, route.SignedIn)

	t.GET("/groups/:id/custom_attributes", h.listAttributes, route.AdminOnly)
	t.GET("/groups/:id/custom_attributes/:key", h.getAttribute, route.AdminOnly)
	t.PUT("/groups/:id/custom_attributes/:key", h.setAttribute, route.AdminOnly)
	t.DELETE("/groups/:id/custom_attributes/:key", h.deleteAttribute, route.AdminOnly)
	t.POST("/groups/:id/share", h.share, route.SignedIn)
	t.DELETE("/groups/:id/share/:group_id", h.unshare, route.SignedIn)
}

// list handles GET /groups.
func (h *handlers) list(c *gin.Context) error { return h.listUnder(c, "", false) }

// subgroups handles GET /groups/:id/subgroups.
func (h *handlers) subgroups(c *gin.Context) error {
	return h.listUnder(c, httpx.PathParam(c, "id"), false)
}

// descendants handles GET /groups/:id/descendant_groups.
func (h *handlers) descendants(c *gin.Context) error {
	return h.listUnder(c, httpx.PathParam(c, "id"), true)
}

func (h *handlers) listUnder(c *gin.Context, parent string, descendants bool) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	a := httpx.Actor(c)
	p, o, page, opts, err := bindList(b, a)
	if err != nil {
		return err
	}
	switch {
	case parent != "":
		// Subgroup listings page by offset only, and are not capped.
		page = pagination.Page{Offset: page.Offset}
	case page.Keyset:
		// GET /groups walks keyset pages in name, path or id order; similarity cannot be walked.
		if !slices.Contains(groups.KeysetOrders, o.By) {
			return httpx.NotAllowed("Keyset pagination is not yet available for this type of request")
		}
	default:
		// GET /groups caps its offset pages.
		if err := httpx.CapOffset(b, "Group"); err != nil {
			return err
		}
	}
	p.Parent, p.Descendants = parent, descendants
	load := groups.Load{CustomAttributes: opts.CustomAttributes}
	pr := httpx.P(c)
	r, err := h.groups.List(c.Request.Context(), a, p, o, page, load)
	if err != nil {
		return err
	}
	if opts, err = h.withStatistics(c, opts, r.Items); err != nil {
		return err
	}
	return httpx.Page(c, pr.BaseURL, r, pr.Groups(r.Items, opts))
}

// withStatistics loads the statistics statistics=true shows (administrators only, decided when
// binding): the sums over each group's projects.
func (h *handlers) withStatistics(c *gin.Context, opts presenter.GroupOptions, nss []*ent.Namespace) (presenter.GroupOptions, error) {
	if !opts.Statistics {
		return opts, nil
	}
	ids := make([]int, len(nss))
	for i, ns := range nss {
		ids[i] = ns.ID
	}
	var err error
	opts.StatisticsOf, err = h.stats.ForGroups(c.Request.Context(), ids)
	return opts, err
}

// get handles GET /groups/:id.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	withProjects := b.BoolDefault("with_projects", true)
	withAttrs := b.BoolDefault("with_custom_attributes", false)
	if err := b.Err(); err != nil {
		return err
	}
	a := httpx.Actor(c)
	d, err := h.groups.Get(c.Request.Context(), a, httpx.PathParam(c, "id"), groups.Load{CustomAttributes: withAttrs})
	if err != nil {
		return err
	}
	out := detail(c, d, withProjects, withAttrs && a.IsAdmin())
	if withProjects {
		if out.Projects, err = h.groupProjects(c, d.Group.ID, false); err != nil {
			return err
		}
		if out.SharedProjects, err = h.groupProjects(c, d.Group.ID, true); err != nil {
			return err
		}
	}
	return httpx.OK(c, out)
}

// detailProjectsLimit is how many projects GroupDetail embeds, as GitLab's projects_limit.
const detailProjectsLimit = 100

// groupProjects renders the group's own projects (or those shared with it) that the caller may
// see, for GroupDetail's projects and shared_projects.
func (h *handlers) groupProjects(c *gin.Context, groupID int, shared bool) (*[]json.RawMessage, error) {
	l, v, err := h.projects.List(c.Request.Context(), httpx.Actor(c),
		projects.ListParams{GroupID: groupID, SharedOnly: shared}, projects.Order{By: "id", Sort: "asc"},
		pagination.OffsetPage(1, detailProjectsLimit))
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(l.Items))
	for _, p := range l.Items {
		raw, err := json.Marshal(httpx.P(c).Project(p, v, presenter.ProjectOptions{}))
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return &out, nil
}

// create handles POST /groups: 201 with the new group.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name", "path")
	in := groups.CreateInput{
		Name: b.StringDefault("name", ""), Path: b.StringDefault("path", ""),
		ParentID: optInt(b, "parent_id"), Description: b.String("description"),
		Visibility: b.Enum("visibility", groups.Visibilities...), Settings: bindSettings(b),
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, a := c.Request.Context(), httpx.Actor(c)
	ns, err := h.groups.Create(ctx, a, in)
	if err != nil {
		return failedToSave(err)
	}
	d, err := h.groups.Detail(ctx, a, ns)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, detail(c, d, true, false))
	return nil
}

// update handles PUT /groups/:id.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := groups.UpdateInput{
		Name: b.String("name"), Path: b.String("path"), Description: b.NullableString("description"),
		Visibility: b.Enum("visibility", groups.Visibilities...), Settings: bindSettings(b),
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, a := c.Request.Context(), httpx.Actor(c)
	ns, err := h.groups.Update(ctx, a, httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	d, err := h.groups.Detail(ctx, a, ns)
	if err != nil {
		return err
	}
	return httpx.OK(c, detail(c, d, true, false))
}

// delete handles DELETE /groups/:id: 202 {"message":"202 Accepted"}, as GitLab answers.
func (h *handlers) delete(c *gin.Context) error {
	if err := h.groups.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id")); err != nil {
		return err
	}
	httpx.JSON(c, http.StatusAccepted, gin.H{"message": "202 Accepted"})
	return nil
}

// share handles POST /groups/:id/share: 201 with the shared group.
func (h *handlers) share(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("group_id", "group_access")
	in := groups.ShareInput{ExpiresAt: b.Date("expires_at")}
	if v := b.Int("group_id"); v != nil {
		in.GroupID = *v
	}
	if v := b.Int("group_access"); v != nil {
		in.GroupAccess = *v
		if !authz.ValidMemberLevel(*v) {
			b.Fail("group_access does not have a valid value")
		}
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, a := c.Request.Context(), httpx.Actor(c)
	ns, err := h.groups.Share(ctx, a, httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	d, err := h.groups.Detail(ctx, a, ns)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, detail(c, d, true, false))
	return nil
}

// transfer handles POST /groups/:id/transfer: under the group group_id, or to the top level
// without it; 201 with the moved group, or GitLab's 400 "Transfer failed: <reason>".
func (h *handlers) transfer(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	parentID := optInt(b, "group_id")
	if err := b.Err(); err != nil {
		return err
	}
	ctx, a := c.Request.Context(), httpx.Actor(c)
	ns, err := h.groups.Transfer(ctx, a, httpx.PathParam(c, "id"), parentID)
	if err != nil {
		return err
	}
	d, err := h.groups.Detail(ctx, a, ns)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, detail(c, d, true, false))
	return nil
}

// unshare handles DELETE /groups/:id/share/:group_id: 204.
func (h *handlers) unshare(c *gin.Context) error {
	gid, err := strconv.Atoi(httpx.PathParam(c, "group_id"))
	if err != nil {
		return apperr.Invalid("group_id")
	}
	if err := h.groups.Unshare(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), gid); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// detail renders a group's detail shape.
func detail(c *gin.Context, d *groups.Detail, withProjects, withAttrs bool) *presenter.GroupDetail {
	return httpx.P(c).GroupDetail(d.Group, d.SharedWith, presenter.GroupDetailOptions{
		GroupOptions: presenter.GroupOptions{CustomAttributes: withAttrs},
		WithProjects: withProjects, CanAdmin: d.CanAdmin,
	})
}
