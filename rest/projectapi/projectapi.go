// Package projectapi serves the project endpoints: /projects, /projects/:id, sharing with
// groups, and the project listings of users and groups.
package projectapi

import (
	"net/http"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/stars"
	"anvil/internal/service/statistics"
	"anvil/internal/service/users"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	projects *projects.Service
	users    *users.Service
	groups   *groups.Service
	stars    *stars.Service
	stats    *statistics.Service
}

// Register adds the project routes.
func Register(t *route.Table) {
	h := &handlers{projects: t.S.Projects, users: t.S.Users, groups: t.S.Groups, stars: t.S.Stars, stats: t.S.Statistics}
	t.GET("/projects", h.list)
	t.POST("/projects", h.create, route.SignedIn)
	t.POST("/projects/user/:user_id", h.createForUser, route.AdminOnly)
	t.GET("/projects/:id", h.get)
	t.PUT("/projects/:id", h.update, route.SignedIn)
	t.DELETE("/projects/:id", h.delete, route.SignedIn)
	t.POST("/projects/:id/archive", h.archive(true), route.SignedIn)
	t.POST("/projects/:id/unarchive", h.archive(false), route.SignedIn)
	t.POST("/projects/:id/share", h.share, route.SignedIn)
	t.DELETE("/projects/:id/share/:group_id", h.unshare, route.SignedIn)
	t.PUT("/projects/:id/transfer", h.transfer, route.SignedIn)
	t.POST("/projects/:id/star", h.star, route.SignedIn)
	t.POST("/projects/:id/unstar", h.unstar, route.SignedIn)
	t.GET("/projects/:id/starrers", h.starrers)
	t.GET("/users/:id/projects", h.userProjects)
	t.GET("/users/:id/starred_projects", h.userStarredProjects)
	t.GET("/groups/:id/projects", h.groupProjects)
	t.GET("/groups/:id/projects/shared", h.groupSharedProjects)
}

// list handles GET /projects.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	req, err := BindList(b, true)
	if err != nil {
		return err
	}
	return h.present(c, req)
}

// userProjects handles GET /users/:id/projects: the user's personal projects the caller may see.
func (h *handlers) userProjects(c *gin.Context) error {
	u, err := h.users.FindRef(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	req, err := BindList(b, true)
	if err != nil {
		return err
	}
	req.Params.UserID = u.ID
	return h.present(c, req)
}

// groupProjects handles GET /groups/:id/projects: full projects without permissions, plain
// offset pages.
func (h *handlers) groupProjects(c *gin.Context) error { return h.listGroup(c, false) }

// groupSharedProjects handles GET /groups/:id/projects/shared: the projects shared with the group.
func (h *handlers) groupSharedProjects(c *gin.Context) error { return h.listGroup(c, true) }

func (h *handlers) listGroup(c *gin.Context, sharedOnly bool) error {
	ns, err := h.groups.Find(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), authz.ReadGroup)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	withShared, subgroups := b.BoolDefault("with_shared", true), b.BoolDefault("include_subgroups", false)
	ancestors := b.BoolDefault("include_ancestor_groups", false)
	req, err := BindList(b, false)
	if err != nil {
		return err
	}
	p := &req.Params
	p.GroupID, p.SharedOnly = ns.ID, sharedOnly
	p.WithShared, p.IncludeSubgroups, p.IncludeAncestorGroups = withShared, subgroups, ancestors
	r, v, err := h.projects.List(c.Request.Context(), httpx.Actor(c), req.Params, req.Order, req.Page)
	if err != nil {
		return err
	}
	opts, err := h.withStatistics(c, req.Options, v, r.Items...)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).GroupProjectList(r.Items, v, req.Simple, opts))
}

// present lists the projects req asks for and renders them for the caller.
func (h *handlers) present(c *gin.Context, req ListRequest) error {
	r, v, err := h.projects.List(c.Request.Context(), httpx.Actor(c), req.Params, req.Order, req.Page)
	if err != nil {
		return err
	}
	opts, err := h.withStatistics(c, req.Options, v, r.Items...)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).ProjectList(r.Items, v, req.Simple, opts))
}

// get handles GET /projects/:id.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	opts := BindOptions(b)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.projects.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	if opts, err = h.withStatistics(c, opts, v, p); err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ProjectForViewer(p, v, opts))
}

// create handles POST /projects.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOne("name", "path")
	in := projects.CreateInput{Attributes: bindAttributes(b), NamespaceID: b.Int("namespace_id"),
		InitializeWithReadme: b.BoolDefault("initialize_with_readme", false)}
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.projects.Create(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return limitReached(err)
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, BindOptions(b)))
}

// limitReached answers a project beyond the creator's projects_limit as POST /projects does:
// 403 {"error": message} (POST /projects/user/:user_id keeps the validation error).
func limitReached(err error) error {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindValidation {
		if msgs := e.Fields[projects.LimitReached]; len(msgs) > 0 {
			return httpx.GrapeError(http.StatusForbidden, msgs[0])
		}
	}
	return err
}

// createForUser handles POST /projects/user/:user_id (administrators).
func (h *handlers) createForUser(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	uid, convErr := strconv.Atoi(httpx.PathParam(c, "user_id"))
	if convErr != nil {
		b.Fail("user_id is invalid")
	}
	b.Require("name")
	in := projects.CreateInput{Attributes: bindAttributes(b), NamespaceID: b.Int("namespace_id"), UserID: &uid,
		InitializeWithReadme: b.BoolDefault("initialize_with_readme", false)}
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.projects.Create(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, BindOptions(b)))
}

// update handles PUT /projects/:id.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := projects.UpdateInput{Attributes: bindAttributes(b)}
	b.RequireOneKey(updateParams...)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.projects.Update(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Project(p, v, BindOptions(b)))
}

// archive handles POST /projects/:id/archive (archived true) and /unarchive (false).
func (h *handlers) archive(archived bool) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		b, err := httpx.Bind(c)
		if err != nil {
			return err
		}
		p, v, err := h.projects.SetArchived(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), archived)
		if err != nil {
			return err
		}
		httpx.JSON(c, http.StatusCreated, httpx.P(c).Project(p, v, BindOptions(b)))
		return nil
	}
}

// delete handles DELETE /projects/:id: deletion is accepted, as GitLab schedules it.
func (h *handlers) delete(c *gin.Context) error {
	if err := h.projects.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id")); err != nil {
		return err
	}
	httpx.JSON(c, http.StatusAccepted, gin.H{"message": "202 Accepted"})
	return nil
}

// share handles POST /projects/:id/share.
func (h *handlers) share(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("group_id", "group_access")
	in := projects.ShareInput{ExpiresAt: b.Date("expires_at")}
	if v := b.Int("group_id"); v != nil {
		in.GroupID = *v
	}
	if v := b.Int("group_access"); v != nil {
		if !authz.ValidMemberLevel(*v) {
			b.Fail("group_access does not have a valid value")
		}
		in.GroupAccess = *v
	}
	if err := b.Err(); err != nil {
		return err
	}
	link, err := h.projects.Share(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ProjectGroupLink(link))
}

// unshare handles DELETE /projects/:id/share/:group_id.
func (h *handlers) unshare(c *gin.Context) error {
	gid, err := strconv.Atoi(httpx.PathParam(c, "group_id"))
	if err != nil {
		return apperr.Invalid("group_id")
	}
	if err := h.projects.Unshare(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), gid); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// withStatistics loads the storage statistics statistics=true shows: those of the projects the
// caller may read them of (read_statistics), computed anew where a push made them stale.
func (h *handlers) withStatistics(c *gin.Context, opts presenter.ProjectOptions, v *projects.View, rows ...*ent.Project) (presenter.ProjectOptions, error) {
	if !opts.Statistics {
		return opts, nil
	}
	var readable []*ent.Project
	for _, p := range rows {
		if v.Can(p, authz.ReadStatistics) {
			readable = append(readable, p)
		}
	}
	var err error
	opts.StatisticsOf, err = h.stats.ForProjects(c.Request.Context(), readable)
	return opts, err
}
